// The pure diff stage: field paths, unified diffs, Secret redaction, findings matched without
// lines, and the Markdown comment trimmed to its size limit with a count of what was left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffFields, diffFindings, diffLeaves, diffMarkdown, diffText, unifiedDiff } from '../../src/diff/index.js';
import type { ClusterDiff, FleetDiff } from '../../src/diff/index.js';
import type { Finding } from '../../src/model/finding.js';

test('fields: nested paths, quoted keys, named list items, added and removed fields', () => {
  const from = { spec: { source: { targetRevision: 'main', helm: { parameters: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] } } }, metadata: { annotations: { 'x.io/y': '1' } } };
  const to = { spec: { source: { targetRevision: 'v2', helm: { parameters: [{ name: 'b', value: '3' }, { name: 'c', value: '4' }] } }, extra: true }, metadata: { annotations: {} } };
  assert.deepEqual(diffFields(from, to), [
    { path: 'metadata.annotations["x.io/y"]', from: '1' },
    { path: 'spec.extra', to: true },
    { path: 'spec.source.helm.parameters[name=a]', from: { name: 'a', value: '1' } },
    { path: 'spec.source.helm.parameters[name=b].value', from: '2', to: '3' },
    { path: 'spec.source.helm.parameters[name=c]', to: { name: 'c', value: '4' } },
    { path: 'spec.source.targetRevision', from: 'main', to: 'v2' },
  ]);
  assert.deepEqual(diffFields({ l: ['a', 'b'] }, { l: ['b', 'a'] }), [{ path: 'l', from: ['a', 'b'], to: ['b', 'a'] }]);
});

test('unified diff: hunks with three lines of context, removals first, added and removed files', () => {
  const a = 'a\nb\nc\nd\ne\nf\ng\nh\n';
  assert.equal(unifiedDiff(a, a.replace('e', 'E'), 'x'), '--- a/x\n+++ b/x\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n');
  assert.equal(unifiedDiff(undefined, 'a\n', 'x'), '--- /dev/null\n+++ b/x\n@@ -0,0 +1,1 @@\n+a\n');
  assert.equal(unifiedDiff('a\n', 'a\n', 'x'), '');
});

test('leaves: Secret data and stringData values never appear, a changed one is marked', () => {
  const secret = (v: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: v, same: 'eA==' } });
  const [d] = diffLeaves(new Map([['app', [secret('b2xk')]]]), new Map([['app', [secret('bmV3')]]]));
  assert.ok(d && d.change === 'changed');
  assert.ok(!d.diff.includes('b2xk') && !d.diff.includes('bmV3') && !d.diff.includes('eA=='), d.diff);
  assert.match(d.diff, /- {2}k: <redacted>\n\+ {2}k: "<redacted: changed>"\n/);
});

test('findings: matched by rule, file, path and message, not by line; duplicates counted', () => {
  const f = (line: number, message = 'm'): Finding => ({ severity: 'error', code: 'c', message, file: 'a.yaml', line, path: 'spec.x' });
  assert.deepEqual(diffFindings([f(3)], [f(9)]), { introduced: [], fixed: [] });
  assert.deepEqual(diffFindings([f(3)], [f(3), f(7)]), { introduced: [f(7)], fixed: [] });
  assert.deepEqual(diffFindings([f(3, 'old')], [f(3, 'new')]), { introduced: [f(3, 'new')], fixed: [f(3, 'old')] });
});

function fleetWith(n: number): FleetDiff {
  const cluster = (i: number): ClusterDiff => ({
    name: `c${i}`,
    status: 'changed',
    sector: null,
    revision: { from: 'main', to: 'main' },
    objects: [{ change: 'changed', apiVersion: 'v1', kind: 'ConfigMap', name: 'x', file: `c${i}/apps/x.yaml`, fields: [{ path: 'data.k', from: 'a'.repeat(200), to: 'b'.repeat(200) }] }],
    order: [],
    counts: { added: 0, changed: 1, removed: 0 },
    notes: [],
  });
  return { fleet: 'f', layout: 'native', from: { revision: 'main', commit: '0'.repeat(40) }, to: { revision: 'working tree', commit: null }, leaves: false, clusters: Array.from({ length: n }, (_, i) => cluster(i)), findings: { introduced: [], fixed: [] } };
}

