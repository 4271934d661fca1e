// Leaf files in a directory the run makes are created exclusively and checked on their
// descriptors like the cluster files (docs/adr/0294; before, they were written by name): a
// directory swapped for a link while they are written gets nothing through it.
import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManifestWriter } from '../../src/adapters/build-cache.js';
import { OUTPUT_HOOKS } from '../../src/adapters/output.js';

const root = mkdtempSync(join(tmpdir(), 'fleetplan-manifests-checked-'));
after(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => delete OUTPUT_HOOKS.beforeOpen);
let n = 0;
const fresh = (name: string) => {
  const d = join(root, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};
const objects = (k: number) => Array.from({ length: k }, (_, i) => ({ name: `0${i}-configmap-x-c${i}.yaml`, content: `kind: ConfigMap\ni: ${i}\n` }));

for (const k of [1, 6]) {
  test(`a new app directory of ${k} file(s) swapped for a link while it is written: nothing goes through the link, the write fails`, () => {
    const out = fresh('out');
    const victim = fresh('victim');
    // The link leads to a directory that has an `app` of its own: the place a write by name would land.
    mkdirSync(join(victim, 'app'));
    let swapped = false;
    OUTPUT_HOOKS.beforeOpen = (abs) => {
      if (swapped || !abs.includes('/c1/manifests/app/')) return;
      swapped = true;
      renameSync(join(out, 'c1/manifests'), join(out, 'c1/manifests.moved'));
      symlinkSync(victim, join(out, 'c1/manifests'));
    };
    const w = createManifestWriter(out);
    assert.throws(() => w.replaceDirectory('c1/manifests/app', objects(k)), /c1\/manifests\/app\/00-configmap-x-c0\.yaml resolved to .* while it was written/);
    assert.ok(swapped, 'the swap happened');
    assert.deepEqual(readdirSync(join(victim, 'app')), [], 'nothing written outside the output directory');
  });
}

test('new app directories are written whole, one or many files each', () => {
  const out = fresh('out');
  const w = createManifestWriter(out);
  for (const k of [1, 3, 4, 9]) w.replaceDirectory(`c1/manifests/app${k}`, objects(k));
  w.close();
  for (const k of [1, 3, 4, 9]) {
    const dir = join(out, `c1/manifests/app${k}`);
    assert.deepEqual(readdirSync(dir).sort(), objects(k).map((o) => o.name));
    for (const o of objects(k)) assert.equal(readFileSync(join(dir, o.name), 'utf8'), o.content);
  }
  assert.match(readFileSync(join(out, '.fleetplan-manifest'), 'utf8'), /c1\/manifests\/app9\/08-configmap-x-c8\.yaml/);
});
