/**
 * fleetplanBuild (src/adapters/diff-records.ts): the identity of the compiled code that keys the
 * diff's records. Any compiled module or JSON file changed, added or removed is another build, so a
 * record never outlives the code that wrote it. The module is copied into a tree of its own (it
 * walks the folder above its own) and run in a child process per reading (it memoizes the id).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const MODULE = fileURLToPath(new URL('../../src/adapters/diff-records.js', import.meta.url));

test('the build id changes with a compiled file, a JSON file, an added module; not with a source map', () => {
  const top = writeTree({ 'package.json': '{"type":"module"}\n', 'src/cli/main.js': 'export {};\n', 'src/api/diff.js': 'export const a = 1;\n', 'src/validate/catalog/schemas.json': '{}\n', 'src/api/diff.js.map': '{}\n', 'src/adapters/.keep': '' }, mkdtempSync(join(tmpdir(), 'fleetplan-build-')));
  try {
    copyFileSync(MODULE, join(top, 'src/adapters/diff-records.js'));
    const id = (): string => execFileSync(process.execPath, ['--input-type=module', '-e', `import { fleetplanBuild } from ${JSON.stringify(join(top, 'src/adapters/diff-records.js'))}; process.stdout.write(fleetplanBuild());`], { encoding: 'utf8' });
    const first = id();
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(id(), first, 'the same files: the same id');
    const at = new Date('2026-01-01T00:00:00Z');
    writeFileSync(join(top, 'src/api/diff.js.map'), '{"changed":true}\n');
    assert.equal(id(), first, 'a source map is not code');
    writeFileSync(join(top, 'src/api/diff.js'), 'export const a = 2;\n');
    utimesSync(join(top, 'src/api/diff.js'), at, at);
    const edited = id();
    assert.notEqual(edited, first, 'a module rewritten (same size, another time)');
    utimesSync(join(top, 'src/api/diff.js'), at, new Date('2026-01-01T00:00:01Z'));
    assert.notEqual(id(), edited, 'only its time changed');
    const touched = id();
    writeFileSync(join(top, 'src/validate/catalog/schemas.json'), '{"a":1}\n');
    const json = id();
    assert.notEqual(json, touched, 'a JSON file the code reads');
    writeFileSync(join(top, 'src/api/new.js'), 'export {};\n');
    assert.notEqual(id(), json, 'a module added');
  } finally {
    removeTree(top);
  }
});
