// The package as VS Code reads it: the manifest's entry point is the bundle, the bundle loads
// with nothing but `vscode` outside it, and every setting the code reads is declared.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Module = require('node:module');

const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('the bundle loads with only `vscode` from outside and exports activate and deactivate', () => {
  const main = path.join(root, manifest.main);
  assert.ok(fs.existsSync(main), `${manifest.main} is built by \`npm run compile\``);
  // A stand-in for the editor's module: anything read of it is itself, so loading runs the
  // bundle's top level and nothing of the editor's.
  const stub: any = new Proxy(function () {}, {
    get: (_t, key) => (key === 'then' ? undefined : stub),
    apply: () => stub,
    construct: () => stub,
  });
  const load = (Module as any)._load;
  const asked: string[] = [];
  (Module as any)._load = function (request: string, ...rest: unknown[]) {
    asked.push(request);
    return request === 'vscode' ? stub : load.call(this, request, ...rest);
  };
  try {
    const extension = require(main);
    assert.equal(typeof extension.activate, 'function');
    assert.equal(typeof extension.deactivate, 'function');
  } finally {
    (Module as any)._load = load;
  }
  const outside = asked.filter((r) => r !== main && r !== 'vscode' && !r.startsWith('node:'));
  const builtin = new Set(Module.builtinModules);
  assert.deepEqual(outside.filter((r) => !builtin.has(r)), [], 'the bundle holds its libraries');
});

test('every setting the code reads is declared, and it starts where a mod is', () => {
  const declared = Object.keys(manifest.contributes.configuration.properties).sort();
  const code = ['extension.ts', 'setup.ts']
    .map((f) => fs.readFileSync(path.join(root, 'src', f), 'utf8'))
    .join('\n');
  const read = new Set<string>();
  for (const m of code.matchAll(/\.get<[^>]+>\('(lantern\.[\w.]+)'/g)) {
    read.add(m[1]);
  }
  assert.deepEqual([...read].sort(), declared);
  assert.deepEqual(manifest.activationEvents, ['workspaceContains:**/mod.toml']);
});
