/**
 * An ApplicationSet's cluster generator without a selector generates for every cluster registered
 * in Argo CD and for the local one. A repository without cluster Secrets shows only the local
 * cluster: the plan says that the others are registered outside the repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const SET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: addons
  namespace: argocd
spec:
  generators:
    - clusters: {}
  template:
    metadata:
      name: 'web-{{name}}'
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/platform.git
        targetRevision: main
        path: web
      destination:
        server: '{{server}}'
        namespace: web
`;

test('argocd: a cluster generator that sees only the local cluster says the registered clusters are not in the repository', async () => {
  const dir = writeTree({ 'appsets/addons.yaml': SET, 'web/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: w\n' });
  try {
    const p = await cli(['plan', '--repo', dir]);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /ApplicationSet addons \(appsets\/addons\.yaml\) generates 1 Application: web-in-cluster; its cluster generator \(no selector\) sees only the local cluster: the repository has no cluster Secret \(argocd\.argoproj\.io\/secret-type: cluster\), and Argo CD also generates for each cluster registered on it: pass --clusters FILE to add them\n/);
  } finally {
    removeTree(dir);
  }
});
