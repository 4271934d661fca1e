/**
 * A FluxInstance whose `spec.sync` is an OCIRepository (an artifact pushed by CI): flux-operator's
 * generated Kustomization builds the artifact, not this repository. fleetplan said its source "is not
 * this repository (GitRepository flux-system/flux-system)", naming an object that exists nowhere.
 * The message names the real source, where it is declared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxInstance } from '../support/flux-fixture.js';

const instance = fluxInstance('clusters/home', { kind: 'OCIRepository', url: 'oci://ghcr.io/example/fleet', ref: 'latest' });

test('flux entry from an OCIRepository: the not-read message names the OCIRepository and the FluxInstance file, no GitRepository', async () => {
  const dir = writeTree({
    'clusters/home/flux-instance.yaml': instance,
    'clusters/home/apps.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  interval: 1h\n  path: ./apps\n  prune: true\n  sourceRef:\n    kind: OCIRepository\n    name: flux-system\n',
    'apps/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\n',
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    const text = r.stdout + r.stderr;
    assert.doesNotMatch(text, /GitRepository flux-system\/flux-system/, text);
    assert.match(text, /OCIRepository flux-system\/flux-system \(FluxInstance flux-system\/flux spec\.sync in clusters\/home\/flux-instance\.yaml, oci:\/\/ghcr\.io\/example\/fleet\)/, text);
  } finally {
    removeTree(dir);
  }
});
