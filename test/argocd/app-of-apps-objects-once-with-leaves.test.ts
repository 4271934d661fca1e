/**
 * `render --out DIR --leaves` writes an app-of-apps' build under DIR/<cluster>/manifests/<app>/,
 * and that build holds the objects it applies besides its Applications. They were written under
 * objects/ as well, so `kubectl apply -R -f DIR` applied each twice (ADR 0407: with --leaves they are
 * written once, in the app's build; without --leaves, under objects/ as before). A root's other
 * objects are built by no leaf and stay under objects/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  k: v\n';
const ROOT_CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: root-settings\n  namespace: argocd\n';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => (e.startsWith('.') ? [] : statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
}

test('render --leaves writes an app-of-apps\' other objects once, in its build; a root\'s stay under objects/', async () => {
  const dir = writeTree({
    'bootstrap/kustomization.yaml': 'resources:\n  - root.yaml\n  - settings.yaml\n',
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'bootstrap/settings.yaml': ROOT_CM,
    'apps/web.yaml': argoPathApplication({ name: 'web', path: 'web', namespace: 'web' }),
    'apps/cm.yaml': CM,
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
  });
  const out = writeTree({});
  try {
    // A render without --leaves first: the file it wrote under objects/ is removed by the one with --leaves.
    const first = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(first.code, 0, first.stderr);
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    const all = files(out).filter((f) => /\.ya?ml$/.test(f));
    const holding = (name: string) => all.filter((f) => new RegExp(`^  name: ${name}$`, 'm').test(readFileSync(f, 'utf8')) && /kind: ConfigMap/.test(readFileSync(f, 'utf8'))).map((f) => f.slice(out.length + 1));
    assert.equal(holding('settings').length, 1, JSON.stringify(holding('settings')));
    assert.match(holding('settings')[0]!, /^in-cluster\/manifests\/root\//);
    assert.deepEqual(holding('root-settings'), ['in-cluster/objects/configmap-argocd-root-settings.yaml']);
    // Without --leaves the app-of-apps' object is under objects/.
    const out2 = writeTree({});
    try {
      const w = await cli(['render', '--repo', dir, '--out', out2]);
      assert.equal(w.code, 0, w.stderr);
      assert.ok(files(out2).some((f) => f.endsWith('in-cluster/objects/configmap-argocd-settings.yaml')), files(out2).join('\n'));
    } finally {
      removeTree(out2);
    }
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
