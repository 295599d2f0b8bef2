// The VS Code side: starts the server program as a language client for a workspace that holds a
// mod (`workspaceContains:**/mod.toml`), and points the Lua and TOML extensions at the editor
// files the program writes. Every decision is `setup.ts`'s; this file only applies them.

import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import * as setup from './setup';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('lantern', { log: true });
  context.subscriptions.push(output);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (change.affectsConfiguration('lantern')) {
        await client?.stop();
        await start(context, output);
      }
    }),
  );
  await start(context, output);
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}

/** Starts the language client with the settings as they are, and sets the Lua and TOML
 *  extensions up for the same program. */
async function start(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): Promise<void> {
  const { command, args } = setup.serverCommand(readSettings());
  if (vscode.workspace.getConfiguration().get<boolean>('lantern.setUpLuaAndToml', true)) {
    // The Lua and TOML setup is a help, not a condition: a program too old for `docs`, or a
    // read-only workspace, leaves the language server working.
    setUpLuaAndToml(context, command).catch((error: Error) => {
      output.warn(`The Lua and TOML extensions were not set up: ${error.message}`);
    });
  }
  const server: ServerOptions = { command, args };
  const watchers = setup.MOD_FILES.map((glob) => vscode.workspace.createFileSystemWatcher(glob));
  context.subscriptions.push(...watchers);
  const options: LanguageClientOptions = {
    documentSelector: setup.documentSelector(),
    outputChannel: output,
    synchronize: {
      fileEvents: watchers,
    },
  };
  client = new LanguageClient('lantern', 'lantern', server, options);
  try {
    await client.start();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const message = missing
      ? `lantern: cannot start \`${command}\`: it is not on your PATH. Install lantern (its release archive has the program) or set "lantern.server.path" to it, or to your game's own binary.`
      : `lantern: \`${command} ${args.join(' ')}\` did not start: ${String(error)}`;
    void vscode.window.showErrorMessage(message);
  }
}

function readSettings(): setup.ServerSettings {
  const config = vscode.workspace.getConfiguration();
  return {
    path: config.get<string>('lantern.server.path', ''),
    args: config.get<string[]>('lantern.server.args', []),
  };
}

/** Has the program write its Lua definitions and schemas, then writes the workspace settings
 *  that read them (only those that change). */
async function setUpLuaAndToml(context: vscode.ExtensionContext, command: string): Promise<void> {
  const folder = setup.editorFolder(context.globalStorageUri.fsPath, command);
  const files = await setup.writeEditorFiles(command, folder);
  const current: setup.CurrentSettings = (section, key) =>
    vscode.workspace.getConfiguration(section).get(key);
  for (const update of setup.settingUpdates(files, current)) {
    await vscode.workspace
      .getConfiguration(update.section)
      .update(update.key, update.value, vscode.ConfigurationTarget.Workspace);
  }
}
