/**
 * The shape of the synthetic fleet the leaves benchmark (bench/leaves.ts) draws. The comparison of
 * its two layouts needs the real argocd-app-of-app chart: test/real/bench/synthetic-layouts.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { syntheticShape } from '../../bench/synthetic.js';

test('the leaf benchmark draws 30 apps per cluster from 40 components', () => {
  assert.equal(syntheticShape({ clusters: 200, appsPerCluster: 30, ownComponents: 6 }).components.length, 40);
});
