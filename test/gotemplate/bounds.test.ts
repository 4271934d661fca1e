/**
 * Bounded evaluation (issue #13 part 2, ADRs 0215 and 0216): regular expressions in linear time
 * with RE2's syntax and errors, and limits on output, range iterations, nesting and template
 * depth that end in a GoTemplateError naming the template position and the limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoTemplateError, compileGoTemplate } from '../../src/gotemplate/index.js';
import { TEMPLATE_LIMITS } from '../../src/gotemplate/limits.js';
import { compileGoRegexp } from '../../src/gotemplate/regexp.js';

function run(text: string, data: unknown = {}): string {
  return compileGoTemplate(text).execute(data);
}

function timed<T>(f: () => T): [T, number] {
  const t = process.hrtime.bigint();
  const v = f();
  return [v, Number(process.hrtime.bigint() - t) / 1e6];
}

test('regexMatch answers a catastrophic-backtracking pattern at once', () => {
  const [out, ms] = timed(() => run(`{{ regexMatch "^(a+)+$" "${'a'.repeat(44)}!" }}`));
  assert.equal(out, 'false');
  assert.ok(ms < 2000, `took ${ms} ms`);
});

test('every sprig regex function stays linear on a hostile input', () => {
  const hostile = 'a'.repeat(5000) + '!';
  for (const f of [
    `regexFind "(a|aa)+$" "${hostile}"`,
    `regexFindAll "(a*)*b" "${hostile}" -1`,
    `regexReplaceAll "(a+)+b" "${hostile}" "x"`,
    `regexReplaceAllLiteral "(a+)+b" "${hostile}" "x"`,
    `regexSplit "(a+)+b" "${hostile}" -1`,
    `mustRegexMatch "^(a|a)*$" "${hostile}"`,
  ]) {
    const [, ms] = timed(() => run(`{{ ${f} }}`));
    assert.ok(ms < 3000, `${f.slice(0, 30)} took ${ms} ms`);
  }
});

const syntax: [name: string, expr: string, message: string][] = [
  ['rejects a backreference as RE2 does', '(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
  ['rejects a lookahead as RE2 does', '(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
  ['rejects a repeat count above 1000 as RE2 does', 'a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
  ['rejects a nested repetition as RE2 does', 'a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
  ['reports a missing parenthesis with the expression', '(ab', 'error parsing regexp: missing closing ): `(ab`'],
  ['ends a trailing backslash with empty backquotes, as Go', 'a\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
];
for (const [name, expr, message] of syntax) {
  test(name, () => {
    assert.throws(() => compileGoRegexp(expr), { message });
  });
}

test('mustRegexMatch reports the RE2 error; regexMatch gives false', () => {
  assert.throws(() => run('{{ mustRegexMatch "a{1001}" "a" }}'), (e: unknown) => e instanceof GoTemplateError && /invalid repeat count/.test(e.message));
  assert.equal(run('{{ regexMatch "(?=a)" "a" }}'), 'false');
});

const matches: [name: string, template: string, expected: string][] = [
  ['FindAll skips an empty match right after a match (Go allMatches)', '{{ regexFindAll "a*" "baaac" -1 | len }}', '3'],
  ['ReplaceAll puts no replacement right after a non-empty match', '{{ regexReplaceAll "a*" "baaac" "X" }}', 'XbXcX'],
  ['ReplaceAll expands named and numbered groups; a missing group is empty', '{{ regexReplaceAll "(?P<x>a)(b)?" "ab a" "${x}-$2." }}', 'a-b. a-.'],
  ['Split on a pattern that matches empty', '{{ regexSplit "a*" "baaac" -1 }}', '[b c]'],
  ['RE2 syntax Go accepts: POSIX classes, \\pL, \\Q…\\E, \\z, (?i)', '{{ regexFind "(?i)[[:alpha:]]+\\\\pL\\\\Q.\\\\E\\\\z" "x--AbC.x" }}', ''],
  ['\\A anchors at the start of the text only', '{{ regexReplaceAll "\\\\Aa" "aa" "X" }}', 'Xa'],
  ['$ without (?m) matches only at the end of the text', '{{ regexMatch "a$" "a\\n" }}', 'false'],
];
for (const [name, template, expected] of matches) {
  test(name, () => {
    assert.equal(run(template), expected);
  });
}

function limitError(template: string, pattern: RegExp, data: unknown = {}): void {
  assert.throws(
    () => run(template, data),
    (e: unknown) => {
      assert.ok(e instanceof GoTemplateError, `a GoTemplateError, got ${String(e)}`);
      assert.match(e.message, pattern);
      return true;
    },
  );
}

test('a range over a huge integer is an error naming the position and the limit, before it runs', () => {
  const [, ms] = timed(() =>
    limitError('x\n{{ range 1000000000 }}y{{ end }}', new RegExp(`^template: base:2:9: .*range over 1000000000 exceeds fleetplan's limit of ${TEMPLATE_LIMITS.maxRangeIterations}`)),
  );
  assert.ok(ms < 1000, `took ${ms} ms`);
});

test('nested ranges are bounded by their total iterations', () => {
  limitError('{{ range 5000 }}{{ range 5000 }}{{ end }}{{ end }}', new RegExp(`base:1:25: .*exceeds fleetplan's limit of ${TEMPLATE_LIMITS.maxRangeIterations} range iterations`));
});

test('template output is bounded', () => {
  limitError(`{{ range 900000 }}${'0123456789'.repeat(10)}{{ end }}`, new RegExp(`^template: base:1:\\d+: executing "base": template output exceeds fleetplan's limit of ${TEMPLATE_LIMITS.maxOutput} characters`));
});

test('until and repeat refuse results beyond the limits', () => {
  limitError('{{ until 1000000000 | len }}', /error calling until: a list of 1000000000 elements exceeds fleetplan's limit/);
  limitError('{{ repeat 1000000000 "ab" }}', /error calling repeat: a string of 2000000000 characters exceeds fleetplan's limit/);
});

test('recursive template calls stop at the depth limit', () => {
  limitError('{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}', /exceeded maximum template depth \(1000\)/);
});

test('deep parenthesis nesting is a parse error with the line, not a stack overflow', () => {
  const deep = '(' .repeat(20000) + '1' + ')'.repeat(20000);
  assert.throws(() => compileGoTemplate(`\n{{ ${deep} }}`), { message: /^template: base:2: max expression depth exceeded/ });
});

test('deep block nesting is a parse error, not a stack overflow', () => {
  const deep = '{{ if 1 }}'.repeat(5000) + '{{ end }}'.repeat(5000);
  assert.throws(() => compileGoTemplate(deep), { message: /max expression depth exceeded \(fleetplan's limit is 1000/ });
});

test('nesting within the limit still evaluates', () => {
  const n = TEMPLATE_LIMITS.maxNestingDepth - 1;
  assert.equal(run(`{{ ${'('.repeat(n)}1${')'.repeat(n)} }}`), '1');
  assert.equal(run('{{ if 1 }}'.repeat(n) + 'x' + '{{ end }}'.repeat(n)), 'x');
});

test('template calls with deep bodies that exhaust the stack end in a GoTemplateError', () => {
  const body = '{{ if . }}'.repeat(400) + '{{ template "r" . }}' + '{{ end }}'.repeat(400);
  assert.throws(() => run(`{{ define "r" }}${body}{{ end }}{{ template "r" 1 }}`), (e: unknown) => e instanceof GoTemplateError);
});
