/**
 * What helm-controller does to a HelmRelease's chart output before applying it (internal/postrender,
 * ADR 0418): spec.commonMetadata labels then annotations, then the origin labels
 * helm.toolkit.fluxcd.io/name and /namespace on every object, hooks included; kustomize
 * postRenderers are not applied and are said so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helmReleaseCharts, postRenderReleaseObjects } from '../../src/render/leaves/flux.js';
import { parseManifests, serializeObject } from '../../src/render/leaves/manifests.js';
import { dumpYaml } from '../../src/yaml/index.js';

type Obj = Record<string, unknown>;

const release = (spec: Obj = {}): Obj => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: { name: 'web', namespace: 'apps' },
  spec: { targetNamespace: 'web-prod', chart: { spec: { chart: './charts/web', sourceRef: { kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' } } }, ...spec },
});

const chartOutput = (): Obj[] => [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', namespace: 'web-prod' }, data: { a: 'b' } },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web', 'helm.toolkit.fluxcd.io/name': 'other' }, annotations: { keep: 'me' } }, spec: { template: { metadata: { labels: { app: 'web' } } } } },
  { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', annotations: { 'helm.sh/hook': 'pre-upgrade' } } },
];

const chartOf = (spec?: Obj) => helmReleaseCharts([release(spec)], () => undefined, (n) => n === 'flux-system')[0]!;

test('flux-post-render: the origin labels name the HelmRelease (not the target namespace) on every object, hooks included, labels created where absent', () => {
  const out = postRenderReleaseObjects(chartOutput(), chartOf());
  for (const o of out) {
    const labels = (o.metadata as Obj).labels as Obj;
    assert.equal(labels['helm.toolkit.fluxcd.io/name'], 'web');
    assert.equal(labels['helm.toolkit.fluxcd.io/namespace'], 'apps');
  }
  // The pod template is not touched: helm-controller's transformer has the one field spec metadata/labels.
  assert.deepEqual(((out[1]!.spec as Obj).template as Obj).metadata, { labels: { app: 'web' } });
  assert.deepEqual((out[1]!.metadata as Obj).annotations, { keep: 'me' });
});

test('flux-post-render: commonMetadata labels and annotations come first; the origin labels win a collision', () => {
  const rc = chartOf({ commonMetadata: { labels: { team: 'shop', 'helm.toolkit.fluxcd.io/namespace': 'spoofed' }, annotations: { owner: 'ops' } } });
  const out = postRenderReleaseObjects(chartOutput(), rc);
  const m = out[1]!.metadata as Obj;
  assert.deepEqual(m.labels, { app: 'web', team: 'shop', 'helm.toolkit.fluxcd.io/name': 'web', 'helm.toolkit.fluxcd.io/namespace': 'apps' });
  assert.deepEqual(m.annotations, { keep: 'me', owner: 'ops' });
  assert.deepEqual((out[0]!.metadata as Obj).annotations, { owner: 'ops' });
});

test('flux-post-render: the result is what a kustomize build with the same labels and annotations makes', () => {
  const rc = chartOf({ commonMetadata: { labels: { team: 'shop' }, annotations: { owner: 'ops' } } });
  const dir = mkdtempSync(join(tmpdir(), 'flux-post-render-'));
  try {
    writeFileSync(join(dir, 'helm-output.yaml'), chartOutput().map((o) => dumpYaml(o)).join('---\n'));
    // helm-controller's transformers, in its order, as kustomize builtin transformer configs.
    const transformer = (kind: string, name: string, field: string, values: Obj) => ({ apiVersion: 'builtin', kind, metadata: { name }, [field === 'labels' ? 'labels' : 'annotations']: values, fieldSpecs: [{ path: `metadata/${field}`, create: true }] });
    writeFileSync(join(dir, 'kustomization.yaml'), dumpYaml({
      resources: ['helm-output.yaml'],
      transformers: ['common-labels.yaml', 'common-annotations.yaml', 'origin-labels.yaml'],
    }));
    writeFileSync(join(dir, 'common-labels.yaml'), dumpYaml(transformer('LabelTransformer', 'common', 'labels', { team: 'shop' })));
    writeFileSync(join(dir, 'common-annotations.yaml'), dumpYaml(transformer('AnnotationsTransformer', 'common', 'annotations', { owner: 'ops' })));
    writeFileSync(join(dir, 'origin-labels.yaml'), dumpYaml(transformer('LabelTransformer', 'origin', 'labels', { 'helm.toolkit.fluxcd.io/name': 'web', 'helm.toolkit.fluxcd.io/namespace': 'apps' })));
    const built = execFileSync('.tools/bin/kubectl', ['kustomize', dir], { encoding: 'utf8' });
    const expected = parseManifests(built, 'kustomize').map(serializeObject).sort();
    const ours = postRenderReleaseObjects(chartOutput(), rc).map(serializeObject).sort();
    assert.deepEqual(ours, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('flux-post-render: kustomize postRenderers are counted for the not-applied warning; other entries are not', () => {
  assert.equal(chartOf().postRenderers, 0);
  assert.equal(chartOf({ postRenderers: [{ kustomize: { images: [{ name: 'web', newTag: '2' }] } }, {}] }).postRenderers, 1);
});
