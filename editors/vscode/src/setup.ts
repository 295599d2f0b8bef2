// What the extension decides without VS Code: the program it starts, the files it hands to the
// server, the editor files it has the program write and the settings that point the Lua and TOML
// extensions at them. `extension.ts` applies these; the node tests check them against a real
// `lantern lsp`.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The extension's own settings (`lantern.server.*`). */
export interface ServerSettings {
  /** The program: `lantern`, or a game's binary. Empty means `lantern` on the `PATH`. */
  path: string;
  /** Arguments after `lsp`. */
  args: string[];
}

/** The program the settings name and the arguments that make it a language server. */
export function serverCommand(settings: ServerSettings): { command: string; args: string[] } {
  const command = settings.path.trim() === '' ? 'lantern' : settings.path.trim();
  return { command, args: ['lsp', ...settings.args] };
}

/** A mod's files, as VS Code globs: the files the server answers for, in any language mode. */
export const MOD_FILES: readonly string[] = [
  '**/mod.toml',
  '**/data/**/*.toml',
  '**/locale/**/*.toml',
  '**/scripts/**/*.lua',
  '**/tests/**/*.lua',
];

/** The client's document selector: mod files on disk by path, whatever extension gives them a
 *  language (Even Better TOML, the Lua extension, or none). */
export function documentSelector(): { scheme: string; pattern: string }[] {
  return MOD_FILES.map((pattern) => ({ scheme: 'file', pattern }));
}

/** The folder a program's editor files go to, under the extension's storage: one per program, so
 *  a game's binary and `lantern` keep their own. */
export function editorFolder(storage: string, command: string): string {
  const name = path.basename(command).replace(/[^A-Za-z0-9_.-]/g, '_');
  const hash = createHash('sha256').update(command).digest('hex').slice(0, 12);
  return path.join(storage, `${name}-${hash}`);
}

/** The editor files `docs` writes into a folder: the Lua API, the test API and the schemas. */
export interface EditorFiles {
  folder: string;
  luaDefs: string;
  dataSchema: string;
  modSchema: string;
  localeSchema: string;
}

export function editorFiles(folder: string): EditorFiles {
  return {
    folder,
    luaDefs: path.join(folder, 'lantern.d.lua'),
    dataSchema: path.join(folder, 'lantern-data.schema.json'),
    modSchema: path.join(folder, 'lantern-mod.schema.json'),
    localeSchema: path.join(folder, 'lantern-locale.schema.json'),
  };
}

/** Has `command` write its editor files (`docs --lua-defs ... --schema ...`) into `folder`:
 *  written from the program itself, they know its game's tables, events and API. Rejects with the
 *  program's own message when it fails or is missing. */
export function writeEditorFiles(command: string, folder: string): Promise<EditorFiles> {
  const files = editorFiles(folder);
  fs.mkdirSync(folder, { recursive: true });
  const args = ['docs', '--lua-defs', files.luaDefs, '--schema', folder];
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) {
        const said = stderr.trim() || error.message;
        reject(new Error(`\`${command} ${args.join(' ')}\` failed: ${said}`));
      } else {
        resolve(files);
      }
    });
  });
}

/** The libraries lantern's sandbox leaves out, for LuaLS not to offer them. */
const NOT_IN_SANDBOX = ['io', 'os', 'debug', 'package', 'ffi', 'jit', 'bit', 'bit32'];

/** The globals a mod's test files have. */
const TEST_GLOBALS = ['describe', 'it', 'expect', 'before_each', 'pending'];

/** A setting to write: its section (`Lua`, `evenBetterToml`), its key in it and its value. */
export interface SettingUpdate {
  section: string;
  key: string;
  value: unknown;
}

/** What the workspace's settings read now, by `section.key`. */
export type CurrentSettings = (section: string, key: string) => unknown;

/** The settings that point LuaLS and Even Better TOML at `files`, merged into what the workspace
 *  has (a user's own libraries, globals and associations stay); only those that change. */
export function settingUpdates(files: EditorFiles, current: CurrentSettings): SettingUpdate[] {
  const updates: SettingUpdate[] = [];
  const set = (section: string, key: string, value: unknown) => {
    if (JSON.stringify(current(section, key)) !== JSON.stringify(value)) {
      updates.push({ section, key, value });
    }
  };
  const list = (section: string, key: string, wanted: string[]) => {
    const had = current(section, key);
    const have = Array.isArray(had) ? had.filter((x) => typeof x === 'string') : [];
    set(section, key, [...have, ...wanted.filter((x) => !have.includes(x))]);
  };
  const table = (section: string, key: string, wanted: Record<string, string>) => {
    const had = current(section, key);
    const have = had !== null && typeof had === 'object' && !Array.isArray(had) ? had : {};
    set(section, key, { ...have, ...wanted });
  };
  set('Lua', 'runtime.version', 'Lua 5.4');
  table('Lua', 'runtime.builtin', Object.fromEntries(NOT_IN_SANDBOX.map((l) => [l, 'disable'])));
  list('Lua', 'workspace.library', [files.folder]);
  list('Lua', 'diagnostics.globals', TEST_GLOBALS);
  table('evenBetterToml', 'schema.associations', {
    '.*/mod\\.toml$': pathToFileURL(files.modSchema).href,
    '.*/data/.*\\.toml$': pathToFileURL(files.dataSchema).href,
    '.*/locale/.*\\.toml$': pathToFileURL(files.localeSchema).href,
  });
  return updates;
}
