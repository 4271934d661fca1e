/**
 * The helmfile bootstrap of onedr0p/home-ops (seed 003) as `plan` prints it: the CRD phase, then
 * the releases in the order the seed describes (cilium → coredns → spegel → cert-manager →
 * external-secrets → onepassword-connect → flux-operator → flux-instance) with their postsync
 * hooks, then the Flux Kustomizations, the root first. Both shared snapshots: HEAD d9078e4d
 * (bootstrap/helmfile/, charts read from the Flux OCIRepositories) and ba0958d9 (helmfile.d/).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

const ORDER = ['kube-system/cilium', 'kube-system/coredns', 'kube-system/spegel', 'cert-manager/cert-manager', 'external-secrets/external-secrets', 'external-secrets/onepassword-connect', 'flux-system/flux-operator', 'flux-system/flux-instance'];

for (const snapshot of ['at-d9078e4d', 'at-ba0958d9']) {
  test(`plan of onedr0p/home-ops ${snapshot} prints the bootstrap phases in the seed's order`, async () => {
    const r = await cli(['plan', '--repo', realRepo('onedr0p__home-ops', snapshot)]);
    assert.equal(r.code, 0, r.stderr);
    const names = r.stdout.split('\n').map((l) => /^ {4}((?:crds|release|postsync|flux \d+)\S*(?: \S+)*?)(?:\s{2,}|$)/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
    assert.equal(names[0], 'crds');
    const releases = names.filter((n) => n.startsWith('release ')).map((n) => n.slice('release '.length));
    assert.deepEqual(releases, ORDER);
    // Hooks right after their release.
    assert.deepEqual(names.slice(names.indexOf('release kube-system/cilium') + 1, names.indexOf('release kube-system/coredns')), ['postsync kube-system/cilium', 'postsync kube-system/cilium #2']);
    // The older snapshot's copy holds no ks.yaml (SOURCE.md): no Flux phase there.
    if (snapshot === 'at-d9078e4d') {
      const firstFlux = names.findIndex((n) => n.startsWith('flux '));
      assert.ok(firstFlux > names.indexOf('release flux-system/flux-instance'), 'Flux after the helmfile releases');
      assert.match(r.stdout, /flux 0 .*\n\s+wait: Kustomization flux-system\/cluster-apps Ready/);
    }
  });
}
