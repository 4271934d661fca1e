/**
 * Flux's post-build substitution (fluxcd/pkg envsubst), one named case per rule: defaults with
 * `:=` and nested variables, unset variables empty (Flux's non-strict mode), `$$` escapes,
 * casing and length, substring, replace and trim operators (with envsubst's own test vectors),
 * and the forms Flux refuses to parse.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FluxSubstituteError, fluxSubstitute } from '../../src/model/flux-substitute.js';

const vars: Record<string, string> = { APP: 'sonarr', EMPTY: '', MIXED: 'hello World', NS: 'media' };
const lookup = (n: string) => vars[n];

const cases: { name: string; input: string; want: string }[] = [
  { name: 'a braced variable is its value', input: 'name: ${APP}', want: 'name: sonarr' },
  { name: 'an unset variable is the empty string (Flux without StrictPostBuildSubstitutions)', input: 'x: "${NOPE}"', want: 'x: ""' },
  { name: '${VAR:=default} takes the default when the variable is unset', input: 'kind: ${CONTROLLER:=Deployment}', want: 'kind: Deployment' },
  { name: '${VAR:=default} takes the value when it is set', input: '${APP:=other}', want: 'sonarr' },
  { name: '${VAR:=default} takes the default when the value is empty', input: '${EMPTY:=fallback}', want: 'fallback' },
  { name: '${VAR:-default}, ${VAR=default}, ${VAR:?d} and ${VAR:+d} behave as := in Flux', input: '${NOPE:-a}/${NOPE=b}/${NOPE:?c}/${NOPE:+d}/${APP:+e}', want: 'a/b/c/d/sonarr' },
  { name: 'a default may hold a nested variable', input: '${NOPE:=${NS}-x}', want: 'media-x' },
  { name: '$${VAR} is the literal text ${VAR}', input: 'echo $${HOME}', want: 'echo ${HOME}' },
  { name: '$$ is one $', input: 'cost: $$5', want: 'cost: $5' },
  { name: 'a bare $VAR is left alone', input: 'echo $APP $', want: 'echo $APP $' },
  { name: 'casing operators change the first letter or all letters', input: '${MIXED^}|${MIXED^^}|${MIXED,,}|${APP^}', want: 'Hello World|HELLO WORLD|hello world|Sonarr' },
  { name: '${#VAR} is the length', input: '${#APP}', want: '6' },
];

for (const c of cases) {
  test(`flux substitution: ${c.name}`, () => {
    assert.equal(fluxSubstitute(c.input, lookup), c.want);
  });
}

test('flux substitution: records the names it reads', () => {
  const used = new Set<string>();
  fluxSubstitute('${APP} ${NOPE:=x} $${LITERAL}', lookup, used);
  assert.deepEqual([...used], ['APP', 'NOPE']);
});

test('flux substitution: malformed expressions fail with the parse errors of Flux', () => {
  const fails = (input: string, message: RegExp) =>
    assert.throws(() => fluxSubstitute(input, lookup), (e: unknown) => e instanceof FluxSubstituteError && !e.notEvaluated && message.test(e.message), input);
  fails('x: ${APP:=abc', /unable to parse substitution within function/);
  fails('x: ${}', /unable to parse variable name/);
  fails('x: ${APP', /missing closing brace/);
  // Without a colon only `=` is a default operator: envsubst's parser stops at `-`, `?`, `+`.
  for (const expr of ['${NOPE-c}', '${NOPE?c}', '${NOPE+c}']) fails(`v: ${expr}`, /missing closing brace/);
  // The delete form of bash (${VAR/pattern}) has no second `/` in envsubst.
  fails('v: ${APP/a}', /bad substitution/);
});

// envsubst's own vectors (fluxcd/pkg envsubst/eval_test.go TestExpand): unset names are empty.
const vectors: { params: Record<string, string>; input: string; output: string }[] = [
  { params: { var01: 'abcdEFGH28ij' }, input: '${#var01}', output: '12' },
  { params: { var01: 'abcdEFGH28ij' }, input: '${var01^}', output: 'AbcdEFGH28ij' },
  { params: { var01: 'ABCDEFGH28IJ' }, input: '${var01,}', output: 'aBCDEFGH28IJ' },
  { params: { path_name: '/home/bozo/ideas/thoughts.for.today' }, input: '${path_name:11}', output: 'ideas/thoughts.for.today' },
  { params: { path_name: '/home/bozo/ideas/thoughts.for.today' }, input: '${path_name:11:5}', output: 'ideas' },
  { params: { var: 'abc' }, input: '${var=xyz}', output: 'abc' },
  { params: { default_var: 'foo1' }, input: 'foo: ${var=prefix${default_var}-suffix}', output: 'foo: prefixfoo1-suffix' },
  { params: { stringZ: 'abcABC123ABCabc' }, input: '${stringZ/%abc/XYZ}', output: 'abcABC123ABCXYZ' },
  { params: { stringZ: 'abcABC123ABCabc' }, input: '${stringZ/#abc/XYZ}', output: 'XYZABC123ABCabc' },
  { params: { stringZ: 'abcABC123ABCabc' }, input: '${stringZ//abc/xyz}', output: 'xyzABC123ABCxyz' },
  { params: { stringZ: 'abcABC123ABCabc' }, input: '${stringZ/abc/xyz}', output: 'xyzABC123ABCabc' },
  { params: { filename: 'bash.string.txt' }, input: '${filename#*.}', output: 'string.txt' },
  { params: { filename: '/path/to/file' }, input: '${filename#*/}', output: 'path/to/file' },
  { params: { filename: 'path/to/file' }, input: '${filename##*/}', output: 'file' },
  { params: { filename: 'bash.string.txt' }, input: '${filename##*.}', output: 'txt' },
  { params: { filename: 'bash.string.txt' }, input: '${filename%.*}', output: 'bash.string' },
  { params: { filename: 'bash.string.txt' }, input: '${filename%%.*}', output: 'bash' },
  { params: { var01: 'abcdEFGH28ij' }, input: '${var=${var01^^}}', output: 'ABCDEFGH28IJ' },
  { params: { var01: 'abcdEFGH28ij' }, input: 'some text ${var01}$${var$${var01}$var01${var01}', output: 'some text abcdEFGH28ij${var${var01}$var01abcdEFGH28ij' },
  { params: { default_var: 'foo' }, input: 'something $${var=${default_var}}', output: 'something ${var=foo}' },
  { params: { stringZ: 'foo/bar' }, input: '${stringZ/\\//-}', output: 'foo-bar' },
  { params: { stringZ: 'foo/bar/baz' }, input: '${stringZ//\\//-}', output: 'foo-bar-baz' },
  { params: { default_var: 'foo' }, input: '\\\\something ${var=${default_var}}', output: '\\\\something foo' },
  { params: { stringZ: 'foo.bar' }, input: '${stringZ/./}', output: 'foobar' },
];

