/**
 * kustomize-controller's StrictPostBuildSubstitutions feature gate (ADR 0411): with it, a variable
 * that no source defines and that has no default fails the Kustomization ("variable not set
 * (strict mode)"); without it, the variable becomes the empty string. fleetplan reads the gate
 * from the repository's Flux installation (the kustomize-controller Deployment's args after the
 * flux-system patches, else the Flux version: on by default from Flux v2.9), and honours
 * `kustomize.toolkit.fluxcd.io/substitute: disabled` and `substituteStrategy: Always`.
 * Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, strictGatePatch } from '../support/flux-fixture.js';

/** The kustomize-controller Deployment of gotk-components.yaml, at kustomize-controller `version`. */
const components = (version: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: kustomize-controller
  namespace: flux-system
spec:
  template:
    spec:
      containers:
        - name: manager
          image: ghcr.io/fluxcd/kustomize-controller:${version}
          args:
            - --events-addr=http://notification-controller.flux-system.svc.cluster.local./
            - --watch-all-namespaces=true
`;

const gatePatch = (on: boolean) => strictGatePatch(on, '');

const app = (extra = '') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: web
  namespace: flux-system
spec:
  interval: 1h
  path: ./apps/web
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  postBuild:
${extra || '    substitute:\n      APP: web\n'}`;

function repo(version: string, patches = '', ks = app()): Record<string, string> {
  return {
    'clusters/prod/flux-system/gotk-components.yaml': components(version),
    'clusters/prod/flux-system/gotk-sync.yaml': gotkSync('prod'),
    'clusters/prod/flux-system/kustomization.yaml': `resources:\n  - gotk-components.yaml\n  - gotk-sync.yaml\n${patches}`,
    'clusters/prod/apps.yaml': ks,
    'apps/web/kustomization.yaml': 'resources:\n  - cm.yaml\n  - raw.yaml\n',
    'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${APP}\n  namespace: web\ndata:\n  host: "${HOST}"\n  size: "${SIZE:=small}"\n',
    // Flux leaves this object alone: no substitution, so no unset variable and no error.
    'apps/web/raw.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: raw\n  namespace: web\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  script: echo ${SHELL_ONLY}\n',
  };
}

interface Finding { severity: string; code: string; message: string; file?: string; line?: number }

async function findings(files: Record<string, string>): Promise<Finding[]> {
  const dir = writeTree(files);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => /^flux-substitution/.test(f.code));
  } finally {
    removeTree(dir);
  }
}

/** `render --leaves`: the web app's written ConfigMaps by name, or the command's failure. */
async function leaves(files: Record<string, string>): Promise<{ code: number; out: string; cms: Record<string, string> }> {
  const dir = writeTree(files);
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    const cms: Record<string, string> = {};
    try {
      const folder = join(out, 'prod', 'manifests');
      for (const f of readdirSync(folder, { recursive: true }).map(String).filter((x) => x.endsWith('.yaml'))) {
        const t = readFileSync(join(folder, f), 'utf8');
        const name = /^kind: ConfigMap$/m.test(t) ? /^ {2}name: (.*)$/m.exec(t)?.[1] : undefined;
        if (name !== undefined) cms[name] = t;
      }
    } catch {
      // no output folder: the command failed
    }
    return { code: r.code, out: r.stdout + r.stderr, cms };
  } finally {
    removeTree(dir);
  }
}

test('flux strict substitution: the gate off (Flux before v2.9) makes an unset variable empty, with a warning naming it; the disabled object is left alone', async () => {
  const files = repo('v1.4.1');
  const f = await findings(files);
  assert.deepEqual(f.map((x) => [x.severity, x.code]), [['warning', 'flux-substitution-unset']], JSON.stringify(f));
  assert.match(f[0]!.message, /\$\{HOST\}/);
  assert.doesNotMatch(f[0]!.message, /SIZE|SHELL_ONLY/);
  assert.match(f[0]!.message, /kustomize-controller:v1\.4\.1/);
  assert.equal(f[0]!.file, 'apps/web/cm.yaml');
  const r = await leaves(files);
  assert.equal(r.code, 0, r.out);
  // kustomize writes `host: ${HOST}` unquoted; Flux substitutes that text, so the value is null, not "".
  assert.match(r.cms.web!, /host: null/);
  assert.match(r.cms.web!, /size: small/);
  assert.match(r.cms.raw!, /echo \$\{SHELL_ONLY\}/);
});

test('flux strict substitution: the gate set by the flux-system patches fails the Kustomization in validate and in render --leaves, as kustomize-controller does', async () => {
  const files = repo('v1.4.1', gatePatch(true));
  const f = await findings(files);
  assert.deepEqual(f.map((x) => [x.severity, x.code]), [['error', 'flux-substitution']], JSON.stringify(f));
  assert.match(f[0]!.message, /variable not set \(strict mode\): "HOST"/);
  assert.match(f[0]!.message, /StrictPostBuildSubstitutions=true/);
  const r = await leaves(files);
  assert.notEqual(r.code, 0);
  assert.match(r.out, /variable not set \(strict mode\): "HOST"/);
});

test('flux strict substitution: Flux v2.9 (kustomize-controller v1.9) has the gate on by default, and a patch turning it off is honoured', async () => {
  const on = await findings(repo('v1.9.0'));
  assert.deepEqual(on.map((x) => x.code), ['flux-substitution'], JSON.stringify(on));
  assert.match(on[0]!.message, /kustomize-controller:v1\.9\.0/);
  const off = await findings(repo('v1.9.0', gatePatch(false)));
  assert.deepEqual(off.map((x) => x.code), ['flux-substitution-unset'], JSON.stringify(off));
});

test('flux strict substitution: substituteStrategy Always substitutes without any variable (defaults apply), as kustomize-controller v1.9 does', async () => {
  const files = repo('v1.9.0', '', app('    substituteStrategy: Always\n'));
  files['apps/web/cm.yaml'] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: web\ndata:\n  size: "${SIZE:=small}"\n';
  const r = await leaves(files);
  assert.equal(r.code, 0, r.out);
  assert.match(r.cms.web!, /size: small/);
});

test('flux strict substitution: the gate in a FluxInstance\'s spec.kustomize.patches (apiVersion fluxcd.controlplane.io/v1) is read before its version', async () => {
  const files = repo('v1.4.1');
  delete files['clusters/prod/flux-system/gotk-components.yaml'];
  files['clusters/prod/flux-system/kustomization.yaml'] = 'resources:\n  - flux-instance.yaml\n  - gotk-sync.yaml\n';
  files['clusters/prod/flux-system/flux-instance.yaml'] = `apiVersion: fluxcd.controlplane.io/v1
kind: FluxInstance
metadata:
  name: flux
  namespace: flux-system
spec:
  distribution:
    version: 2.4.0
    registry: ghcr.io/fluxcd
  kustomize:
    patches:
      - patch: |
          - op: add
            path: /spec/template/spec/containers/0/args/-
            value: --feature-gates=StrictPostBuildSubstitutions=true
        target:
          kind: Deployment
          name: kustomize-controller
`;
  const f = await findings(files);
  assert.deepEqual(f.map((x) => [x.severity, x.code]), [['error', 'flux-substitution']], JSON.stringify(f));
  assert.match(f[0]!.message, /StrictPostBuildSubstitutions=true in FluxInstance flux/);
});
