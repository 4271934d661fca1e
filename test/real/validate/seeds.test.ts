/**
 * Validation on the real helmfile + Flux repository of seed 003 (onedr0p/home-ops, two snapshots in
 * realrepos/ of the shared data): it loads, plans in needs/dependsOn order and validates without
 * graph errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';

interface JsonFindings {
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
  summary: { errors: number; warnings: number };
}

for (const snapshot of ['at-ba0958d9', 'at-d9078e4d']) {
  test(`seed 003 ${snapshot}: the helmfile + Flux layout plans in needs/dependsOn order and validates without graph errors`, async () => {
    const repo = realRepo('onedr0p__home-ops', snapshot);
    const plan = await cli(['plan', '--repo', repo, '-o', 'json']);
    const p = JSON.parse(plan.stdout) as { layout: string; clusters: { notes: string[]; bootstrap: unknown[]; apps: { name: string; wave: number }[] }[] };
    assert.equal(p.layout, 'helmfile-flux');
    const c = p.clusters[0]!;
    assert.match(c.notes[0]!, /topological depth/);
    assert.deepEqual(c.bootstrap, []);
    const wave = (n: string) => c.apps.find((a) => a.name === n)!.wave;
    const chain = ['cilium', 'coredns', 'spegel'].map((n) => wave(`helmfile:kube-system/${n}`));
    assert.deepEqual(chain, [1, 2, 3]);
    assert.ok(wave('helmfile:flux-system/flux-instance') > wave('helmfile:external-secrets/onepassword-connect'));
    const v = await cli(['validate', '--repo', repo, '-o', 'json']);
    const { findings } = JSON.parse(v.stdout) as JsonFindings;
    // This copy leaves out some Kustomization paths, one component and the namespace-level
    // kustomization.yaml files that set each ks.yaml's namespace (SOURCE.md: partial copy); those
    // are reported (the last as warnings, one per Kustomization below kubernetes/apps), nothing else.
    const unset = findings.filter((f) => f.code === 'flux-kustomization-namespace-unset');
    assert.ok(unset.every((f) => f.severity === 'warning' && f.file?.startsWith('kubernetes/apps/')), JSON.stringify(unset));
    // The flux-instance HelmRelease is also a flux entry: the plan says which layout was chosen and why (info).
    const rest = findings.filter((f) => f.code !== 'missing-path' && f.code !== 'flux-kustomization-namespace-unset' && !(f.code === 'layout-chosen' && f.severity === 'info') && !(f.code === 'flux-missing-component' && /kopiur\/backup/.test(f.message)));
    assert.deepEqual(rest, []);
    assert.deepEqual(findings.filter((f) => f.code === 'missing-path').map((f) => `${f.file}:${f.line}`), snapshot === 'at-d9078e4d'
      ? ['kubernetes/apps/default/plex/ks.yaml:12', 'kubernetes/apps/default/plex/ks.yaml:32', 'kubernetes/apps/kopiur-system/kopiur/ks.yaml:32', 'kubernetes/apps/o11y/grafana-operator/ks.yaml:27']
      : []);
    if (snapshot === 'at-d9078e4d') {
      assert.ok(wave('flux:external-secrets/onepassword-connect') > wave('flux:external-secrets/external-secrets'));
      assert.ok(wave('flux:flux-system/cluster-apps') > wave('helmfile:flux-system/flux-instance'));
    }
  });
}
