// The digest of a local chart's files (ADR 0395) is diff's alone: plan and render do not read the
// chart's files (loadFleet without helmfileChartDigests); diff's loads ask for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/api/load-fleet.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { emptyReadSet, recordingFileSystem } from '../../src/api/diff-reads.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const FILES = {
  'helmfile.yaml': 'releases:\n  - name: web\n    namespace: web\n    chart: ./charts/web\n  - name: api\n    namespace: api\n    chart: ../outside\n',
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  conf: {{ .Files.Get "files/web.conf" | quote }}\n',
  // Not YAML: no layout detection reads it; only the digest does.
  'charts/web/files/web.conf': 'listen 80\n',
};

test('helmfile: plan and render do not read a local chart\'s files; a load for diff digests them', () => {
  const dir = writeTree(FILES);
  try {
    const load = (digests: boolean) => {
      const reads = emptyReadSet();
      const result = loadFleet(dir, { fs: recordingFileSystem(nodeFileSystem(dir), reads), origin: { url: 'https://git.example.com/r.git', branch: 'main' }, ...(digests ? { helmfileChartDigests: true } : {}) });
      const releases = result.fleet.clusters.flatMap((c) => c.helmfileReleases ?? []);
      return { reads, releases };
    };
    const plain = load(false);
    assert.equal(plain.reads.content.has('charts/web/files/web.conf'), false);
    assert.deepEqual(plain.releases.map((r) => [r.name, r.chartFiles]), [['web', undefined], ['api', undefined]]);
    const forDiff = load(true);
    assert.ok(forDiff.reads.content.has('charts/web/files/web.conf'), [...forDiff.reads.content].join(' '));
    const web = forDiff.releases.find((r) => r.name === 'web')!;
    assert.equal(web.chartFiles?.folder, 'charts/web');
    assert.match(web.chartFiles?.digest ?? '', /^[0-9a-f]{16}$/);
    assert.equal(forDiff.releases.find((r) => r.name === 'api')!.chartFiles, undefined);
    // The rest of the load is the same either way.
    const withoutDigest = forDiff.releases.map(({ chartFiles: _c, ...r }) => r);
    assert.deepEqual(withoutDigest, plain.releases);
  } finally {
    removeTree(dir);
  }
});
