/**
 * shared-object on the flux layout: two Kustomizations that build one component whose object name
 * is a Flux post-build variable (`${APP}-env`, each Kustomization substituting its own APP) apply
 * two different objects; the rule does not compare names Flux has yet to substitute. A real
 * duplicate (a literal name) is still reported (ADR 0390: the same content, a warning). Small repository written by the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';

const ks = (name: string, path: string, app: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  postBuild:
    substitute:
      APP: ${app}
`;

async function findings(objectName: string): Promise<{ code: string; message: string }[]> {
  const dir = writeTree({
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/a.yaml': ks('a', './apps/a', 'a'),
    'clusters/one/b.yaml': ks('b', './apps/b', 'b'),
    'apps/a/kustomization.yaml': 'components:\n  - ../../components/env\n',
    'apps/b/kustomization.yaml': 'components:\n  - ../../components/env\n',
    'components/env/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - cm.yaml\n',
    'components/env/cm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${objectName}\n  namespace: team\n`,
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: { code: string; message: string }[] }).findings;
  } finally {
    removeTree(dir);
  }
}

test('flux shared-object: a name that is a Flux post-build variable is each Kustomization\'s own object, not shared', async () => {
  const f = await findings('${APP}-env');
  assert.deepEqual(f.filter((x) => x.code.startsWith('shared-object')), []);
});

test('flux shared-object: a literal name built by two Kustomizations is still shared (the same content: a warning)', async () => {
  const f = await findings('same-env');
  assert.deepEqual(f.filter((x) => x.code.startsWith('shared-object')).map((x) => x.code), ['shared-object-identical'], JSON.stringify(f));
});
