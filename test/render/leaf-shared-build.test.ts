/**
 * The apps of one kustomize directory are rendered from one plan and one build in one pass
 * (ADR 0357). Whatever else shares the run, each app's result — files, contents, path, error and
 * its message — is what a run of that app alone gives; the statistics and `cached` flags say one
 * build and hits for the rest; progress counts every app once; a closed gate fails every app.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { createSourceReader } from '../../src/adapters/source-reader.js';
import { createMemoryCache } from '../../src/adapters/build-cache.js';
import { ToolError } from '../../src/errors/index.js';
import type { OutputFile } from '../../src/ports/build-cache.js';
import type { KustomizeTool } from '../../src/ports/tools.js';
import type { LeafJob, LeafPorts, LeafResult } from '../../src/render/leaves/render.js';
import { renderLeafJobs } from '../../src/render/leaves/render.js';
import { seededRandom } from '../support/random.js';

const KUS = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n';
/** What the fake kustomize "builds" per directory (by its last path segment). */
const BUILT: Record<string, string> = {
  plain: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  namespace: ${NS}\ndata:\n  region: ${REGION}\n',
  two: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: ${REGION:-none}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: ${NS}-s\nstringData:\n  k: v\n',
  constant: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: fixed\n',
  // The general path (a variable inside a quoted scalar): no template.
  quoted: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: q\ndata:\n  v: "${REGION} x"\n',
  empty: '',
};

function fixture(): string {
  const files: Record<string, string> = {};
  for (const d of [...Object.keys(BUILT), 'broken']) {
    files[`c/${d}/kustomization.yaml`] = KUS;
    files[`c/${d}/cm.yaml`] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';
  }
  return writeTree(files);
}

function fakeKustomize(calls: string[]): KustomizeTool {
  return {
    binary: '/fake/kustomize',
    flavor: 'kustomize',
    version: '5.6.0',
    async build(dir: string) {
      calls.push(dir);
      await new Promise((r) => setImmediate(r));
      const name = dir.split('/').pop()!;
      if (name === 'broken') throw new ToolError('Error: accumulating resources: missing.yaml: no such file', { code: 'build-failed' });
      return BUILT[name]!;
    },
  };
}

interface Written {
  dirs: Map<string, OutputFile[]>;
  failOn?: string;
}

function portsFor(root: string, calls: string[], written: Written, writeReady?: Promise<boolean>): LeafPorts {
  const fail = () => Promise.reject(new ToolError('not used', { code: 'tool-missing' }));
  return {
    reader: createSourceReader(root),
    kustomize: () => Promise.resolve(fakeKustomize(calls)),
    helm: fail,
    cache: createMemoryCache(),
    writer: {
      replaceDirectory(relDir, files) {
        if (relDir === written.failOn) throw new Error(`cannot write ${relDir}`);
        written.dirs.set(relDir, [...files]);
      },
    },
    ...(writeReady ? { writeReady } : {}),
  };
}

/** A result without what depends on the rest of the run (whether a build ran for it). */
const own = (r: LeafResult) => ({ ...r, cached: undefined, error: r.error && { name: r.error.name, code: r.error.code, message: r.error.message, location: r.error.location, hint: r.error.hint } });

function jobsOf(seed: number, count: number): LeafJob[] {
  const next = seededRandom(seed);
  const dirs = [...Object.keys(BUILT), 'broken', 'missing'];
  const values = ['eu-1', '010', 'a: b', 'x', '', 'true', 'plain value'];
  return Array.from({ length: count }, (_, i) => {
    const dir = dirs[Math.floor(next() * dirs.length)]!;
    const vars: Record<string, string> = { NS: `ns${i % 3}` };
    if (next() < 0.8) vars['REGION'] = values[Math.floor(next() * values.length)]!;
    // Now and then a name that cannot be a directory, or no substitution at all.
    const app = next() < 0.05 ? 'bad/name' : `app${i}`;
    return { cluster: next() < 0.03 ? '../up' : `c${i % 4}`, app, source: { kind: 'kustomize', path: `c/${dir}` }, variables: next() < 0.1 ? undefined : vars };
  });
}

