/**
 * A release written in a `bases:` file of another folder belongs to the including state: helmfile
 * resolves its chart and values paths from the includer's folder (its basePath), not the base's
 * (ADR 0394). Small repositories written by the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { releaseSource } from '../../src/layouts/helmfile-flux/reader.js';
import { readHelmfileFixture as read } from '../support/helmfile-read.js';

const FILES = {
  'helmfile.yaml': 'bases:\n  - common/releases.yaml\n',
  'common/releases.yaml': 'releases:\n  - name: web\n    namespace: web\n    chart: ./charts/web\n    values:\n      - values/web.yaml\n',
  'values/web.yaml': 'host: from-the-includer\n',
  // Decoys where the base's folder would lead: read from there, the output would differ.
  'common/values/web.yaml': 'host: from-the-base\n',
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  host: {{ .Values.host | quote }}\n',
};

test('helmfile base in another folder: its release\'s chart and values files resolve from the including helmfile\'s folder', () => {
  const { releases, findings } = read(FILES, 'helmfile.yaml');
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.equal(releases[0]!.file, 'common/releases.yaml', 'the release keeps the file and line it is written at');
  assert.deepEqual(releaseSource(releases[0]!), { path: 'charts/web', helm: { releaseName: 'web', values: { host: 'from-the-includer' } } });
});

test('helmfile base in another folder: plan names the includer\'s paths and render --leaves builds with them', async () => {
  const dir = writeTree(FILES);
  try {
    const plan = await cli(['plan', '--repo', dir]);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /helm upgrade --install web charts\/web -n web \(values\/web\.yaml\) {2}\[common\/releases\.yaml\]/);
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const text = readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, f), 'utf8')).join('\n');
    assert.match(text, /host: "?from-the-includer"?/);
  } finally {
    removeTree(dir);
  }
});
