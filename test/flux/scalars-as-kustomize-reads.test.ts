/**
 * A Flux Kustomization in the repository reaches the cluster through the kustomize build that
 * applies it (kyaml): `postBuild.substitute: {D: 2024-01-01}` is the string `2024-01-01T00:00:00Z`
 * there, and an annotation `a: 0755` stays the text "0755". fleetplan read these files as YAML 1.2
 * core: render wrote `D: "2024-01-01"` and `a: 755` (a number kubectl refuses for an annotation),
 * and render --leaves substituted `2024-01-01` where kustomize-controller substitutes the RFC 3339
 * text (ADR 0401).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync, withRenderedLeaves } from '../support/flux-fixture.js';
import { parseYamlAll } from '../../src/yaml/index.js';

const files: Record<string, string> = {
  'clusters/dev/flux-system/gotk-sync.yaml': gotkSync('dev'),
  'clusters/dev/apps.yaml': `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
  annotations:
    a: 0755
spec:
  interval: 1h
  path: ./apps/web
  prune: true
  postBuild:
    substitute:
      D: 2024-01-01
      S: 2024-01-02 10:00:00.50
  sourceRef:
    kind: GitRepository
    name: flux-system
`,
  'apps/web/kustomization.yaml': 'resources:\n  - cm.yaml\n',
  'apps/web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dates\n  namespace: apps\ndata:\n  d: "${D}"\n  s: "${S}"\n',
};

type Obj = Record<string, any>;

test('render writes a Flux Kustomization as the kustomize build that applies it gives it: timestamps as RFC 3339 text, annotations as written', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    const ks = (parseYamlAll(r.stdout, { schema: 'kubernetes' }) as Obj[]).find((o) => o?.kind === 'Kustomization' && o.metadata.name === 'apps');
    assert.deepEqual(ks?.metadata.annotations, { a: '0755' });
    assert.deepEqual(ks?.spec.postBuild.substitute, { D: '2024-01-01T00:00:00Z', S: '2024-01-02T10:00:00.5Z' });
  } finally {
    removeTree(dir);
  }
});

test('render --leaves substitutes the value kustomize-controller reads from the applied Kustomization', async () => {
  const cm = await withRenderedLeaves(files, (out) => {
    const d = join(out, 'dev', 'manifests', 'flux_flux-system_apps');
    return readdirSync(d).map((f) => parseYamlAll(readFileSync(join(d, f), 'utf8'), { schema: 'kubernetes' })[0] as Obj).find((o) => o.kind === 'ConfigMap');
  });
  assert.deepEqual(cm?.data, { d: '2024-01-01T00:00:00Z', s: '2024-01-02T10:00:00.5Z' });
});
