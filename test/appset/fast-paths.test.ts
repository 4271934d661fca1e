// The two fast paths of `appset` at scale (ADR 0165): cluster Secrets parsed without positions,
// and Applications encoded to bytes as they are printed. Each must give exactly what the exact
// path gives: the same Secrets or the same error at the same place, the same bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseClusterSecrets, parseClusterSecretsWithPositions } from '../../src/appset/load.js';
import { formatApplicationBytes, formatApplications } from '../../src/appset/format.js';
import type { GeneratedApplication } from '../../src/appset/applications.js';

const secret = (name: string, extra = '') =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: argocd\n  labels:\n    argocd.argoproj.io/secret-type: cluster\n    env: prod\n${extra}type: Opaque\nstringData:\n  name: ${name}\n  server: https://${name}.example.com:6443\n  config: '{}'\n`;

const CASES: Record<string, string> = {
  'a stream of Secrets': `---\n${secret('a')}---\n${secret('b')}`,
  'base64 data': `${secret('a')}data:\n  token: aGVsbG8gd29ybGQ=\n`,
  'bad base64': `${secret('a')}data:\n  token: '%%%'\n`,
  'a List': `apiVersion: v1\nkind: List\nitems:\n  - ${secret('a').replaceAll('\n', '\n    ').trimEnd()}\n`,
  'empty documents and comments': `# nothing\n---\n---\n${secret('a')}---\n# end\n`,
  'a number where a string is expected': `${secret('a')}`.replace('env: prod', 'env: 5'),
  'a number YAML 1.2 reads and js-yaml does not (+.5)': `${secret('a')}`.replace('env: prod', 'env: +.5'),
  'an underscore number (js-yaml only)': `${secret('a')}`.replace('env: prod', 'env: 1_000'),
  'a quoted number-like string': `${secret('a')}`.replace('env: prod', "env: '10.0.0.1'"),
  'a boolean': `${secret('a')}`.replace('env: prod', 'env: true'),
  'a quoted boolean': `${secret('a')}`.replace('env: prod', 'env: "true"'),
  'null': `${secret('a')}`.replace('env: prod', 'env: null'),
  'anchors and aliases': `${secret('a')}`.replace('env: prod', 'env: &e prod\n    tier: *e'),
  'a duplicate key': `${secret('a')}`.replace('env: prod', 'env: prod\n    env: dev'),
  'a syntax error': `${secret('a')}  bad: [\n`,
  'not a Secret': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n`,
  'a scalar document': 'just text\n',
  'a non-ASCII value': `${secret('a')}`.replace('env: prod', 'env: prød-ü'),
};

const outcome = (f: () => unknown): unknown => {
  try {
    return { ok: f() };
  } catch (e) {
    const err = e as Error & { location?: unknown; hint?: string; code?: string };
    return { error: err.message, location: err.location, hint: err.hint, code: err.code };
  }
};

test('cluster Secrets parsed without positions are the ones the positioned parser gives, errors at the same place', () => {
  for (const [name, text] of Object.entries(CASES)) {
    assert.deepEqual(outcome(() => parseClusterSecrets(text, 'clusters.yaml')), outcome(() => parseClusterSecretsWithPositions(text, 'clusters.yaml')), name);
  }
});

test('Applications encoded as they are printed are the bytes of the printed text (YAML, JSON, explain, non-ASCII, several pieces)', () => {
  const apps: GeneratedApplication[] = [];
  for (let i = 0; i < 6000; i++) {
    apps.push({
      application: {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: `app-${String(6000 - i).padStart(4, '0')}`, namespace: 'argocd', annotations: { note: i % 7 === 0 ? 'ünïcødé ✓ 𝄞' : 'x'.repeat(i % 300) } },
        spec: { project: 'default', source: { repoURL: 'https://git.example.com/r.git', path: `p/${i}` }, destination: { server: 'https://kubernetes.default.svc' } },
      },
      generator: 'list',
      params: { i: String(i) },
    } as unknown as GeneratedApplication);
  }
  for (const options of [{ output: 'yaml', explain: false }, { output: 'yaml', explain: true }, { output: 'json', explain: false }] as const) {
    const pieces = [...formatApplicationBytes(apps, options)];
    const bytes = Buffer.concat(pieces);
    assert.ok(bytes.equals(Buffer.from(formatApplications(apps, options), 'utf8')), `${options.output}${options.explain ? ' explain' : ''}`);
    if (options.output === 'yaml') assert.ok(pieces.length > 1, 'written in several pieces');
  }
  assert.equal([...formatApplicationBytes([], { output: 'yaml', explain: false })].length, 0);
});
