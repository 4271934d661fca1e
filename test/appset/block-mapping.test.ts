// parseClusterSecrets, which tries the subset reader first (src/yaml/subset.ts, its stream /
// strings contract; ADRs 0326, 0349), gives exactly what the positioned path gives — the same
// Secrets or the same error at the same place — over generated Secret streams. The reader itself
// is tested against both core parsers in test/yaml/subset.test.ts. The generator is seeded, so a
// failure names a case that can be replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRING_STREAM, readYamlSubset } from '../../src/yaml/subset.js';
import { parseClusterSecrets, parseClusterSecretsWithPositions } from '../../src/appset/load.js';
import { sortApplications } from '../../src/appset/format.js';
import type { GeneratedApplication } from '../../src/appset/applications.js';
import { seededRandom } from '../support/random.js';
import { KEYS, VALUES, pick, scalar } from '../support/yaml-subset-cases.js';

const prng = seededRandom;


const SECRET_FIELDS = ['namespace', 'labels', 'annotations', 'type', 'data', 'stringData'] as const;

function secretStream(r: () => number): string {
  const docs: string[] = [];
  const n = 1 + Math.floor(r() * 3);
  for (let d = 0; d < n; d++) {
    const lines = ['apiVersion: v1', r() < 0.97 ? 'kind: Secret' : pick(r, ['kind: ConfigMap', "kind: 'Secret'", 'kind: "Secret"']), 'metadata:', `  name: ${scalar(r, r() < 0.9 ? `cluster-${d}` : pick(r, VALUES))}`];
    for (const f of SECRET_FIELDS) {
      if (r() < 0.3) continue;
      if (f === 'namespace') lines.push(`  namespace: ${r() < 0.9 ? 'argocd' : scalar(r, pick(r, VALUES))}`);
      else if (f === 'type') lines.push('type: Opaque');
      else {
        const top = f === 'labels' || f === 'annotations';
        lines.push(`${top ? '  ' : ''}${f}:`);
        const pad = top ? '    ' : '  ';
        const m = 1 + Math.floor(r() * 3);
        for (let i = 0; i < m; i++) {
          const key = f === 'labels' && i === 0 && r() < 0.8 ? 'argocd.argoproj.io/secret-type' : pick(r, KEYS.slice(0, 9));
          let v = key === 'argocd.argoproj.io/secret-type' ? 'cluster' : r() < 0.8 ? pick(r, VALUES.slice(0, 20)) : pick(r, VALUES);
          if (f === 'data') v = r() < 0.85 ? Buffer.from(v).toString('base64') : v;
          lines.push(`${pad}${key}: ${scalar(r, v)}${r() < 0.1 ? ' # c' : ''}`);
        }
      }
    }
    docs.push(lines.join('\n'));
  }
  return `---\n${docs.join('\n---\n')}\n`;
}

const outcome = (f: () => unknown): unknown => {
  try {
    return { ok: f() };
  } catch (e) {
    const err = e as Error & { location?: unknown; hint?: string; code?: string };
    return { error: err.message, location: err.location, hint: err.hint, code: err.code };
  }
};

test('cluster Secrets read through the subset reader are the positioned path\'s Secrets or its error, over 2,000 generated streams', () => {
  const r = prng(0xc1a55);
  let answered = 0;
  for (let c = 0; c < 2000; c++) {
    const text = secretStream(r);
    if (readYamlSubset(text, STRING_STREAM) !== undefined) answered++;
    assert.deepStrictEqual(outcome(() => parseClusterSecrets(text, 'clusters.yaml')), outcome(() => parseClusterSecretsWithPositions(text, 'clusters.yaml')), `case ${c}: ${JSON.stringify(text)}`);
  }
  assert.ok(answered > 300, `answered ${answered}`);
});

/** Secrets in shapes the subset reads since it became one grammar (ADR 0349): sequences, flow lists, `{}`, comments, surrogates. */
const SHAPES: { name: string; text: string }[] = [
  { name: 'a List of Secrets', text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: a\n    labels:\n      argocd.argoproj.io/secret-type: cluster\n  stringData:\n    name: a\n    server: https://a\n' },
  { name: 'a label holding a flow list', text: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  labels:\n    argocd.argoproj.io/secret-type: cluster\n    env: [a, b]\nstringData:\n  name: a\n  server: https://a\n' },
  { name: 'empty annotations and a comment after a value', text: 'apiVersion: v1\nkind: Secret # c\nmetadata:\n  name: a\n  annotations: {}\n  labels:\n    argocd.argoproj.io/secret-type: cluster\nstringData:\n  name: a\n  server: https://a\n' },
  { name: 'a value with a lone surrogate', text: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  labels:\n    argocd.argoproj.io/secret-type: cluster\n    env: x\ud800\nstringData:\n  name: a\n  server: https://a\n' },
];

for (const c of SHAPES) {
  test(`cluster Secrets: ${c.name} gives the positioned path's Secrets or its error`, () => {
    assert.deepStrictEqual(outcome(() => parseClusterSecrets(c.text, 'clusters.yaml')), outcome(() => parseClusterSecretsWithPositions(c.text, 'clusters.yaml')));
  });
}

test('sortApplications orders by name, then generation order, as a stable sort of the Applications by name does', () => {
  const r = prng(0x50f7);
  const apps = Array.from({ length: 5000 }, (_, i) => ({ application: { metadata: { name: `app-${Math.floor(r() * 700)}${r() < 0.1 ? 'ü' : ''}` } }, params: {}, generator: `g${i}` }) as unknown as GeneratedApplication);
  const reference = [...apps].sort((x, y) => {
    const a = x.application.metadata.name!;
    const b = y.application.metadata.name!;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  assert.deepStrictEqual(sortApplications(apps).map((a) => a.generator), reference.map((a) => a.generator));
});
