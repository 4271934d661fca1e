import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolError } from '../../src/errors/index.js';
import { formatLeafReport } from '../../src/render/leaves/index.js';

test('lists failed jobs and sums up the run in one line', () => {
  const text = formatLeafReport({
    results: [
      { cluster: 'c1', app: 'web', path: 'apps/web', objects: 4, files: [], cached: true },
      { cluster: 'c1', app: 'db', path: 'apps/db', objects: 0, files: [], cached: false, error: new ToolError('cluster c1, app db: kustomize build of apps/db failed: boom', { location: { file: 'apps/db' } }) },
    ],
    stats: { builds: 1, hits: 1, misses: 1, uncacheable: 0 },
  });
  assert.equal(text, 'error: apps/db: cluster c1, app db: kustomize build of apps/db failed: boom\nleaves: 1 of 2 apps rendered, 4 objects; 1 build, 1 cached, 1 missed; 1 failed\n');
});

test('counts the apps not built, by reason, so that the numbers add up to the apps', () => {
  const text = formatLeafReport(
    {
      results: [
        { cluster: 'c1', app: 'web', path: 'apps/web', objects: 4, files: [], cached: true },
        { cluster: 'c1', app: 'db', path: 'apps/db', objects: 0, files: [], cached: false, error: new ToolError('cluster c1, app db: kustomize build of apps/db failed: boom', { location: { file: 'apps/db' } }) },
      ],
      stats: { builds: 1, hits: 1, misses: 1, uncacheable: 0 },
    },
    [
      { cluster: 'c1', app: 'vault', kind: 'plugin', reason: 'built by plugin avp: not run' },
      { cluster: 'c2', app: 'vault', kind: 'plugin', reason: 'built by plugin avp: not run' },
      { cluster: 'c1', app: 'ext', kind: 'other-repository', reason: 'source https://example.com/other.git is another repository' },
    ],
  );
  assert.equal(
    text,
    "error: apps/db: cluster c1, app db: kustomize build of apps/db failed: boom\nleaves: 1 of 5 apps rendered, 4 objects; 1 build, 1 cached, 1 missed; 1 failed; 3 not built (config-management plugin: 2, source in another repository: 1)\n",
  );
});

test('says nothing of apps not built when every app was built', () => {
  const text = formatLeafReport({ results: [{ cluster: 'c1', app: 'web', path: 'apps/web', objects: 4, files: [], cached: true }], stats: { builds: 1, hits: 1, misses: 0, uncacheable: 0 } }, []);
  assert.equal(text, 'leaves: 1 of 1 apps rendered, 4 objects; 1 build, 1 cached, 0 missed\n');
});
