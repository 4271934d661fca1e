// setSectorRevision changes one value of fleet.yaml and nothing else: the expected texts below
// are the inputs with only that value written (or its line added).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setSectorRevision } from '../../src/promote/edit.js';
import { InputError } from '../../src/errors/index.js';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const HEAD = 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n';

const cases: { name: string; index: number; input: string; want: string }[] = [
  {
    name: 'replaces a plain revision and keeps the comment after it',
    index: 1,
    input: `${HEAD}  sectors:\n    - name: integration\n    - name: staging\n      revision: main   # QA\n      protected: false\n`,
    want: `${HEAD}  sectors:\n    - name: integration\n    - name: staging\n      revision: ${SHA}   # QA\n      protected: false\n`,
  },
  {
    name: 'keeps double quotes',
    index: 0,
    input: `${HEAD}  sectors:\n    - name: production\n      revision: "0123456789abcdef0123456789abcdef01234567"\n`,
    want: `${HEAD}  sectors:\n    - name: production\n      revision: "${SHA}"\n`,
  },
  {
    name: 'keeps single quotes',
    index: 0,
    input: `${HEAD}  sectors:\n    - name: production\n      revision: 'v1'\n`,
    want: `${HEAD}  sectors:\n    - name: production\n      revision: '${SHA}'\n`,
  },
  {
    name: 'adds a revision line after the name of a block map, past the comment on the name line',
    index: 1,
    input: `${HEAD}  sectors:\n  - name: integration\n  - name: production # the customers\n    protected: true\n\n  # trailing comment\n`,
    want: `${HEAD}  sectors:\n  - name: integration\n  - name: production # the customers\n    revision: ${SHA}\n    protected: true\n\n  # trailing comment\n`,
  },
  {
    name: 'adds a revision after the name of a flow map',
    index: 0,
    input: `${HEAD}  sectors:\n    - {name: production, protected: true}\n`,
    want: `${HEAD}  sectors:\n    - {name: production, revision: ${SHA}, protected: true}\n`,
  },
  {
    name: 'adds a revision to the last line of a file without a final newline',
    index: 0,
    input: `${HEAD}  sectors:\n    - name: production`,
    want: `${HEAD}  sectors:\n    - name: production\n      revision: ${SHA}`,
  },
  {
    name: 'keeps CRLF line endings',
    index: 0,
    input: `${HEAD}  sectors:\n    - name: production\n`.replace(/\n/g, '\r\n'),
    want: `${HEAD}  sectors:\n    - name: production\n      revision: ${SHA}\n`.replace(/\n/g, '\r\n'),
  },
  {
    name: 'quotes a value that plain YAML would read as a number',
    index: 0,
    input: `${HEAD}  sectors:\n    - name: production\n      revision: main\n`,
    want: `${HEAD}  sectors:\n    - name: production\n      revision: "1234567890123456789012345678901234567890"\n`,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const revision = c.name.startsWith('quotes') ? '1234567890123456789012345678901234567890' : SHA;
    assert.equal(setSectorRevision(c.input, 'fleet.yaml', c.index, revision), c.want);
  });
}

test('refuses a sector that is an alias, not a map it can edit', () => {
  const input = `${HEAD}  x: &s {name: production}\n  sectors:\n    - *s\n`;
  assert.throws(() => setSectorRevision(input, 'fleet.yaml', 0, SHA), (e: unknown) => e instanceof InputError && /not a map promotion can edit/.test(e.message));
});

test('refuses a file that does not parse', () => {
  assert.throws(() => setSectorRevision('spec: [\n', 'fleet.yaml', 0, SHA), (e: unknown) => e instanceof InputError && /does not parse/.test(e.message));
});