for (const v of vectors) {
  test(`flux substitution: envsubst vector ${v.input}`, () => {
    assert.equal(fluxSubstitute(v.input, (n) => v.params[n]), v.output);
  });
}

test('flux substitution: replace operators take the text literally, as a home-operations DOMAIN/./- does', () => {
  const d = (n: string) => ({ DOMAIN: 'example.co.uk' })[n];
  assert.equal(fluxSubstitute('host: ${DOMAIN/./-}', d), 'host: example-co.uk');
  assert.equal(fluxSubstitute('host: ${DOMAIN//./-}', d), 'host: example-co-uk');
  // `*` in a replace pattern is a literal star, not a glob (strings.Replace in envsubst).
  assert.equal(fluxSubstitute('${DOMAIN/*/-}', d), 'example.co.uk');
  // A prefix/suffix replace without a replacement leaves the value unchanged (envsubst needs two arguments).
  assert.equal(fluxSubstitute('${DOMAIN/#example/}|${DOMAIN/example/}', d), 'example.co.uk|.co.uk');
});

test('flux substitution: substrings as envsubst cuts them', () => {
  const d = (n: string) => ({ S: 'abcdef' })[n];
  assert.equal(fluxSubstitute('${S:-2}', d), 'abcdef'); // `:-` is the default operator, and S is set
  assert.equal(fluxSubstitute('${S:2:100}|${S:10}|${S:x}|${S:1:y}', d), 'cdef||abcdef|abcdef');
  assert.equal(fluxSubstitute('${S:${N:=1}:2}', d), 'bc');
  assert.throws(() => fluxSubstitute('${S:3:-1}', d), (e: unknown) => e instanceof FluxSubstituteError && /negative length/.test(e.message) && e.message.includes('${S:3:-1}'));
});

