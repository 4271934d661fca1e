/**
 * A repository of Flux objects with no Flux entry (a component repository that a fleet's
 * OCIRepository points at, as controlplaneio-fluxcd/d2-infra): "not a fleet repository" said only
 * that no known layout was found; it now names the Flux objects and the entry that is missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { helmReleaseOf } from '../support/flux-fixture.js';

const release = helmReleaseOf('cert-manager', 'cert-manager', '  chartRef:\n    kind: OCIRepository\n    name: cert-manager\n');

test('Flux objects without an entry: not a fleet repository, naming the files and the missing entry', async () => {
  const dir = writeTree({
    'components/cert-manager/base/release.yaml': release,
    'components/cert-manager/base/kustomization.yaml': 'resources:\n  - release.yaml\n',
    'components/cert-manager/production/kustomization.yaml': 'resources:\n  - ../base\n',
  });
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /not a fleet repository: it has Flux objects \(components\/cert-manager\/base\/release\.yaml\) but no Flux entry/);
    assert.match(r.stderr, /pass --repo the fleet repository that syncs them/);
  } finally {
    removeTree(dir);
  }
});
