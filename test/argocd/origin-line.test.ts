/**
 * The argocd layout gives each app its origin at the Application's own file and line (ADR 0323),
 * not the cluster's root file without a line: messages that point at an app (render --leaves's
 * "Application X at FILE:LINE") no longer search for `name: X`, which finds nothing, or the wrong
 * line, when another object of the file has the same name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeLoad, loadFleet, resolveFleet } from '../../src/index.js';
import { locateOrigin } from '../../src/model/fleet.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const NO_TOOLS = { env: { PATH: '/nonexistent' }, kustomize: '/nonexistent/kustomize', helm: '/nonexistent/helm' };

const app = (name: string, path: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/platform
    targetRevision: main
    path: ${path}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
`;

const listed = `apiVersion: v1
kind: List
items:
  - apiVersion: argoproj.io/v1alpha1
    kind: Application
    metadata:
      name: listed
      namespace: argocd
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform
        targetRevision: main
        path: guestbook
      destination:
        server: https://kubernetes.default.svc
`;

test('argocd layout: each app\'s origin is its Application\'s file and the line of its metadata.name', async () => {
  const dir = writeTree({
    // The root applies the apps folder; one file holds a ConfigMap named like the app first.
    'root.yaml': app('root', 'apps'),
    'apps/guestbook.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: guestbook\n  namespace: argocd\n---\n${app('guestbook', 'guestbook')}`,
    'apps/list.yaml': listed,
    'guestbook/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gb\n',
  });
  try {
    const r = loadFleet(dir);
    await completeLoad(r, NO_TOOLS);
    assert.equal(r.fleet.layout, 'argocd');
    const resolved = resolveFleet(r.fleet);
    const where = (name: string) => {
      for (const c of resolved.clusters) {
        const a = c.apps.find((x) => x.name === name);
        if (a) return locateOrigin(r.fleet, a.origin);
      }
      return undefined;
    };
    assert.deepEqual(where('root'), { file: 'root.yaml', line: 4, column: 1 });
    // Line 10 (the Application's metadata.name), not line 4 (the ConfigMap's).
    assert.deepEqual(where('guestbook'), { file: 'apps/guestbook.yaml', line: 10, column: 1 });
    assert.deepEqual(where('listed'), { file: 'apps/list.yaml', line: 7, column: 1 });
  } finally {
    removeTree(dir);
  }
});
