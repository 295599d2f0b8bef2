// The extension's client against a real `lantern lsp`: the program and arguments `setup` gives,
// over the same protocol library `vscode-languageclient` speaks, on a mod set copied to a
// temporary workspace. `LANTERN` names the program (default: the workspace's debug build).

import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import * as setup from '../src/setup';

const repo = path.resolve(__dirname, '../../../..');
const program = process.env.LANTERN ?? path.join(repo, 'target/debug/lantern');
/** Far beyond any answer (a check of a small mod set takes milliseconds); not a timing test. */
const PATIENCE = 120_000;

let workspace: string;
let server: ChildProcess;
let connection: ProtocolConnection;
const diagnostics = new Map<string, { message: string; code?: unknown }[]>();
const waiting: (() => void)[] = [];

const rats = 'id = "rats"\nname = "Rats"\nversion = "0.1.0"\ndepends = ["core"]\n';
const typo = '[[triggers]]\non = "turn_started"\nactions = [{ action = "give_item", item = "core:gld" }]\n';

before(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'lantern-vscode-'));
  fs.cpSync(path.join(repo, 'mods/core'), path.join(workspace, 'mods/core'), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'mods/rats/data'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'mods/rats/mod.toml'), rats);
  fs.writeFileSync(path.join(workspace, 'mods/rats/data/rats.toml'), typo);
  const { command, args } = setup.serverCommand({ path: program, args: [] });
  server = spawn(command, args, { cwd: workspace, stdio: ['pipe', 'pipe', 'inherit'] });
  connection = createProtocolConnection(
    new StreamMessageReader(server.stdout!),
    new StreamMessageWriter(server.stdin!),
  );
  connection.onNotification('textDocument/publishDiagnostics', (params: any) => {
    diagnostics.set(params.uri, params.diagnostics);
    waiting.splice(0).forEach((wake) => wake());
  });
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(workspace).href,
    capabilities: {},
  });
  connection.sendNotification('initialized', {});
});

after(() => {
  connection?.dispose();
  server?.kill();
  fs.rmSync(workspace, { recursive: true, force: true });
});

/** The diagnostics of `uri` once `ready` holds for them. */
async function diagnosticsOf(uri: string, ready: (d: { message: string }[]) => boolean) {
  const deadline = Date.now() + PATIENCE;
  for (;;) {
    const now = diagnostics.get(uri);
    if (now && ready(now)) {
      return now;
    }
    assert.ok(Date.now() < deadline, `no diagnostics for ${uri}: ${JSON.stringify(now)}`);
    await new Promise<void>((wake) => {
      waiting.push(wake);
      setTimeout(wake, 1000);
    });
  }
}

function open(file: string, text: string): string {
  const uri = pathToFileURL(fs.realpathSync(file)).href;
  connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: file.endsWith('.lua') ? 'lua' : 'toml', version: 1, text },
  });
  return uri;
}

test('a selected data file is checked as the mod set sees it, as you type', async () => {
  const file = path.join(workspace, 'mods/rats/data/rats.toml');
  const uri = open(file, typo);
  const found = await diagnosticsOf(uri, (d) => d.length > 0);
  assert.ok(
    found.some((d) => d.message.includes('core:gld') && d.message.includes('core:gold')),
    JSON.stringify(found),
  );
  const fixed = typo.replace('core:gld', 'core:gold');
  connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  await diagnosticsOf(uri, (d) => d.length === 0);
});

test('a selected script completes the API', async () => {
  const file = path.join(workspace, 'mods/rats/scripts/main.lua');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');
  const text = 'lantern.';
  const uri = open(file, text);
  const answer: any = await connection.sendRequest('textDocument/completion', {
    textDocument: { uri },
    position: { line: 0, character: text.length },
  });
  const labels: string[] = (answer.items ?? answer).map((i: { label: string }) => i.label);
  assert.ok(labels.includes('emit_event'), labels.join(' '));
});

test("the program writes the editor files the settings point at", async () => {
  const folder = path.join(workspace, 'storage');
  const files = await setup.writeEditorFiles(program, setup.editorFolder(folder, program));
  assert.match(fs.readFileSync(files.luaDefs, 'utf8'), /emit_event/);
  for (const schema of [files.dataSchema, files.modSchema, files.localeSchema]) {
    assert.equal(typeof JSON.parse(fs.readFileSync(schema, 'utf8')), 'object', schema);
  }
  const updates = setup.settingUpdates(files, () => undefined);
  const library = updates.find((u) => u.key === 'workspace.library');
  assert.deepEqual(library?.value, [files.folder]);
  await assert.rejects(
    setup.writeEditorFiles(path.join(workspace, 'no-such-program'), folder),
    /no-such-program docs --lua-defs/,
  );
});
