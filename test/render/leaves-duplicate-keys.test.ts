/**
 * A chart whose output repeats a key in one mapping (multicluster-devsecops' tekton-chains
 * ConfigMap writes `argocd.argoproj.io/sync-options` twice) is applied by Argo CD: its repo-server
 * reads the manifests with sigs.k8s.io/yaml (go-yaml v2, not strict), where the later value wins.
 * `render --leaves` failed the whole app with "the manifests are not valid YAML: duplicated mapping
 * key". It now reads them as Argo CD does (ADR 0403): the later value, and the other objects of the
 * build with them. A file of the repository with a repeated key is still judged by validate.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { VP_GLOBAL, vpHubValues } from '../support/validated-patterns.js';

test('render --leaves: a chart that writes one key twice in a mapping is read with the later value, as Argo CD reads it', async () => {
  const dir = writeTree({
    'values-global.yaml': VP_GLOBAL,
    'values-hub.yaml': vpHubValues(),
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/templates/cm.yaml': [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: chains-config',
      '  annotations:',
      '    argocd.argoproj.io/sync-options: PruneLast=true',
      '    argocd.argoproj.io/sync-options: ServerSideApply=true',
      'data:',
      '  a: b',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: other',
      '',
    ].join('\n'),
  });
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-dup-'));
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /not valid YAML/);
    const d = join(out, 'hub', 'manifests', 'web');
    const files = readdirSync(d).sort();
    const text = files.map((f) => readFileSync(join(d, f), 'utf8')).join('---\n');
    assert.match(text, /argocd\.argoproj\.io\/sync-options: ServerSideApply=true/);
    assert.doesNotMatch(text, /PruneLast=true/);
    assert.match(text, /name: other/);
  } finally {
    removeTree(dir);
    rmSync(out, { recursive: true, force: true });
  }
});
