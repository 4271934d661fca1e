/**
 * shared-object compares objects by the name as written. When kustomize `replacements` of the
 * build rewrite that name (a placeholder such as `ROUTE_NAME-public` filled from a ConfigMap), two
 * Kustomizations writing the same placeholder apply two objects: the finding is a warning that
 * says so, not an error (ADR 0421). Replacements that do not touch the name keep the error.
 * Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';

const ks = (name: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  interval: 1h\n  path: ./apps/${name}\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n`;

function repo(fieldPath: string): Record<string, string> {
  const files: Record<string, string> = {
    'clusters/prod/flux-system/gotk-sync.yaml': gotkSync('prod'),
    'clusters/prod/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/prod/apps.yaml': `${ks('web')}---\n${ks('api')}`,
    'components/route/kustomization.yaml': `apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - policy.yaml\nreplacements:\n  - source:\n      kind: ConfigMap\n      name: route\n      fieldPath: data.name\n    targets:\n      - select:\n          kind: SecurityPolicy\n        fieldPaths:\n          - ${fieldPath}\n        options:\n          delimiter: '-'\n          index: 0\n`,
    'components/route/policy.yaml': 'apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata:\n  name: ROUTE_NAME-public\n  namespace: network\nspec:\n  targetRefs:\n    - kind: HTTPRoute\n      name: ROUTE_NAME\n',
  };
  for (const a of ['web', 'api']) {
    files[`apps/${a}/kustomization.yaml`] = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cm.yaml\ncomponents:\n  - ../../components/route\n';
    files[`apps/${a}/cm.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: route\n  namespace: ${a}\ndata:\n  name: ${a}\n`;
  }
  return files;
}

async function shared(files: Record<string, string>): Promise<{ severity: string; code: string; message: string }[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: { severity: string; code: string; message: string }[] }).findings.filter((f) => f.code.startsWith('shared-object') && f.message.includes('SecurityPolicy'));
  } finally {
    removeTree(dir);
  }
}

test('shared-object: a name that the build\'s replacements rewrite (ROUTE_NAME-public) is a warning saying the objects may be two', async () => {
  const f = await shared(repo('metadata.name'));
  assert.deepEqual(f.map((x) => [x.severity, x.code]), [['warning', 'shared-object']], JSON.stringify(f));
  assert.match(f[0]!.message, /replacements/);
  assert.match(f[0]!.message, /metadata\.name/);
});

test('shared-object: replacements that leave the name alone keep the error', async () => {
  const f = await shared(repo('spec.targetRefs.0.name'));
  assert.deepEqual(f.map((x) => [x.severity, x.code]), [['error', 'shared-object']], JSON.stringify(f));
});
