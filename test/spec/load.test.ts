import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/index.js';
import { InputError } from '../../src/errors/index.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

function loadFindings(files: Record<string, string>) {
  const dir = writeTree(files);
  try {
    return loadFleet(dir).findings;
  } finally {
    removeTree(dir);
  }
}

const clusterFile = (body: string) => ({ 'clusters/one/cluster.yaml': body });

const cases: { name: string; files: Record<string, string>; code: string; file: string; line: number; column?: number; path?: string; message: RegExp; hint?: RegExp }[] = [
  {
    name: 'bad YAML is reported with line and column',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  groups: [base\n'),
    code: 'yaml-syntax',
    file: 'clusters/one/cluster.yaml',
    line: 8,
    message: /flow sequence|Missing|end/i,
  },
  {
    name: 'a wrong type names the field, what was expected and what was found',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  apps:\n    operator:\n      path: components/operator\n      wave: high\n'),
    code: 'schema',
    file: 'clusters/one/cluster.yaml',
    line: 10,
    column: 13,
    path: 'spec.apps.operator.wave',
    message: /expected an integer, got "high"/,
  },
  {
    name: 'a quoted number gets a hint to remove the quotes',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  apps:\n    operator:\n      wave: "5"\n'),
    code: 'schema',
    file: 'clusters/one/cluster.yaml',
    line: 9,
    path: 'spec.apps.operator.wave',
    message: /expected an integer, got "5"/,
    hint: /remove the quotes/,
  },
  {
    name: 'an unknown field suggests the closest known one',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  apps:\n    operator:\n      wavee: 5\n'),
    code: 'schema',
    file: 'clusters/one/cluster.yaml',
    line: 9,
    path: 'spec.apps.operator.wavee',
    message: /unknown field "wavee"/,
    hint: /did you mean "wave"/,
  },
  {
    name: 'an unknown enum value suggests the closest',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: spokes\n'),
    code: 'schema',
    file: 'clusters/one/cluster.yaml',
    line: 6,
    path: 'spec.role',
    message: /"spokes" is not one of/,
    hint: /did you mean "spoke"/,
  },
  {
    name: 'a duplicate app name in one file is an error',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  apps:\n    operator:\n      wave: 1\n    operator:\n      wave: 2\n'),
    code: 'duplicate-key',
    file: 'clusters/one/cluster.yaml',
    line: 10,
    message: /unique/i,
  },
  {
    name: 'a cluster whose name differs from its folder is an error',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: two\nspec:\n  role: hub\n'),
    code: 'cluster-name-mismatch',
    file: 'clusters/one/cluster.yaml',
    line: 4,
    message: /cluster "two" is in folder clusters\/one/,
  },
  {
    name: 'a missing required field is named',
    files: clusterFile('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  groups: []\n'),
    code: 'schema',
    file: 'clusters/one/cluster.yaml',
    line: 6,
    path: 'spec',
    message: /missing required field "role"/,
  },
  {
    name: 'YAML alias bombs are refused',
    files: clusterFile(
      'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n' +
        Array.from({ length: 9 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]\n`).join('') +
        'spec:\n  role: hub\n',
    ),
    code: 'yaml-aliases',
    file: 'clusters/one/cluster.yaml',
    line: 1,
    message: /too many YAML aliases/,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const findings = loadFindings(baseFleet(c.files));
    const f = findings.find((x) => x.code === c.code);
    assert.ok(f, `expected a ${c.code} finding, got ${JSON.stringify(findings)}`);
    assert.equal(f.severity, 'error');
    assert.equal(f.file, c.file);
    assert.equal(f.line, c.line);
    if (c.column !== undefined) assert.equal(f.column, c.column);
    if (c.path !== undefined) assert.equal(f.path, c.path);
    assert.match(f.message, c.message);
    if (c.hint) assert.match(f.hint ?? '', c.hint);
  });
}

test('a file above the size limit is refused', () => {
  const findings = loadFindings(baseFleet(clusterFile('# ' + 'x'.repeat(9 * 1024 * 1024) + '\n')));
  const f = findings.find((x) => x.code === 'file-too-large');
  assert.ok(f, JSON.stringify(findings));
  assert.equal(f.file, 'clusters/one/cluster.yaml');
});

test('a repository without fleet.yaml is an input error with a hint', () => {
  const dir = writeTree({ 'README.md': 'hello\n' });
  try {
    assert.throws(() => loadFleet(dir), (e: unknown) => e instanceof InputError && /not a fleet repository/.test(e.message) && /fleetplan init/.test(e.hint ?? ''));
  } finally {
    removeTree(dir);
  }
});

test('a broken cluster file does not hide the other clusters', () => {
  const dir = writeTree(baseFleet({ 'clusters/two/cluster.yaml': 'kind: [\n' }));
  try {
    const { fleet, findings } = loadFleet(dir);
    assert.deepEqual(fleet.clusters.map((c) => c.name), ['one']);
    assert.ok(findings.some((f) => f.file === 'clusters/two/cluster.yaml'));
  } finally {
    removeTree(dir);
  }
});
