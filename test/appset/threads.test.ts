// `fleetplan appset` in two shares (ADR 0346): the main thread makes the first share of the
// Applications, a worker the second, and the merge prints what the single-threaded path prints —
// the same bytes in the same order, the same rejected Applications (duplicates across and within
// the shares, names left empty) in the same order, the same errors and exit codes. Checked on
// generated ApplicationSets (list and matrix generators, flat and goTemplate, repeated and empty
// names, ties, render errors in either share), through the command line with the worker on and
// off, and through the API with every split.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run.js';
import { runApplicationSets, runApplicationSetShared, readClusterSecrets } from '../../src/api/appset.js';
import { firstShare, secondShare, mergeShares, printShare } from '../../src/api/appset-share.js';
import { loadApplicationSet } from '../../src/appset/load.js';
import { formatApplicationBytes } from '../../src/appset/format.js';
import { seededRandom } from '../support/random.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-appset-threads-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Output {
  code: number;
  stdout: Buffer;
  stderr: string;
}

async function cli(args: string[], worker: 'on' | 'off'): Promise<Output> {
  const out: Buffer[] = [];
  let text = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (text += s) },
    stdoutBytes: (chunk: Uint8Array) => void out.push(Buffer.from(chunk)),
    stderr: { write: (s: string) => (stderr += s) },
    env: { FLEETPLAN_APPSET_WORKER: worker },
    cwd: tmp,
  });
  return { code, stdout: Buffer.concat([...out, Buffer.from(text, 'utf8')]), stderr };
}

/** The pieces as a writer sees them: each copied before the next is asked for. */
function written(pieces: Iterable<Uint8Array>): Buffer {
  const out: Buffer[] = [];
  for (const p of pieces) out.push(Buffer.from(p));
  return Buffer.concat(out);
}

const NAMES = ['a', 'b', 'ab', 'a-b', 'b-a', 'zz', 'Z', '', 'ünï', 'a.b'];
const SUFFIXES = ['x', 'y', '', '1', '10', '2'];

/** A generated ApplicationSet file (JSON is YAML) and cluster Secrets. */
function makeCase(seed: number): { appset: string; clusters: string; withError: boolean } {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const go = r() < 0.6;
  const withError = go && r() < 0.25;
  const element = (): Record<string, string> => ({ name: pick(NAMES), suffix: pick(SUFFIXES), env: pick(['dev', 'prod', 'a: b', '#x']) });
  const list = (n: number) => {
    const elements = Array.from({ length: n }, element);
    // A missing key (missingkey=error): a render error at a random position, in either share.
    if (withError && r() < 0.5) delete (elements[Math.floor(r() * n)] as Record<string, string>)['env'];
    return { list: { elements } };
  };
  const generators: unknown[] = [];
  const count = 1 + Math.floor(r() * 3);
  for (let g = 0; g < count; g++) {
    const kind = r();
    if (kind < 0.4) generators.push(list(Math.floor(r() * 40)));
    else if (kind < 0.7 && go) {
      generators.push({ matrix: { generators: [list(1 + Math.floor(r() * 6)), { list: { elements: Array.from({ length: 1 + Math.floor(r() * 6) }, () => ({ part: pick(SUFFIXES) })) } }] } });
    } else generators.push({ clusters: { selector: { matchLabels: { tier: pick(['one', 'two', 'none']) } } } });
  }
  const t = (flat: string, gt: string) => (go ? gt : flat);
  const template = {
    metadata: { name: r() < 0.15 ? 'same' : t('{{name}}{{suffix}}', '{{ .name }}{{ .suffix }}'), labels: { env: t('{{env}}', '{{ .env }}') } },
    spec: { project: 'default', source: { repoURL: 'https://example.com/r.git', path: t('apps/{{name}}', 'apps/{{ .name }}') }, destination: { server: t('{{server}}', '{{ .server }}'), namespace: 'x' } },
  };
  const appset = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: `set-${seed}`, namespace: 'argocd' },
    spec: { goTemplate: go, ...(withError ? { goTemplateOptions: ['missingkey=error'] } : {}), generators, template },
  };
  const secrets = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) =>
    [
      '---',
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      `  name: c${i}`,
      '  labels:',
      '    argocd.argoproj.io/secret-type: cluster',
      `    tier: ${pick(['one', 'two'])}`,
      'stringData:',
      `  name: ${JSON.stringify(pick(NAMES.filter((n) => n !== '')))}`,
      `  server: https://c${i}.example.com`,
      `  env: ${pick(['dev', 'prod'])}`,
      `  suffix: ${JSON.stringify(pick(SUFFIXES))}`,
      '',
    ].join('\n'),
  ).join('');
  return { appset: JSON.stringify(appset, null, 1), clusters: secrets, withError };
}

