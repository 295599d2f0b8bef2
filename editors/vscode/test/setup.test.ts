// The extension's decisions, checked without VS Code: the program it starts, the files it hands
// the server, and the settings it writes for the Lua and TOML extensions.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import * as setup from '../src/setup';

test('the program is lantern unless a game binary is set, always with `lsp` first', () => {
  assert.deepEqual(setup.serverCommand({ path: '', args: [] }), { command: 'lantern', args: ['lsp'] });
  assert.deepEqual(setup.serverCommand({ path: ' /games/harvest ', args: ['--mods', 'm'] }), {
    command: '/games/harvest',
    args: ['lsp', '--mods', 'm'],
  });
});

test("the selector takes a mod's files, by path, and nothing beside them", () => {
  const selected = (file: string) => setup.MOD_FILES.some((glob) => minimatch(file, glob));
  for (const file of [
    '/w/mods/rats/mod.toml',
    '/w/mods/rats/data/rats.toml',
    '/w/mods/rats/data/deep/er/rooms.toml',
    '/w/mods/rats/locale/de.toml',
    '/w/mods/fr/locale/rats/fr.toml',
    '/w/mods/rats/scripts/main.lua',
    '/w/mods/rats/scripts/lib/util.lua',
    '/w/mods/rats/tests/rats_test.lua',
  ]) {
    assert.ok(selected(file), file);
  }
  for (const file of ['/w/Cargo.toml', '/w/mods/rats/README.md', '/w/mods/rats/notes.lua', '/w/init.lua']) {
    assert.ok(!selected(file), file);
  }
  for (const filter of setup.documentSelector()) {
    assert.equal(filter.scheme, 'file');
  }
});

test('each program has its own editor folder', () => {
  const a = setup.editorFolder('/storage', 'lantern');
  const b = setup.editorFolder('/storage', '/games/harvest');
  assert.notEqual(a, b);
  assert.equal(path.dirname(a), '/storage');
  assert.match(path.basename(b), /^harvest-[0-9a-f]{12}$/);
});

test("the settings keep the user's own and change nothing the second time", () => {
  const files = setup.editorFiles('/storage/lantern-0');
  const workspace: Record<string, unknown> = {
    'Lua.workspace.library': ['/my/lib'],
    'Lua.diagnostics.globals': ['vim', 'it'],
    'evenBetterToml.schema.associations': { 'Cargo\\.toml$': 'https://cargo' },
  };
  const current: setup.CurrentSettings = (section, key) => workspace[`${section}.${key}`];
  const updates = setup.settingUpdates(files, current);
  for (const u of updates) {
    workspace[`${u.section}.${u.key}`] = u.value;
  }
  assert.deepEqual(workspace['Lua.workspace.library'], ['/my/lib', '/storage/lantern-0']);
  assert.deepEqual(workspace['Lua.diagnostics.globals'], ['vim', 'it', 'describe', 'expect', 'before_each', 'pending']);
  assert.equal(workspace['Lua.runtime.version'], 'Lua 5.4');
  assert.equal((workspace['Lua.runtime.builtin'] as Record<string, string>).io, 'disable');
  const associations = workspace['evenBetterToml.schema.associations'] as Record<string, string>;
  assert.equal(associations['Cargo\\.toml$'], 'https://cargo');
  assert.equal(associations['.*/mod\\.toml$'], 'file:///storage/lantern-0/lantern-mod.schema.json');
  for (const [pattern, schema] of [
    ['/w/mods/rats/data/rats.toml', 'lantern-data'],
    ['/w/mods/rats/locale/de.toml', 'lantern-locale'],
    ['/w/mods/rats/mod.toml', 'lantern-mod'],
  ]) {
    const matching = Object.entries(associations).filter(([re]) => new RegExp(re).test(`file://${pattern}`));
    assert.deepEqual(
      matching.map(([, url]) => path.basename(url, '.schema.json')),
      [schema],
      pattern,
    );
  }
  assert.deepEqual(setup.settingUpdates(files, current), []);
});