test('the apps of one kustomize directory: each result as in a run of that app alone, one build per directory', async () => {
  const root = fixture();
  try {
    for (const seed of [1, 2]) {
      const jobs = jobsOf(seed, 80);
      const calls: string[] = [];
      const written: Written = { dirs: new Map() };
      const progress: number[] = [];
      const run = await renderLeafJobs(jobs, portsFor(root, calls, written), { repoRoot: root, onProgress: (done, total) => (assert.equal(total, jobs.length), progress.push(done)) });
      assert.deepEqual(progress, jobs.map((_, i) => i + 1), 'every app reported once');
      // One build per directory that a well-named app reached (a missing directory is never built);
      // every other app that reached it is a hit, and only the first is not `cached`.
      const reached = jobs.map((j, i) => ({ j, i })).filter(({ j }) => j.app !== 'bad/name' && j.cluster !== '../up' && j.source.kind === 'kustomize' && j.source.path !== 'c/missing');
      const firstOf = new Map<string, number>();
      for (const { j, i } of reached) if (j.source.kind === 'kustomize' && !firstOf.has(j.source.path)) firstOf.set(j.source.path, i);
      assert.equal(calls.length, firstOf.size, `seed ${seed}: builds`);
      assert.deepEqual(run.stats, { builds: firstOf.size, misses: firstOf.size, hits: reached.length - firstOf.size, uncacheable: 0 });
      for (const [i, job] of jobs.entries()) {
        const alone = await renderLeafJobs([job], portsFor(root, [], { dirs: new Map() }), { repoRoot: root });
        assert.deepEqual(own(run.results[i]!), own(alone.results[0]!), `seed ${seed}, job ${i} (${job.app} of ${job.source.kind === 'kustomize' ? job.source.path : ''})`);
        const r = run.results[i]!;
        if (r.error === undefined) {
          assert.equal(r.cached, firstOf.get(r.path) !== i, `seed ${seed}, job ${i}: cached only after the first app of its directory`);
          const dir = r.files.length > 0 ? r.files[0]!.slice(0, r.files[0]!.lastIndexOf('/')) : `${job.cluster}/manifests/${job.app}`;
          assert.deepEqual(written.dirs.get(dir)?.map((f) => `${dir}/${f.name}`), r.files);
        }
      }
    }
  } finally {
    removeTree(root);
  }
});

test('the apps of one kustomize directory: a failed write fails that app only; a closed gate fails every app and writes nothing', async () => {
  const root = fixture();
  try {
    const jobs: LeafJob[] = ['a', 'b', 'c'].map((app) => ({ cluster: 'c1', app, source: { kind: 'kustomize', path: 'c/plain' }, variables: { NS: 'n', REGION: 'r' } }));
    const written: Written = { dirs: new Map(), failOn: 'c1/manifests/b' };
    const run = await renderLeafJobs(jobs, portsFor(root, [], written), { repoRoot: root });
    assert.deepEqual(run.results.map((r) => r.error?.message), [undefined, 'cluster c1, app b: cannot write c1/manifests/b', undefined]);
    assert.deepEqual([...written.dirs.keys()], ['c1/manifests/a', 'c1/manifests/c']);
    assert.deepEqual(run.stats, { builds: 1, hits: 2, misses: 1, uncacheable: 0 });

    const closed: Written = { dirs: new Map() };
    const stopped = await renderLeafJobs(jobs, portsFor(root, [], closed, Promise.resolve(false)), { repoRoot: root });
    assert.deepEqual(stopped.results.map((r) => r.error?.code), ['cancelled', 'cancelled', 'cancelled']);
    assert.match(stopped.results[1]!.error!.message, /^cluster c1, app b: not written: the run was stopped/);
    assert.equal(closed.dirs.size, 0);
  } finally {
    removeTree(root);
  }
});