test('flux substitution: trim patterns are globs with [classes], ? and escapes', () => {
  const d = (n: string) => ({ IMG: 'ghcr.io/org/app:v1.2.3' })[n];
  assert.equal(fluxSubstitute('${IMG##*:}|${IMG%:*}|${IMG#ghcr.io/}|${IMG#[a-h]}|${IMG#????}', d), 'v1.2.3|ghcr.io/org/app|org/app:v1.2.3|hcr.io/org/app:v1.2.3|.io/org/app:v1.2.3');
  // A suffix trim matches the reversed pattern on the reversed value: a [class] reversed is no
  // longer a pattern, and envsubst leaves the value unchanged (bash would give "ghcr").
  assert.equal(fluxSubstitute('${IMG%%[.:]*}', d), 'ghcr.io/org/app:v1.2.3');
  // A malformed pattern leaves the value unchanged, as envsubst does.
  assert.equal(fluxSubstitute('${IMG#[}', d), 'ghcr.io/org/app:v1.2.3');
});

test('flux substitution: byte-based operators on non-ASCII text are refused, not miscounted', () => {
  const d = (n: string) => ({ U: 'café-bar' })[n];
  assert.equal(fluxSubstitute('${#U}', d), '9'); // UTF-8 bytes, as Go's len
  assert.equal(fluxSubstitute('${U/é/e}', d), 'cafe-bar');
  for (const expr of ['${U:1:2}', '${U#c}', '${U%%-*}']) {
    assert.throws(() => fluxSubstitute(expr, d), (e: unknown) => e instanceof FluxSubstituteError && e.notEvaluated && e.message.includes(expr), expr);
  }
});

test('flux substitution: an operator on a redacted Secret value gives the redaction marker, not a result computed from it', () => {
  const marker = (n: string) => (n === 'DOMAIN' ? 'REDACTED_SECRET_DOMAIN' : undefined);
  const secret = (n: string) => n === 'DOMAIN';
  assert.equal(fluxSubstitute('${#DOMAIN}|${DOMAIN/./-}|${DOMAIN,,}|${DOMAIN:=x}|${DOMAIN}', marker, undefined, secret), 'REDACTED_SECRET_DOMAIN|REDACTED_SECRET_DOMAIN|REDACTED_SECRET_DOMAIN|REDACTED_SECRET_DOMAIN|REDACTED_SECRET_DOMAIN');
  assert.equal(fluxSubstitute('${#DOMAIN}', marker), '22');
});

test('flux substitution: strict mode (StrictPostBuildSubstitutions) fails on an unset variable read bare or through a transformation, not through a default operator', () => {
  const strict = { strict: true };
  for (const input of ['${NOPE}', '${#NOPE}', '${NOPE^^}', '${NOPE/a/b}', '${NOPE:1}', 'x: ${APP:=${NOPE}}']) {
    assert.throws(() => fluxSubstitute(input, lookup, undefined, undefined, strict), (e: unknown) => e instanceof FluxSubstituteError && /variable not set \(strict mode\): "NOPE"/.test(e.message), input);
  }
  assert.equal(fluxSubstitute('${NOPE:=a}/${NOPE:-b}/${NOPE:?c}/${NOPE:+d}/${NOPE=e}/${EMPTY}/${APP}', lookup, undefined, undefined, strict), 'a/b/c/d/e//sonarr');
});

test('flux substitution: without strict mode the unset variables read bare or through a transformation are collected, defaults are not', () => {
  const unset = new Set<string>();
  assert.equal(fluxSubstitute('${NOPE}|${#GONE}|${MISSING:=x}|${EMPTY}|${APP}', lookup, undefined, undefined, { unset }), '|0|x||sonarr');
  assert.deepEqual([...unset], ['NOPE', 'GONE']);
});
