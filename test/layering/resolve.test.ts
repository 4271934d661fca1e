import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, resolveCluster, validateFleet } from '../../src/index.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

function resolve(files: Record<string, string>, cluster = 'one') {
  const dir = writeTree(files);
  try {
    const { fleet, findings: loadFindings } = loadFleet(dir);
    assert.deepEqual(loadFindings, [], 'fixture loads cleanly');
    const r = resolveCluster(fleet, cluster);
    return { ...r, app: (name: string) => r.cluster.apps.find((a) => a.name === name) };
  } finally {
    removeTree(dir);
  }
}

const cluster = (spec: string, name = 'one') => ({
  [`clusters/${name}/cluster.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n${spec}`,
});
const group = (name: string, apps: string) => ({
  [`groups/${name}/group.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: ${name}\nspec:\n  apps:\n${apps}`,
});

// Layering ---------------------------------------------------------------------------------

test('layering: fleet defaults apply to every app', () => {
  const r = resolve(baseFleet());
  assert.equal(r.app('operator')?.project, 'platform');
  assert.deepEqual(r.app('operator')?.syncOptions, ['ServerSideApply=true']);
});

test('layering: groups apply in the order the cluster lists them, the cluster last', () => {
  const r = resolve(
    baseFleet({
      ...group('first', '    web:\n      path: components/a\n      namespace: first\n      wave: 1\n'),
      ...group('second', '    web:\n      namespace: second\n'),
      ...cluster('  role: hub\n  groups: [first, second]\n  apps:\n    web:\n      wave: 9\n'),
      'components/a/kustomization.yaml': 'resources: []\n',
    }),
  );
  const web = r.app('web')!;
  assert.equal(web.destination.namespace, 'second');
  assert.equal(web.wave, 9);
  assert.equal(web.source.path, 'components/a');
  assert.equal(web.from, 'groups/first/group.yaml');
  assert.deepEqual(web.layers.map((l) => l.file), ['fleet.yaml', 'groups/first/group.yaml', 'groups/second/group.yaml', 'clusters/one/cluster.yaml']);
});

test('layering: maps merge deeply, lists are replaced', () => {
  const r = resolve(
    baseFleet({
      ...cluster(
        '  role: hub\n  groups: [base]\n  apps:\n    operator:\n      annotations:\n        b: two\n      syncOptions: [Validate=false]\n',
      ),
      ...group('base', '    operator:\n      path: components/operator\n      annotations:\n        a: one\n      syncOptions: [PruneLast=true, X=y]\n'),
    }),
  );
  const op = r.app('operator')!;
  assert.equal(op.annotations.a, 'one');
  assert.equal(op.annotations.b, 'two');
  assert.deepEqual(op.syncOptions, ['Validate=false']);
});

test('layering: enabled: false removes the app from the cluster', () => {
  const r = resolve(baseFleet(cluster('  role: hub\n  groups: [base]\n  apps:\n    config:\n      enabled: false\n')));
  assert.equal(r.app('config'), undefined);
  assert.ok(r.app('operator'));
});

// Waves -------------------------------------------------------------------------------------

test('waves: needs place an app after its need', () => {
  const r = resolve(baseFleet());
  assert.equal(r.app('operator')?.wave, 5);
  assert.equal(r.app('config')?.wave, 6);
  assert.equal(r.app('config')?.annotations['argocd.argoproj.io/sync-wave'], '6');
});

function findingsOf(files: Record<string, string>) {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet);
  } finally {
    removeTree(dir);
  }
}

test('waves: an explicit wave not above a need is an error naming both apps, file and line', () => {
  const f = findingsOf(baseFleet(cluster('  role: hub\n  groups: [base]\n  apps:\n    config:\n      wave: 3\n')));
  const c = f.find((x) => x.code === 'wave-conflict');
  assert.ok(c, JSON.stringify(f));
  assert.match(c.message, /"config" has wave 3 but needs "operator", which is at wave 5/);
  assert.equal(c.file, 'clusters/one/cluster.yaml');
  assert.equal(c.line, 10);
  assert.equal(c.path, 'spec.apps.config.wave');
});

test('waves: a needs cycle is an error that prints the cycle', () => {
  const f = findingsOf(baseFleet(group('base', '    operator:\n      path: components/operator\n      needs: [config]\n    config:\n      path: components/config\n      needs: [operator]\n')));
  const c = f.find((x) => x.code === 'needs-cycle');
  assert.ok(c);
  assert.match(c.message, /config → operator → config/);
  assert.equal(c.file, 'groups/base/group.yaml');
});

