/**
 * Issue #12 for apply: a release manifest and a helmfile hook's file are what `kubectl apply -f`
 * reads, with go-yaml v2 (sigs.k8s.io/yaml). fleetplan applies the objects it parses from them,
 * so it reads them the same way: 0755 is 493, on is true, and a date stays the text written (it
 * became a JavaScript Date, sent as "2024-01-01T00:00:00.000Z").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifestObjects } from '../../src/apply/helmfile-executor.js';

test('manifestObjects reads a manifest as kubectl does: octal, YAML 1.1 booleans, dates as text', () => {
  const [cm] = manifestObjects('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    since: 2024-01-01\ndata:\n  mode: 0755\n  flag: on\n  ratio: -.5\n');
  assert.deepEqual(JSON.parse(JSON.stringify(cm)), {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', annotations: { since: '2024-01-01' } }, data: { mode: 493, flag: true, ratio: -0.5 },
  });
});
