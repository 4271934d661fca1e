import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadPatternError, compileDoublestar, compileGitPathspec, goPathMatch } from '../../src/appset/glob.js';

const goCases: { name: string; pattern: string; path: string; match: boolean }[] = [
  { name: 'star matches within a segment', pattern: 'apps/*', path: 'apps/a', match: true },
  { name: 'star never matches a slash', pattern: 'apps/*', path: 'apps/a/b', match: false },
  { name: 'question mark matches one character', pattern: 'app?', path: 'app1', match: true },
  { name: 'question mark never matches a slash', pattern: 'a?b', path: 'a/b', match: false },
  { name: 'class with range', pattern: 'p[0-9]/*', path: 'p1/x', match: true },
  { name: 'negated class with caret', pattern: 'p[^1]', path: 'p1', match: false },
  { name: 'negated class never matches a slash', pattern: 'a[^x]b', path: 'a/b', match: false },
  { name: 'escaped star is literal', pattern: 'a\\*', path: 'a*', match: true },
  { name: 'escaped star does not glob', pattern: 'a\\*', path: 'ab', match: false },
  { name: 'literal pattern matches itself only', pattern: 'guestbook', path: 'guestbook', match: true },
  { name: 'whole path must match', pattern: 'p1/*', path: 'p1/p2/app3', match: false },
];

for (const c of goCases) {
  test(`path.Match: ${c.name}`, () => {
    assert.equal(goPathMatch(c.pattern, c.path), c.match);
  });
}

test('path.Match: a malformed pattern is an error', () => {
  assert.throws(() => goPathMatch('a[', 'a'), BadPatternError);
  assert.throws(() => goPathMatch('a\\', 'a'), BadPatternError);
});

const doublestarCases: { name: string; pattern: string; path: string; match: boolean }[] = [
  { name: '** spans zero directories', pattern: 'p1/**/config.json', path: 'p1/config.json', match: true },
  { name: '** spans several directories', pattern: 'p1/**/config.json', path: 'p1/a/b/config.json', match: true },
  { name: 'leading ** matches a root file', pattern: '**/config.json', path: 'config.json', match: true },
  { name: 'star stays within a segment', pattern: 'some-path/*.yaml', path: 'some-path/staging/values.yaml', match: false },
  { name: 'star matches within the segment', pattern: 'some-path/*.yaml', path: 'some-path/values.yaml', match: true },
  { name: 'two stars as a segment', pattern: 'cluster-charts/*/*/values.yaml', path: 'cluster-charts/c1/mychart/values.yaml', match: true },
  { name: 'two stars as a segment do not span more', pattern: 'cluster-charts/*/*/values.yaml', path: 'cluster-charts/c1/mychart/charts/sub/values.yaml', match: false },
  { name: 'alternatives', pattern: 'apps/{a,b}/config.json', path: 'apps/b/config.json', match: true },
  { name: 'alternatives reject others', pattern: 'apps/{a,b}/config.json', path: 'apps/c/config.json', match: false },
  { name: 'trailing ** matches everything below', pattern: 'apps/**', path: 'apps/x/y.json', match: true },
  { name: 'negated class with bang', pattern: 'p[!2]/x', path: 'p1/x', match: true },
];

for (const c of doublestarCases) {
  test(`doublestar: ${c.name}`, () => {
    assert.equal(compileDoublestar(c.pattern)(c.path), c.match);
  });
}

const pathspecCases: { name: string; pattern: string; path: string; match: boolean }[] = [
  { name: 'star also matches a slash', pattern: 'cluster-charts/*/values.yaml', path: 'cluster-charts/a/b/values.yaml', match: true },
  { name: 'a literal directory matches the files below it', pattern: 'p1', path: 'p1/app/config.json', match: true },
  { name: 'a literal does not match a longer name', pattern: 'p1', path: 'p10/config.json', match: false },
  { name: 'a wildcard pattern must match the whole path', pattern: 'p*/app', path: 'p1/app/config.json', match: false },
];

for (const c of pathspecCases) {
  test(`git pathspec: ${c.name}`, () => {
    assert.equal(compileGitPathspec(c.pattern)(c.path), c.match);
  });
}
