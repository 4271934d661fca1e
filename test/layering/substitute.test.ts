import { test } from 'node:test';
import assert from 'node:assert/strict';
import { substitute, referencedVariables } from '../../src/model/substitute.js';

const vars: Record<string, string> = { A: 'alpha', EMPTY: '' };
const lookup = (n: string) => vars[n];

const cases: { name: string; input: string; text: string; missing?: string[] }[] = [
  { name: 'substitutes ${NAME}', input: 'x-${A}-y', text: 'x-alpha-y' },
  { name: 'uses the default when unset', input: '${B:-beta}', text: 'beta' },
  { name: 'uses the default when empty', input: '${EMPTY:-e}', text: 'e' },
  { name: 'keeps an empty value without default', input: '[${EMPTY}]', text: '[]' },
  { name: 'allows an empty default', input: '[${B:-}]', text: '[]' },
  { name: 'unescapes $${NAME} to a literal', input: '$${A} and $${B:-x}', text: '${A} and ${B:-x}' },
  { name: 'leaves plain $NAME alone', input: '$A $(cmd) ${not a name}', text: '$A $(cmd) ${not a name}' },
  { name: 'reports an undefined name', input: 'a\n  ${MISSING}', text: 'a\n  ${MISSING}', missing: ['MISSING@2:3'] },
];

for (const c of cases) {
  test(c.name, () => {
    const r = substitute(c.input, lookup);
    assert.equal(r.text, c.text);
    assert.deepEqual(r.missing.map((m) => `${m.name}@${m.line}:${m.column}`), c.missing ?? []);
  });
}

test('lists referenced variables, skipping escaped ones', () => {
  assert.deepEqual(
    referencedVariables('${A} $${B} ${C:-d}').map((r) => [r.name, r.hasDefault]),
    [['A', false], ['C', true]],
  );
});
