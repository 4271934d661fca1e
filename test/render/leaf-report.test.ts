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
