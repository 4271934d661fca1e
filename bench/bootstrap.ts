/**
 * Issue 6's measurement: how long `fleetplan bootstrap --cluster hub` of the lab fleet takes
 * against the Kubernetes API test server whose controllers act with realistic (scaled-down)
 * delays, and how many API requests it makes per object — the goal being watches, not polling:
 * at most a few requests per object whatever the delays. A second, idempotent run is measured
 * too. The time is dominated by the controllers' delays; the request counts are the figure that
 * carries over to a real cluster.
 */
import { performance } from 'node:perf_hooks';
import { runCli } from '../src/cli/run.js';
import { LAB, REALISTIC_DELAYS, simulatedCluster } from '../test/support/bootstrap-cluster.js';
import type { RequestLogEntry } from '../test/support/kube-server/index.js';

export interface BootstrapRunFigures {
  ms: number;
  requests: number;
  byVerb: Record<string, number>;
  /** Objects fleetplan applied plus objects it waited on. */
  objects: number;
  requestsPerObject: number;
  stages: Array<{ stage: string; durationMs: number }>;
}

export interface BootstrapBenchResult {
  delays: Record<string, number>;
  first: BootstrapRunFigures;
  second: BootstrapRunFigures;
  /** A first run with every delay tripled: with watches the request count stays the same. */
  slower: BootstrapRunFigures;
}

async function runOnce(kubeconfig: string, home: string, log: RequestLogEntry[]): Promise<BootstrapRunFigures> {
  const from = log.length;
  let out = '';
  const t0 = performance.now();
  const code = await runCli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--timeout', '5m', '-o', 'json'], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
    env: { KUBECONFIG: kubeconfig, HOME: home },
    cwd: process.cwd(),
  });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`bootstrap failed (${code}):\n${out.slice(-2000)}`);
  const events = out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; ref?: string; result?: { changes: unknown[]; timings: Array<{ stage: string; durationMs: number }> } });
  const done = events.find((e) => e.type === 'done')!.result!;
  const awaited = new Set(events.filter((e) => e.type === 'ready' || e.type === 'change').map((e) => e.ref));
  const requests = log.slice(from);
  const byVerb: Record<string, number> = {};
  for (const r of requests) byVerb[r.verb] = (byVerb[r.verb] ?? 0) + 1;
  return {
    ms,
    requests: requests.length,
    byVerb,
    objects: awaited.size,
    requestsPerObject: requests.length / awaited.size,
    stages: done.timings,
  };
}

export async function benchBootstrap(options: { print?: boolean } = {}): Promise<BootstrapBenchResult> {
  const delays = { ...REALISTIC_DELAYS } as Record<string, number>;
  const c = await simulatedCluster({ controllers: { delays } });
  let first: BootstrapRunFigures;
  let second: BootstrapRunFigures;
  try {
    first = await runOnce(c.kubeconfig, c.dir, c.server.log);
    second = await runOnce(c.kubeconfig, c.dir, c.server.log);
  } finally {
    await c.close();
  }
  const tripled = Object.fromEntries(Object.entries(delays).map(([k, v]) => [k, v * 3]));
  const slow = await simulatedCluster({ controllers: { delays: tripled } });
  let slower: BootstrapRunFigures;
  try {
    slower = await runOnce(slow.kubeconfig, slow.dir, slow.server.log);
  } finally {
    await slow.close();
  }
  const result = { delays, first, second, slower };
  if (options.print !== false) printResult(result);
  return result;
}

function printResult(r: BootstrapBenchResult): void {
  const d = Object.entries(r.delays).map(([k, v]) => `${k} ${v}ms`).join(', ');
  console.log(`lab hub bootstrap against the test server; controller delays: ${d}`);
  for (const [name, f] of [['first run', r.first], ['second run (idempotent)', r.second], ['first run, every delay ×3', r.slower]] as const) {
    const verbs = Object.entries(f.byVerb).sort(([a], [b]) => a.localeCompare(b)).map(([v, n]) => `${v} ${n}`).join(', ');
    console.log(`  ${name}: ${(f.ms / 1000).toFixed(2)} s, ${f.requests} API requests for ${f.objects} objects = ${f.requestsPerObject.toFixed(2)} per object (${verbs})`);
  }
  console.log(`  stages (first run): ${r.first.stages.map((s) => `${s.stage} ${s.durationMs}ms`).join(', ')}`);
}
