/**
 * `render --leaves` of the flux layout (docs/adr/0279): each Kustomization is built by the real
 * kustomize with the substitution sources of its own cluster (two clusters keep a ConfigMap of one
 * name with different data), and a Kustomization whose source is an ExternalArtifact of this
 * repository (ArtifactGenerator) is built from the folder it maps to. Uses .tools/bin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';

const entry = (c: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m0s
  path: ./clusters/${c}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

function repo(): Record<string, string> {
  const files: Record<string, string> = {
    'apps/base/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: web\ndata:\n  env: ${ENV}\n',
    'apps/base/web/kustomization.yaml': 'resources:\n  - cm.yaml\n',
  };
  for (const c of ['staging', 'production']) {
    files[`clusters/${c}/flux-system/gotk-sync.yaml`] = entry(c);
    files[`clusters/${c}/vars.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-vars\n  namespace: flux-system\ndata:\n  ENV: ${c}\n`;
    files[`clusters/${c}/artifacts.yaml`] = `apiVersion: source.extensions.fluxcd.io/v1beta1
kind: ArtifactGenerator
metadata:
  name: flux-system
  namespace: flux-system
spec:
  sources:
    - alias: repo
      kind: GitRepository
      name: flux-system
  artifacts:
    - name: apps
      copy:
        - from: "@repo/apps/base/**"
          to: "@artifact/base/"
        - from: "@repo/apps/${c}/**"
          to: "@artifact/${c}/"
`;
    files[`clusters/${c}/apps.yaml`] = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 1h
  path: ./${c}
  prune: true
  sourceRef:
    kind: ExternalArtifact
    name: apps
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-vars
`;
    files[`apps/${c}/kustomization.yaml`] = 'resources:\n  - ../base/web\n';
  }
  return files;
}

test('flux-clusters leaves: each cluster builds its ExternalArtifact path with its own substitution sources', async () => {
  requireTools();
  const dir = writeTree(repo());
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-flux-home-'));
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), toolEnv(home));
    assert.equal(r.code, 0, r.stderr);
    for (const c of ['staging', 'production']) {
      const d = join(out, c, 'manifests', 'flux_flux-system_apps');
      const objs = readdirSync(d).map((f) => jsYaml.load(readFileSync(join(d, f), 'utf8')) as Record<string, any>);
      const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'web');
      assert.equal(cm?.data.env, c, `${c}: ${JSON.stringify(objs)}`);
    }
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});
