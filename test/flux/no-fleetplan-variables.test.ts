/**
 * The flux layout (ADR 0344): kustomize-controller substitutes variables only in a Kustomization's
 * built output with postBuild, never fleetplan's `${VAR}`. A `${X}` in a Flux Kustomization that
 * no parent's postBuild substitutes is applied verbatim: rendered so, never an undefined-variable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';

const ks = (name: string, path: string, extra = '') =>
  `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  interval: 1h\n  path: ${path}\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n${extra}`;

function repo(parentPostBuild: boolean): Record<string, string> {
  return {
    'clusters/staging/flux-system/gotk-sync.yaml': gotkSync('staging'),
    'clusters/staging/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/staging/apps.yaml': ks('apps', './apps', parentPostBuild ? '  postBuild:\n    substitute:\n      SITE: a\n' : ''),
    'apps/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - web.yaml\n',
    'apps/web.yaml': ks('web', './web', '  targetNamespace: web-${SITE}\n'),
    'web/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cm.yaml\n',
    'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
  };
}

async function webKustomization(files: Record<string, string>): Promise<{ targetNamespace?: string; findings: string }> {
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string }; spec: { targetNamespace?: string } }[] }).items;
    const web = items.find((o) => o.kind === 'Kustomization' && o.metadata.name === 'web')!;
    const v = await cli(['validate', '--repo', dir]);
    return { ...(web.spec.targetNamespace !== undefined ? { targetNamespace: web.spec.targetNamespace } : {}), findings: v.stdout + v.stderr };
  } finally {
    removeTree(dir);
  }
}

test('flux: a ${X} in a Kustomization that no parent postBuild substitutes is rendered verbatim and is no undefined-variable', async () => {
  const got = await webKustomization(repo(false));
  assert.equal(got.targetNamespace, 'web-${SITE}');
  assert.doesNotMatch(got.findings, /undefined-variable/);
});

test('flux: the parent\'s postBuild substitutes the same ${X} in the Kustomization its build applies', async () => {
  const got = await webKustomization(repo(true));
  assert.equal(got.targetNamespace, 'web-a');
  assert.doesNotMatch(got.findings, /undefined-variable/);
});

test('flux: a substituted value is read as kustomize-controller reads the substituted text (go-yaml v2): suspend: ${SUSPEND} with "on" is true (ADR 0389)', async () => {
  const files = repo(false);
  files['clusters/staging/apps.yaml'] = ks('apps', './apps', '  postBuild:\n    substitute:\n      SUSPEND: "on"\n');
  files['apps/web.yaml'] = ks('web', './web', '  suspend: ${SUSPEND}\n');
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const items = (JSON.parse(r.stdout) as { items: { kind: string; metadata: { name: string }; spec: { suspend?: unknown } }[] }).items;
    assert.equal(items.find((o) => o.kind === 'Kustomization' && o.metadata.name === 'web')!.spec.suspend, true);
  } finally {
    removeTree(dir);
  }
});
