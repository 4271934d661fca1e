/**
 * A resolve session (docs/adr/0310): clusters with the same groups share their merged group
 * layers, and every cluster resolves exactly as it does on its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, resolveCluster } from '../../src/index.js';
import { createResolveSession } from '../../src/layering/resolve.js';
import { resolveFleet, resolveFleetLazily } from '../../src/layering/resolve-fleet.js';
import type { Fleet } from '../../src/model/fleet.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

const cluster = (name: string, spec: string) => ({
  [`clusters/${name}/cluster.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n${spec}`,
});
const group = (name: string, apps: string) => ({
  [`groups/${name}/group.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: ${name}\nspec:\n  apps:\n${apps}`,
});

/** A fleet whose clusters share group lists, with variables, an override, a pin and mistakes. */
const files = () =>
  baseFleet({
    ...group('east', '    regional:\n      path: components/regional\n      namespace: r\n      wave: 30\n      annotations:\n        region: ${CLUSTER_REGION}\n        tier: ${TIER}\n      labels:\n        region: ${CLUSTER_REGION}\n        literal: $${CLUSTER_REGION}\n'),
    ...group('west', '    regional:\n      path: components/regional\n      namespace: r\n      annotations:\n        plain: "yes"\n    broken:\n      path: components/${NOWHERE}\n'),
    ...cluster('a', '  role: hub\n  region: east-1\n  groups: [base, east]\n  vars:\n    TIER: gold\n'),
    ...cluster('b', '  role: spoke\n  hub: a\n  region: east-1\n  groups: [base, east]\n  vars:\n    TIER: silver\n  apps:\n    regional:\n      wave: 40\n      annotations:\n        extra: ${CLUSTER_NAME}\n'),
    ...cluster('c', '  role: spoke\n  hub: a\n  region: east-2\n  sector: production\n  groups: [base, east]\n  vars:\n    TIER: gold\n'),
    ...cluster('f', '  role: spoke\n  hub: a\n  region: east-1\n  groups: [base, east]\n  vars:\n    TIER: gold\n'),
    ...cluster('d', '  role: spoke\n  hub: a\n  groups: [base, west, missing]\n  apps:\n    config:\n      enabled: false\n'),
    ...cluster('e', '  role: spoke\n  hub: a\n  groups: [base, west, missing]\n  apps:\n    own:\n      path: components/own\n      namespace: own\n      needs: [nothing]\n'),
  });

function withFleet(fn: (fleet: Fleet) => void): void {
  const dir = writeTree(files());
  try {
    fn(loadFleet(dir).fleet);
  } finally {
    removeTree(dir);
  }
}

test('resolve session: every cluster resolves as it does alone, findings included', () => {
  withFleet((fleet) => {
    const session = createResolveSession(fleet);
    for (const name of [...fleet.clusters.map((c) => c.name), 'a', 'e']) {
      assert.deepEqual(resolveCluster(fleet, name, session), resolveCluster(fleet, name), `cluster ${name}`);
    }
    // An undefined variable in a shared group layer is reported for each cluster that has it.
    const d = resolveCluster(fleet, 'd', session).findings.map((f) => `${f.code} ${f.file}:${f.line} ${f.path ?? ''}`);
    assert.ok(d.includes('undefined-variable groups/west/group.yaml:13 spec.apps.broken.path'), d.join('\n'));
    assert.ok(d.some((f) => f.startsWith('unknown-group clusters/d/cluster.yaml')), d.join('\n'));
  });
});