test('the command line prints the same bytes, rejections, errors and exit code with the worker as without', async () => {
  let errors = 0;
  let rejections = 0;
  for (let seed = 1; seed <= 14; seed++) {
    const c = makeCase(seed);
    writeFileSync(join(tmp, `appset-${seed}.yaml`), c.appset);
    writeFileSync(join(tmp, `clusters-${seed}.yaml`), c.clusters);
    for (const extra of [[], ['--explain']]) {
      const args = ['appset', `appset-${seed}.yaml`, '--clusters', `clusters-${seed}.yaml`, '--repo', tmp, ...extra];
      const single = await cli(args, 'off');
      const shared = await cli(args, 'on');
      assert.equal(shared.stderr, single.stderr, `seed ${seed} ${extra.join(' ')}: stderr`);
      assert.equal(shared.code, single.code, `seed ${seed}: exit code`);
      assert.ok(shared.stdout.equals(single.stdout), `seed ${seed} ${extra.join(' ')}: stdout differs`);
      if (single.code !== 0 && single.stdout.length === 0 && !single.stderr.includes('selects none')) errors++;
      if (single.stderr.includes('duplicate name') || single.stderr.includes('no name')) rejections++;
    }
  }
  // Neither side vacuous: some cases fail, some reject Applications.
  assert.ok(errors >= 2, `only ${errors} error runs`);
  assert.ok(rejections >= 6, `only ${rejections} runs with rejections`);
});

test('every split of the Applications merges into the single-threaded bytes and rejections', async () => {
  let compared = 0;
  let declined = 0;
  for (let seed = 100; seed < 220; seed++) {
    const c = makeCase(seed);
    const secrets = readClusterSecrets(c.clusters, 'clusters.yaml').secrets;
    const setup = { repoDir: tmp };
    let single;
    try {
      single = await runApplicationSets(c.appset, 'appset.yaml', { clusterSecrets: secrets, ...setup });
    } catch {
      single = undefined;
    }
    const expected = single && Buffer.concat([...formatApplicationBytes(single.applications, { output: 'yaml', explain: true })].map((b) => Buffer.from(b)));
    for (const fraction of [0, 0.25, 0.5, 0.61, 1]) {
      const run = await runApplicationSetShared({ text: c.appset, file: 'appset.yaml', setup, explain: true, fraction, least: 0 }, secrets, undefined);
      if (single === undefined) {
        // An error: the shared run declines, and the command line runs the single-threaded path.
        assert.equal(run, undefined, `seed ${seed}: an error must decline the shared run`);
        declined++;
        continue;
      }
      assert.ok(run, `seed ${seed} fraction ${fraction}: declined without an error`);
      assert.deepEqual(run.rejected, single.rejected, `seed ${seed} fraction ${fraction}: rejected`);
      assert.equal(run.count, single.applications.length);
      assert.ok(written(run.pieces).equals(expected!), `seed ${seed} fraction ${fraction}: bytes differ`);
      compared++;
    }
  }
  assert.ok(compared > 300 && declined > 20, `compared ${compared}, declined ${declined}`);
});

test('the two shares cover every Application once, at any total', () => {
  for (const total of [0, 1, 2, 3, 7, 10, 99, 100_001]) {
    for (const fraction of [0, 0.3, 0.5, 1]) {
      const a = firstShare(fraction, 0)(total);
      const b = secondShare(fraction, 0)(total);
      assert.equal(a.from, 0);
      assert.equal(a.to, b.from);
      assert.equal(b.to, total);
    }
    // Below the threshold the first share is everything.
    assert.deepEqual(firstShare(0.5, 10)(total), { from: 0, to: total < 10 ? total : Math.round(total / 2) });
  }
});

test('names repeated across the shares: the first in generation order is kept, later ones rejected in order', async () => {
  const appset = JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'dups', namespace: 'argocd' },
    spec: {
      generators: [{ list: { elements: ['m', 'a', 'z', 'a', '', 'm', 'b', 'z', ''].map((n, i) => ({ n, i: String(i) })) } }],
      template: { metadata: { name: '{{n}}', labels: { i: '{{i}}' } }, spec: { project: 'default' } },
    },
  });
  const [one] = loadApplicationSet(appset, 'dups.yaml');
  const setup = { repoDir: tmp };
  const first = await printShare(one!, [], setup, () => ({ from: 0, to: 4 }), false);
  const second = await printShare(one!, [], setup, () => ({ from: 4, to: 9 }), false);
  const merged = mergeShares('dups', [first, second], false);
  assert.deepEqual(
    merged.rejected.map((x) => (x.message.includes('no name') ? 'no name' : x.message.split(': ').pop())),
    ['a', 'no name', 'm', 'z', ''],
  );
  const text = written(merged.pieces).toString('utf8');
  // Kept: m (0), a (1), z (2), b (6), by name; each with the label of its first position.
  assert.deepEqual([...text.matchAll(/i: ['"]?(\d)/g)].map((m) => m[1]), ['1', '6', '0', '2']);
  assert.equal(merged.count, 4);
});
