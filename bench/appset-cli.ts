/**
 * The ApplicationSet benchmark through the command line, YAML in and out, as a user runs it:
 *   fleetplan appset appset.yaml --clusters clusters.yaml --repo REPO -o yaml > apps.yaml
 * 1,000 cluster Secrets × 100 git directories (a real git repository, revision `main`) through a
 * matrix: 100,000 Applications. Baseline: ./appset-script.ts, the plain script a user would write
 * for this ApplicationSet (same inputs, same output bytes, checked). Both run as child processes,
 * interleaved; wall time from spawn to exit (node start-up included) and peak RSS of the child.
 * Goal: under 1 s and 500 MB.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { benchAppSet, benchClusters } from './appset.js';
import { runNodeChild } from './child.js';
import type { Spread } from './stats.js';
import { fmtMs, fmtRatio, fmtTimes, interleave, loadLine, pairedRatios, spread } from './stats.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./appset-script.js', import.meta.url));

/** Writes appset.yaml, clusters.yaml and a git repository with `directories` component directories. */
export function writeAppsetInputs(dir: string, clusters: number, directories: number): void {
  const appSet = benchAppSet(true);
  writeFileSync(join(dir, 'appset.yaml'), dump({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: appSet.metadata, spec: appSet.spec }, { lineWidth: -1 }));
  const secrets = benchClusters(clusters).map((s) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: s.name, namespace: s.namespace, labels: s.labels, annotations: s.annotations },
    type: 'Opaque',
    stringData: s.data,
  }));
  writeFileSync(join(dir, 'clusters.yaml'), secrets.map((s) => `---\n${dump(s, { lineWidth: -1 })}`).join(''));
  const repo = join(dir, 'repo');
  for (let d = 0; d < directories; d++) {
    const comp = join(repo, 'argocd/config', `component-${String(d).padStart(3, '0')}`);
    mkdirSync(comp, { recursive: true });
    writeFileSync(join(comp, 'values.yaml'), 'replicas: 1\n');
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'components');
}

export async function benchAppsetCli(options: { clusters?: number; directories?: number; runs?: number } = {}): Promise<void> {
  const clusters = options.clusters ?? 1000;
  const directories = options.directories ?? 100;
  const runs = Math.max(3, options.runs ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-bench-appset-'));
  try {
    writeAppsetInputs(dir, clusters, directories);
    const cliOut = join(dir, 'cli.yaml');
    const scriptOut = join(dir, 'script.yaml');
    const cliArgs = ['appset', join(dir, 'appset.yaml'), '--clusters', join(dir, 'clusters.yaml'), '--repo', join(dir, 'repo'), '-o', 'yaml'];
    const scriptArgs = [join(dir, 'clusters.yaml'), join(dir, 'repo')];
    console.log(`${clusters} cluster Secrets × ${directories} git directories = ${clusters * directories} Applications, YAML in and out; ${runs} interleaved runs; ${loadLine()}`);
    const r = await interleave(runs, {
      cli: () => runNodeChild(CLI, cliArgs, { stdoutFile: cliOut }),
      script: () => runNodeChild(SCRIPT, scriptArgs, { stdoutFile: scriptOut }),
    });
    const same = readFileSync(cliOut).equals(readFileSync(scriptOut));
    const docs = (readFileSync(cliOut, 'utf8').match(/^---$/gm) ?? []).length;
    const cli = spread(r['cli']!.map((x) => x.ms));
    const cliRss = spread(r['cli']!.map((x) => x.maxRssMB));
    const script = spread(r['script']!.map((x) => x.ms));
    const scriptRss = spread(r['script']!.map((x) => x.maxRssMB));
    const mb = (s: Spread) => `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)} MB`;
    const cpu = (k: string) => fmtTimes(spread(r[k]!.map((x) => x.cpuMs)));
    console.log(`  ${'(min / median / max)'.padEnd(36)} ${'wall'.padEnd(26)} ${'cpu'.padEnd(26)} peak RSS`);
    console.log(`  ${'fleetplan appset (CLI)'.padEnd(36)} ${fmtTimes(cli).padEnd(26)} ${cpu('cli').padEnd(26)} ${mb(cliRss)}`);
    console.log(`  ${'baseline: a plain script (js-yaml)'.padEnd(36)} ${fmtTimes(script).padEnd(26)} ${cpu('script').padEnd(26)} ${mb(scriptRss)}`);
    console.log(`  ratio fleetplan / script, per round: time ${fmtRatio(pairedRatios(r['cli']!.map((x) => x.ms), r['script']!.map((x) => x.ms)))}, peak RSS ${fmtRatio(pairedRatios(r['cli']!.map((x) => x.maxRssMB), r['script']!.map((x) => x.maxRssMB)))}`);
    console.log(`  output: ${docs} Applications; ${same ? 'the same bytes as the script' : 'DIFFERENT BYTES from the script'}`);
    const met = cli.median < 1000 && cliRss.max < 500;
    console.log(`  goal: under 1 s and 500 MB — ${met ? 'met' : 'NOT met'} (median ${fmtMs(cli.median)}, highest peak ${cliRss.max.toFixed(0)} MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