test('waves: a need that names no app on the cluster is an error at that entry', () => {
  const f = findingsOf(baseFleet(group('base', '    operator:\n      path: components/operator\n      needs: [certmanager]\n')));
  const c = f.find((x) => x.code === 'unknown-need');
  assert.ok(c);
  assert.equal(c.line, 9);
  assert.equal(c.path, 'spec.apps.operator.needs[0]');
});

// Variables ---------------------------------------------------------------------------------

test('variables: ${NAME}, ${NAME:-default}, $${NAME} and built-ins in app fields', () => {
  const r = resolve(
    baseFleet(
      group(
        'base',
        '    operator:\n      path: components/operator\n      namespace: ns-${CLUSTER_NAME}\n      annotations:\n        d: ${DOMAIN}\n        def: ${MISSING:-fallback}\n        lit: $${DOMAIN}\n        who: ${CLUSTER_ROLE}/${CLUSTER_SECTOR}/${GITOPS_REPO}\n',
      ),
    ),
  );
  const op = r.app('operator')!;
  assert.equal(op.destination.namespace, 'ns-one');
  assert.equal(op.annotations.d, 'example.com');
  assert.equal(op.annotations.def, 'fallback');
  assert.equal(op.annotations.lit, '${DOMAIN}');
  assert.equal(op.annotations.who, 'hub/canary/https://git.example.com/fleet.git');
});

test('variables: cluster vars override fleet vars; built-ins cannot be overridden', () => {
  const r = resolve(baseFleet(cluster('  role: hub\n  groups: [base]\n  vars:\n    DOMAIN: one.example.com\n    CLUSTER_NAME: other\n  apps:\n    operator:\n      namespace: ${DOMAIN}-${CLUSTER_NAME}\n')));
  assert.equal(r.app('operator')?.destination.namespace, 'one.example.com-one');
  assert.ok(r.findings.some((f) => f.code === 'shadowed-variable' && f.severity === 'warning'));
});

test('variables: a variable may refer to another', () => {
  const r = resolve(baseFleet(cluster('  role: hub\n  groups: [base]\n  vars:\n    BASE: ${CLUSTER_NAME}.${DOMAIN}\n  apps:\n    operator:\n      namespace: ${BASE}\n')));
  assert.equal(r.app('operator')?.destination.namespace, 'one.example.com');
});

test('variables: an undefined name is an error with file and line, and the environment is never read', () => {
  process.env.FLEETPLAN_TEST_SECRET = 'from-the-environment';
  try {
    const f = findingsOf(baseFleet(group('base', '    operator:\n      path: components/operator\n      namespace: ${FLEETPLAN_TEST_SECRET}\n')));
    const u = f.find((x) => x.code === 'undefined-variable');
    assert.ok(u, JSON.stringify(f));
    assert.equal(u.file, 'groups/base/group.yaml');
    assert.equal(u.line, 9);
    assert.equal(u.path, 'spec.apps.operator.namespace');
    assert.match(u.message, /\$\{FLEETPLAN_TEST_SECRET\} has no value/);
  } finally {
    delete process.env.FLEETPLAN_TEST_SECRET;
  }
});

// Sectors -----------------------------------------------------------------------------------

test('sectors: a pinned sector selects its commit', () => {
  const r = resolve(baseFleet(cluster('  role: hub\n  sector: production\n  groups: [base]\n')));
  assert.equal(r.cluster.revision, '0123456789abcdef0123456789abcdef01234567');
  assert.equal(r.app('operator')?.source.targetRevision, '0123456789abcdef0123456789abcdef01234567');
});

test('sectors: a sector without a pin tracks the fleet revision', () => {
  const r = resolve(baseFleet());
  assert.equal(r.cluster.revision, 'main');
});

test('sectors: an unknown sector is an error', () => {
  const f = findingsOf(baseFleet(cluster('  role: hub\n  sector: staging\n  groups: [base]\n')));
  const u = f.find((x) => x.code === 'unknown-sector');
  assert.ok(u);
  assert.equal(u.path, 'spec.sector');
  assert.match(u.hint ?? '', /canary, production/);
});

test('an app targetRevision overrides the sector', () => {
  const r = resolve(baseFleet(cluster('  role: hub\n  sector: production\n  groups: [base]\n  apps:\n    operator:\n      targetRevision: v2\n')));
  assert.equal(r.app('operator')?.source.targetRevision, 'v2');
});
