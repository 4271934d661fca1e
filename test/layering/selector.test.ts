/** Label selectors: kubectl's syntax, its errors with a column, and matching on cluster labels. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors/index.js';
import type { LabelSet } from '../../src/layering/selector.js';
import { clusterSelectorLabels, parseSelector, selectClustersByLabels, selectorMatches } from '../../src/layering/selector.js';

const hub: LabelSet = { 'fleetplan.io/role': 'hub', role: 'hub', env: 'lab', tier: '3', 'fleetplan.io/group': ['all', 'infra'] };
const spoke: LabelSet = { 'fleetplan.io/role': 'spoke', role: 'spoke', 'fleetplan.io/group': ['all', 'prod'] };
const bare: LabelSet = { empty: '', 'fleetplan.io/group': [] };
const sets = { hub, spoke, bare };

const matching: { name: string; selector: string; matches: (keyof typeof sets)[] }[] = [
  { name: 'empty selector matches everything', selector: '', matches: ['hub', 'spoke', 'bare'] },
  { name: 'blank selector matches everything', selector: '   ', matches: ['hub', 'spoke', 'bare'] },
  { name: 'k=v', selector: 'role=hub', matches: ['hub'] },
  { name: 'k==v', selector: 'role==spoke', matches: ['spoke'] },
  { name: 'k!=v also matches a missing label', selector: 'role!=hub', matches: ['spoke', 'bare'] },
  { name: 'k in (a,b)', selector: 'role in (hub,spoke)', matches: ['hub', 'spoke'] },
  { name: 'k notin (a,b) also matches a missing label', selector: 'role notin (hub)', matches: ['spoke', 'bare'] },
  { name: 'k (exists)', selector: 'env', matches: ['hub'] },
  { name: '!k (does not exist)', selector: '!env', matches: ['spoke', 'bare'] },
  { name: 'comma is AND', selector: 'role in (hub,spoke),env=lab', matches: ['hub'] },
  { name: 'whitespace around tokens is ignored', selector: ' role  in ( hub , spoke ) , !env ', matches: ['spoke'] },
  { name: 'k= matches an empty value', selector: 'empty=', matches: ['bare'] },
  { name: 'an empty element of a set is the empty value', selector: 'empty in (x,)', matches: ['bare'] },
  { name: 'k>n compares integers', selector: 'tier>2', matches: ['hub'] },
  { name: 'k<n compares integers', selector: 'tier<3', matches: [] },
  { name: 'a multi-valued key matches when any value does', selector: 'fleetplan.io/group=prod', matches: ['spoke'] },
  { name: 'in on a multi-valued key: any value in the set', selector: 'fleetplan.io/group in (infra,prod)', matches: ['hub', 'spoke'] },
  { name: '!= on a multi-valued key: no value equals it', selector: 'fleetplan.io/group!=prod', matches: ['hub', 'bare'] },
  { name: 'notin on a multi-valued key: no value in the set', selector: 'fleetplan.io/group notin (all)', matches: ['bare'] },
  { name: 'a key with no values does not exist', selector: 'fleetplan.io/group', matches: ['hub', 'spoke'] },
  { name: 'in and notin can be values', selector: 'role!=in', matches: ['hub', 'spoke', 'bare'] },
];

for (const c of matching) {
  test(`selector: ${c.name}`, () => {
    const s = parseSelector(c.selector);
    const got = (Object.keys(sets) as (keyof typeof sets)[]).filter((k) => selectorMatches(s, sets[k]));
    assert.deepEqual(got, c.matches);
  });
}

test('selector: parses into requirements with sorted, distinct set values', () => {
  assert.deepEqual(parseSelector('a in (c,b,c), !d, e, f!=, g<5').requirements, [
    { key: 'a', operator: 'in', values: ['b', 'c'] },
    { key: 'd', operator: '!', values: [] },
    { key: 'e', operator: 'exists', values: [] },
    { key: 'f', operator: '!=', values: [''] },
    { key: 'g', operator: '<', values: ['5'] },
  ]);
});

const errors: { name: string; selector: string; message: RegExp }[] = [
  { name: 'a missing closing parenthesis', selector: 'role in (hub', message: /column 13: expected "," or "\)", found the end of the selector/ },
  { name: 'in without parentheses', selector: 'role in hub', message: /column 9: expected "\(" after "in", found "hub"/ },
  { name: 'an empty set', selector: 'role notin ()', message: /column 13: "notin" needs at least one value/ },
  { name: 'a trailing comma', selector: 'role=hub,', message: /column 10: expected a label key, found the end of the selector/ },
  { name: 'two commas', selector: 'a,,b', message: /column 3: expected a label key, found ","/ },
  { name: 'an operator without a key', selector: '=hub', message: /column 1: expected a label key, found "="/ },
  { name: 'two words without an operator', selector: 'role hub', message: /column 6: expected one of =, ==, !=, in, notin, >, <, "," or the end after the key "role", found "hub"/ },
  { name: 'a value with a space', selector: 'role=hub spoke', message: /column 10: expected "," or the end of the selector, found "spoke"/ },
  { name: 'an invalid key', selector: '-role=hub', message: /column 1: invalid label key "-role": the name must consist of/ },
  { name: 'an invalid key prefix', selector: 'Fleet_plan/role=hub', message: /invalid label key "Fleet_plan\/role": the prefix "Fleet_plan" must be a DNS subdomain/ },
  { name: 'an empty key name', selector: 'fleetplan.io/=hub', message: /the name must not be empty/ },
  { name: 'a key name over 63 characters', selector: `${'k'.repeat(64)}=v`, message: /the name must be at most 63 characters/ },
  { name: 'an invalid value', selector: 'role=hub-', message: /column 6: invalid value "hub-": a value must be empty or/ },
  { name: 'an invalid value in a set', selector: 'role in (hub,-x)', message: /column 14: invalid value "-x"/ },
  { name: 'a set value followed by a word', selector: 'role in (hub spoke)', message: /column 14: expected "," or "\)", found "spoke"/ },
  { name: 'a non-integer for >', selector: 'tier>high', message: /column 6: ">" needs an integer, found "high"/ },
  { name: 'a value after !key', selector: '!role=hub', message: /column 6: expected "," or the end of the selector, found "="/ },
  { name: 'a dangling !', selector: '!', message: /column 2: expected a label key, found the end of the selector/ },
];

for (const c of errors) {
  test(`selector error: ${c.name}`, () => {
    assert.throws(
      () => parseSelector(c.selector),
      (e: unknown) => {
        assert.ok(e instanceof UsageError, String(e));
        assert.equal(e.code, 'invalid-selector');
        assert.ok(e.message.startsWith(`invalid selector "${c.selector}": `), e.message);
        assert.match(e.message, c.message);
        assert.match(e.hint ?? '', /k in \(a,b\)/);
        return true;
      },
    );
  });
}

const def = (name: string, spec: Record<string, unknown>, labels?: Record<string, string>) =>
  ({ name, metadata: { name, ...(labels ? { labels } : {}) }, spec: { role: 'spoke', ...spec } }) as Parameters<typeof clusterSelectorLabels>[0];

const labelCases: { name: string; cluster: Parameters<typeof clusterSelectorLabels>[0]; labels: Record<string, string | string[]> }[] = [
  {
    name: 'built-in keys and short keys from the model',
    cluster: def('etl4', { hub: 'hub', region: 'rdu2', sector: 'lab', groups: ['prod', 'all', 'prod'] }),
    labels: {
      'fleetplan.io/name': 'etl4',
      'fleetplan.io/role': 'spoke',
      'fleetplan.io/sector': 'lab',
      'fleetplan.io/region': 'rdu2',
      'fleetplan.io/hub': 'hub',
      'fleetplan.io/group': ['all', 'prod'],
      role: 'spoke',
      sector: 'lab',
      region: 'rdu2',
    },
  },
  {
    name: 'a label of a short key wins over the model; spec.labels over metadata.labels; built-ins cannot be overridden',
    cluster: def('c', { role: 'hub', region: 'us-east-1', labels: { region: 'use1', env: 'prod', 'fleetplan.io/role': 'spoke' } }, { env: 'dev', team: 'a' }),
    labels: {
      env: 'prod',
      team: 'a',
      region: 'use1',
      'fleetplan.io/role': 'hub',
      'fleetplan.io/name': 'c',
      'fleetplan.io/region': 'us-east-1',
      role: 'hub',
    },
  },
];

for (const c of labelCases) {
  test(`cluster labels: ${c.name}`, () => {
    const got = clusterSelectorLabels(c.cluster);
    assert.deepEqual(Object.fromEntries(Object.entries(got).sort()), Object.fromEntries(Object.entries(c.labels).sort()));
  });
}

test('selectClustersByLabels keeps the given order', () => {
  const clusters = [def('b', { groups: ['x'] }), def('a', { role: 'hub' }), def('c', { groups: ['x', 'y'] })];
  assert.deepEqual(selectClustersByLabels(clusters, parseSelector('fleetplan.io/group=x')), ['b', 'c']);
  assert.deepEqual(selectClustersByLabels(clusters, parseSelector('!fleetplan.io/group')), ['a']);
  assert.deepEqual(selectClustersByLabels(clusters, parseSelector('role=hub,fleetplan.io/name in (a,b)')), ['a']);
});
