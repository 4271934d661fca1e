import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSelector } from '../../src/appset/selector.js';
import { ApplicationSetError } from '../../src/appset/types.js';
import type { LabelSelector } from '../../src/appset/types.js';

const labels = { 'values.env': 'staging', server: 'https://a.example.com:6443', 'metadata.labels.argocd.argoproj.io/secret-type': 'cluster' };

const cases: { name: string; selector: LabelSelector; match: boolean }[] = [
  { name: 'empty selector keeps everything', selector: {}, match: true },
  { name: 'matchLabels needs an equal value', selector: { matchLabels: { 'values.env': 'staging' } }, match: true },
  { name: 'matchLabels rejects another value', selector: { matchLabels: { 'values.env': 'prod' } }, match: false },
  { name: 'values are not restricted (URLs)', selector: { matchLabels: { server: 'https://a.example.com:6443' } }, match: true },
  { name: 'prefixed keys work', selector: { matchLabels: { 'metadata.labels.argocd.argoproj.io/secret-type': 'cluster' } }, match: true },
  { name: 'In needs the key present', selector: { matchExpressions: [{ key: 'missing', operator: 'In', values: ['x'] }] }, match: false },
  { name: 'NotIn passes when the key is absent', selector: { matchExpressions: [{ key: 'missing', operator: 'NotIn', values: ['x'] }] }, match: true },
  { name: 'NotIn rejects a listed value', selector: { matchExpressions: [{ key: 'values.env', operator: 'NotIn', values: ['staging'] }] }, match: false },
  { name: 'Exists', selector: { matchExpressions: [{ key: 'server', operator: 'Exists' }] }, match: true },
  { name: 'DoesNotExist', selector: { matchExpressions: [{ key: 'server', operator: 'DoesNotExist' }] }, match: false },
];

for (const c of cases) {
  test(`selector: ${c.name}`, () => {
    assert.equal(compileSelector(c.selector)(labels), c.match);
  });
}

const bad: { name: string; selector: LabelSelector; message: RegExp }[] = [
  { name: 'rejects a key that is not a qualified name (path[0])', selector: { matchLabels: { 'path[0]': 'a' } }, message: /Invalid value: "path\[0\]"/ },
  { name: 'rejects an unknown operator', selector: { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }, message: /"Equals" is not a valid label selector operator/ },
  { name: 'rejects In without values', selector: { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, message: /values set can't be empty/ },
  { name: 'rejects Exists with values', selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, message: /values set must be empty/ },
];

for (const c of bad) {
  test(`selector: ${c.name}`, () => {
    assert.throws(() => compileSelector(c.selector), (e: unknown) => e instanceof ApplicationSetError && c.message.test(e.message));
  });
}