test('markdown: a table row per changed cluster, collapsible sections, trimmed under the limit with a count', () => {
  const full = diffMarkdown(fleetWith(3));
  assert.equal((full.match(/<details>/g) ?? []).length, 3);
  assert.match(full, /\| c2 \| changed \| 0 \| 1 \| 0 \|/);
  const limit = full.length - 100;
  const trimmed = diffMarkdown(fleetWith(3), { limit });
  assert.ok(trimmed.length <= limit, `${trimmed.length} > ${limit}`);
  assert.equal((trimmed.match(/<details>/g) ?? []).length, 2);
  assert.match(trimmed, /_1 of 3 cluster sections left out to stay within [\d,]+ characters; run `fleetplan diff` for the full report._/);
  assert.match(trimmed, /\| c2 \| changed \|/, 'the table stays whole');
  const big = diffMarkdown(fleetWith(400));
  assert.ok(big.length <= 65_536, `${big.length}`);
  assert.match(big, /cluster sections left out/);
});

test('text: coloured through the palette given, plain without one', () => {
  const d = fleetWith(1);
  d.clusters[0]!.objects[0]!.change = 'added';
  const plain = diffText(d);
  assert.ok(!plain.includes('\x1b['));
  const painted = diffText(d, { added: (s) => `<g>${s}</g>`, removed: (s) => `<r>${s}</r>`, heading: (s) => s, dim: (s) => s });
  assert.match(painted, /<g>\+ ConfigMap x {2}\[c0\/apps\/x\.yaml\]<\/g>/);
});

test('json: clusters in key order (printed by JSON.stringify) and out of it (the sorting printer) give the sorted document byte for byte', async () => {
  const { diffCluster, diffJson, hasChanges } = await import('../../src/diff/index.js');
  const { inJsonOrder, toSortedJson } = await import('../../src/yaml/serialize.js');
  const side = (name: string, revision: string, objects: Record<string, unknown>[]) => ({ name, sector: name === 'b' ? null : 'canary', revision, objects: objects.map((object) => ({ file: 'apps/x.yaml', object })) as never, apps: [], bootstrap: [] });
  const cm = (v: string) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'x', namespace: 'argocd' }, spec: { z: 1, a: v, 'é': '"q"\n' } });
  const unchanged = diffCluster(side('a', 'main', [cm('1')]), side('a', 'main', [cm('1')]));
  const changed = diffCluster(side('b', 'main', [cm('1')]), side('b', 'v2', [cm('2')]));
  const added = diffCluster(undefined, side('c', 'main', [cm('1')]));
  // The pinned shape compareCluster makes (keys added after status), and a cluster whose keys were spelled in another order.
  const pinned = { ...unchanged, name: 'd', status: 'pinned' as const, pending: { removed: 0, added: 1, changed: 0 }, pendingOrder: 2 };
  const scrambled = Object.fromEntries(Object.entries({ ...unchanged, name: 'e' }).reverse()) as unknown as ClusterDiff;
  const clusters = [unchanged, changed, added, pinned, scrambled];
  assert.ok(inJsonOrder(unchanged) && !inJsonOrder(pinned) && !inJsonOrder(scrambled), 'both printers are exercised');
  const d: FleetDiff = {
    fleet: 'f',
    layout: 'native',
    from: { revision: 'main', commit: 'a'.repeat(40) },
    to: { revision: 'working tree', commit: null },
    leaves: false,
    clusters,
    findings: { introduced: [{ severity: 'error', code: 'c', message: 'm "x"', file: 'a.yaml', line: 1 }], fixed: [] },
  };
  const count = (s: string) => clusters.filter((c) => c.status === s).length;
  const reference = toSortedJson({
    clusters,
    findings: d.findings,
    fleet: d.fleet,
    from: d.from,
    layout: d.layout,
    leaves: d.leaves,
    summary: { added: count('added'), changed: count('changed'), clusters: clusters.length, pinned: count('pinned'), removed: count('removed'), unchanged: count('unchanged'), unreadable: count('unreadable'), changes: hasChanges(d) },
    to: d.to,
  });
  assert.equal(diffJson(d), reference);
  assert.equal(diffJson({ ...d, clusters: [] }), toSortedJson({ ...JSON.parse(reference), clusters: [], summary: { added: 0, changed: 0, clusters: 0, pinned: 0, removed: 0, unchanged: 0, unreadable: 0, changes: hasChanges({ ...d, clusters: [] }) } }));
});
