/**
 * helmfile-flux installs Flux as helmfile releases (flux-operator, flux-instance): the
 * StrictPostBuildSubstitutions gate is read from the flux-instance chart's values
 * (`instance.distribution.version`, the gate in `instance.kustomize.patches`) as the flux layout
 * reads it from its flux-system objects (ADR 0411, 0421): on, an unset variable is the
 * `flux-substitution` error and fails the leaf build; off, a `flux-substitution-unset` warning.
 * Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, strictGatePatch } from '../support/flux-fixture.js';

const ks = (name: string, path: string, extra = '') => fluxKustomization(name, path.replace(/^\.\//, ''), extra, 'flux-system');

const gatePatch = (on: boolean) => `  kustomize:\n${strictGatePatch(on, '    ')}`;

/** A helmfile-flux repository whose flux-instance values are `instance` (YAML under `instance:`). */
function repo(instance: string): Record<string, string> {
  return {
    'bootstrap/helmfile.yaml': `releases:
  - name: flux-operator
    namespace: flux-system
    chart: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator
    version: 0.20.0
  - name: flux-instance
    namespace: flux-system
    chart: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance
    version: 0.20.0
    values:
      - ../kubernetes/apps/flux-system/flux-instance/app/helm/values.yaml
`,
    'kubernetes/apps/flux-system/flux-instance/app/helm/values.yaml': `instance:\n${instance}`,
    'kubernetes/apps/kustomization.yaml': 'resources:\n  - ./default/web/ks.yaml\n',
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', './kubernetes/apps', '  postBuild:\n    substitute:\n      CLUSTER: main\n'),
    'kubernetes/apps/default/web/ks.yaml': ks('web', './kubernetes/apps/default/web/app', '  targetNamespace: default\n  postBuild:\n    substitute:\n      APP_HOST: web.${DOMAIN}\n'),
    'kubernetes/apps/default/web/app/kustomization.yaml': 'resources:\n  - ./cm.yaml\n',
    'kubernetes/apps/default/web/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  host: ${APP_HOST}\n  port: "${PORT}"\n',
  };
}

interface Finding { severity: string; code: string; message: string; file?: string }

async function validate(files: Record<string, string>): Promise<{ layout: string; found: Finding[] }> {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    const p = JSON.parse(r.stdout) as { layout: string; findings: Finding[] };
    return { layout: p.layout, found: p.findings.filter((f) => /^flux-substitution/.test(f.code)) };
  } finally {
    removeTree(dir);
  }
}

test('helmfile-flux strict substitution: flux-instance distribution 2.9 turns the gate on, and an unset variable the parent substitutes is an error naming why', async () => {
  const { layout, found } = await validate(repo('  distribution:\n    version: 2.9.0\n'));
  assert.equal(layout, 'helmfile-flux');
  const e = found.find((f) => f.code === 'flux-substitution');
  assert.ok(e, JSON.stringify(found));
  assert.equal(e.severity, 'error');
  assert.match(e.message, /DOMAIN/);
  assert.match(e.message, /strict mode/);
  assert.match(e.message, /2\.9\.0.*values\.yaml/);
  assert.equal(e.file, 'kubernetes/apps/default/web/ks.yaml');
});

test('helmfile-flux strict substitution: before Flux 2.9 the variable is empty, said by one warning; the gate in instance.kustomize.patches wins over the version', async () => {
  const off = await validate(repo('  distribution:\n    version: 2.6.x\n'));
  assert.deepEqual(off.found.map((f) => [f.severity, f.code]), [['warning', 'flux-substitution-unset']]);
  assert.match(off.found[0]!.message, /\$\{DOMAIN\}.*empty string/);
  const on = await validate(repo(`  distribution:\n    version: 2.6.0\n${gatePatch(true)}`));
  assert.deepEqual(on.found.map((f) => [f.severity, f.code]), [['error', 'flux-substitution']]);
  assert.match(on.found[0]!.message, /StrictPostBuildSubstitutions=true/);
  const offByPatch = await validate(repo(`  distribution:\n    version: 2.9.0\n${gatePatch(false)}`));
  assert.deepEqual(offByPatch.found.map((f) => f.code), ['flux-substitution-unset']);
});

test('helmfile-flux strict substitution: render --leaves fails the app whose own objects read an unset variable when the gate is on, and builds it with the variable empty when off', async () => {
  for (const [instance, fails] of [['  distribution:\n    version: 2.9.0\n', true], ['  distribution:\n    version: 2.5.0\n', false]] as const) {
    const files = repo(instance);
    // The parent's variable is set, so only the app's own PORT is unset.
    files['kubernetes/apps/default/web/ks.yaml'] = ks('web', './kubernetes/apps/default/web/app', '  targetNamespace: default\n  postBuild:\n    substitute:\n      APP_HOST: web.example.org\n');
    const dir = writeTree(files);
    try {
      const r = await cli(['render', '--repo', dir, '--out', join(dir, 'out'), '--leaves']);
      // The helmfile releases' charts are remote (not built offline): only web's line is looked at.
      const web = (r.stderr + r.stdout).split('\n').filter((l) => l.includes('flux:flux-system/web'));
      if (fails) assert.ok(web.some((l) => /^error:.*PORT.*strict mode|^error:.*strict mode.*PORT/.test(l)), r.stderr + r.stdout);
      else assert.deepEqual(web.filter((l) => l.startsWith('error:')), [], r.stderr + r.stdout);
    } finally {
      removeTree(dir);
    }
  }
});