test('resolve session: clusters with the same groups merge them once', () => {
  withFleet((fleet) => {
    const session = createResolveSession(fleet);
    const [a, c, b] = ['a', 'c', 'b'].map((n) => resolveCluster(fleet, n, session).cluster);
    assert.equal(session.chains.size, 1, 'a, b and c list the same groups');
    resolveCluster(fleet, 'd', session);
    resolveCluster(fleet, 'e', session);
    assert.equal(session.chains.size, 2);
    // The same group list gives the same merged layers: the origins of an app only groups define
    // are one list, whatever the cluster; a cluster's own layer makes its own.
    const operator = (x: typeof a) => x!.apps.find((app) => app.name === 'operator')!;
    assert.equal(operator(a).layers, operator(c).layers);
    assert.deepEqual(operator(a).layers.map((l) => l.file), ['fleet.yaml', 'groups/base/group.yaml']);
    const regional = (x: typeof a) => x!.apps.find((app) => app.name === 'regional')!;
    assert.deepEqual(regional(a).annotations, { 'argocd.argoproj.io/sync-wave': '30', region: 'east-1', tier: 'gold' });
    assert.deepEqual(regional(b).annotations, { 'argocd.argoproj.io/sync-wave': '40', extra: 'b', region: 'east-1', tier: 'silver' });
    assert.equal(regional(c).annotations.region, 'east-2');
    assert.equal(regional(c).source.targetRevision, '0123456789abcdef0123456789abcdef01234567');
    // Substituted once per set of values: f has a's region and tier, c another region.
    const f = resolveCluster(fleet, 'f', session).cluster;
    assert.deepEqual(regional(f).labels, { literal: '${CLUSTER_REGION}', region: 'east-1' });
    assert.equal(regional(f).labels, regional(a).labels);
    assert.deepEqual(regional(c).labels, { literal: '${CLUSTER_REGION}', region: 'east-2' });
  });
});

test('resolve session: belongs to one fleet', () => {
  withFleet((fleet) => {
    const other = { ...fleet };
    assert.throws(() => resolveCluster(fleet, 'a', createResolveSession(other)), /session belongs to another fleet/);
  });
});

test('resolve session: resolveFleet and resolveFleetLazily give what resolving each cluster alone gives', () => {
  withFleet((fleet) => {
    const alone = fleet.clusters.map((c) => resolveCluster(fleet, c.name).cluster).sort((x, y) => (x.name < y.name ? -1 : 1));
    assert.ok(alone.length >= 5);
    const eager = resolveFleet(fleet);
    assert.deepEqual([...eager.clusters].sort((x, y) => (x.name < y.name ? -1 : 1)), alone);
    const lazy = resolveFleetLazily(fleet);
    assert.deepEqual([...lazy.clusters].sort((x, y) => (x.name < y.name ? -1 : 1)), alone);
    assert.deepEqual(lazy.findings(), eager.findings);
  });
});

test('resolve session: an app only the cluster defines is substituted exactly when the defaults or its own layer hold a variable', () => {
  const own = cluster('g', '  role: hub\n  groups: [base]\n  apps:\n    plain:\n      path: components/plain\n      namespace: p\n    templated:\n      path: components/${CLUSTER_NAME}\n      namespace: t\n');
  for (const defaultsVariable of [false, true]) {
    const tree = baseFleet(own);
    if (defaultsVariable) tree['fleet.yaml'] = tree['fleet.yaml']!.replace('    project: platform\n', '    project: platform\n    annotations:\n      domain: ${DOMAIN}\n');
    const dir = writeTree(tree);
    try {
      const fleet = loadFleet(dir).fleet;
      const session = createResolveSession(fleet);
      const shared = resolveCluster(fleet, 'g', session);
      assert.deepEqual(shared, resolveCluster(fleet, 'g'));
      // The defaults are looked at once per session, for the apps no group defines.
      assert.equal(session.defaultsMayHoldVariable, defaultsVariable);
      const apps = new Map(shared.cluster.apps.map((a) => [a.name, a]));
      assert.equal(apps.get('templated')!.source.path, 'components/g');
      assert.equal(apps.get('plain')!.annotations['domain'], defaultsVariable ? 'example.com' : undefined);
    } finally {
      removeTree(dir);
    }
  }
});
