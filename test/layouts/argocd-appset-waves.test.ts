/**
 * Sync waves and ApplicationSets (ADR 0407): an ApplicationSet's own sync-wave annotation orders
 * the ApplicationSet object in its parent app's sync; the Applications it generates carry its
 * template's annotations, and their waves order nothing (they are not children of a sync,
 * argo-cd #12444) unless a RollingSync strategy orders them. plan and validate say the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const PARENT = argoPathApplication({ name: 'parent', path: 'sets', namespace: 'argocd' });

function appSet(name: string, ownWave: string, templateWave: string | undefined, strategy = ''): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: set-${name}
  namespace: argocd
  annotations:
    argocd.argoproj.io/sync-wave: "${ownWave}"
spec:
${strategy}  generators:
    - list:
        elements:
          - name: ${name}
  template:
    metadata:
      name: '{{name}}'
${templateWave === undefined ? '' : `      annotations:\n        argocd.argoproj.io/sync-wave: "${templateWave}"\n`}    spec:
      project: default
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{name}}'
      source:
        repoURL: https://github.com/acme/platform
        targetRevision: HEAD
        path: '{{name}}'
`;
}

const CM = (n: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n`;

test('plan: the template\'s waves are the generated Applications\', and a note says they order nothing; the ApplicationSet\'s own wave orders only the ApplicationSet', async () => {
  const dir = writeTree({ 'gitops/parent.yaml': PARENT, 'sets/a.yaml': appSet('a', '-5', '2'), 'sets/b.yaml': appSet('b', '5', undefined), 'a/cm.yaml': CM('a'), 'b/cm.yaml': CM('b') });
  try {
    const json = await cli(['plan', '--repo', dir, '-o', 'json'], process.cwd(), {});
    const plan = JSON.parse(json.stdout) as { clusters: { apps: { name: string; wave: number }[] }[] };
    assert.deepEqual(Object.fromEntries(plan.clusters[0]!.apps.map((a) => [a.name, a.wave])), { a: 2, b: 0, parent: 0 });
    const text = await cli(['plan', '--repo', dir], process.cwd(), {});
    assert.match(text.stdout, /the sync wave of the Applications ApplicationSet set-a generates \(a: 2, from its template\) orders nothing: they are not children of a sync/);
    assert.doesNotMatch(text.stdout, /Applications ApplicationSet set-b generates \(/);
    assert.match(text.stdout, /ApplicationSet set-a's own sync wave \(-5\) orders the ApplicationSet object in Application parent's sync, not its Applications/);
    const v = await cli(['validate', '--repo', dir], process.cwd(), {});
    assert.match(v.stdout, /ApplicationSet "set-a" has a sync wave \(-5\), which orders the ApplicationSet object in app "parent"'s sync, not the Applications it generates/);
    assert.match(v.stdout, /ApplicationSet "set-a" gives its Applications a sync wave \(2\), which does not order them/);
  } finally {
    removeTree(dir);
  }
});

test('plan: with a RollingSync strategy the template\'s waves get no "orders nothing" note', async () => {
  const dir = writeTree({ 'gitops/parent.yaml': PARENT, 'sets/a.yaml': appSet('a', '-5', '2', '  strategy:\n    type: RollingSync\n    rollingSync:\n      steps: []\n'), 'a/cm.yaml': CM('a') });
  try {
    const text = await cli(['plan', '--repo', dir], process.cwd(), {});
    assert.match(text.stdout, /ApplicationSet set-a \(Application parent\) generates 1 Application: a/);
    assert.doesNotMatch(text.stdout, /orders nothing/);
  } finally {
    removeTree(dir);
  }
});
