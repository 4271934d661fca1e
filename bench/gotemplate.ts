/**
 * Template execution throughput on seed 004's ApplicationSet templates: fleetplan's engine against
 * Go's text/template + sprig on the same templates and parameter sets (a small Go program built
 * from Debian's golang-1.19-go and golang-github-masterminds-sprig-dev in GOPATH mode). Without Go
 * the comparison is skipped and only fleetplan's figures are printed.
 *
 *   node dist/bench/gotemplate.js [--iterations N]
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileGoTemplate } from '../src/gotemplate/index.js';
import { buildGoProgram } from './go-build.js';

/** Every templated string of seed 004's root ApplicationSet (generator, sources, values paths). */
export const SEED_004_TEMPLATES = [
  'argocd/config/{{ .metadata.labels.cluster_type }}/*',
  '{{ .metadata.annotations.git_repo }}',
  '{{ .metadata.annotations.git_revision }}',
  '{{ .path.path }}',
  '$values/deploy/{{ .metadata.labels.environment }}/{{ .metadata.labels.region_alias }}/argocd/{{ .metadata.labels.cluster_type }}-values.yaml',
  '{{ .metadata.annotations.git_repo | replace "github.com" "github.com:443" }}',
  '{{ .path.basename }}-{{ .metadata.labels.region_alias }}',
  '{{ .name }}',
  '{{ .server }}',
];

/** Parameter sets as the matrix of the cluster generator and the git directory generator yields them. */
export function seed004Params(clusters: number, directories: number): Record<string, unknown>[] {
  const envs = ['integration', 'staging', 'production'];
  const out: Record<string, unknown>[] = [];
  for (let c = 0; c < clusters; c++) {
    const env = envs[c % envs.length]!;
    const region = c % 2 === 0 ? 'eu-west-1' : 'us-east-1';
    for (let d = 0; d < directories; d++) {
      const type = c % 4 === 0 ? 'regional-cluster' : 'management-cluster';
      const basename = `app-${d}`;
      out.push({
        name: `${type}-${c}`,
        nameNormalized: `${type}-${c}`,
        server: `https://kubernetes.default.svc`,
        metadata: {
          labels: {
            'argocd.argoproj.io/secret-type': 'cluster',
            cluster_type: type,
            environment: env,
            region_alias: `${region}-${c}`,
            aws_region: region,
          },
          annotations: {
            git_repo: 'https://github.com/openshift-online/rosa-regional-platform',
            git_revision: env === 'integration' ? 'main' : '4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
          },
        },
        path: {
          path: `argocd/config/${type}/${basename}`,
          basename,
          basenameNormalized: basename,
          segments: ['argocd', 'config', type, basename],
        },
      });
    }
  }
  return out;
}

export interface ThroughputResult {
  engine: string;
  executions: number;
  seconds: number;
  perSecond: number;
}

export function benchFleetplan(params: Record<string, unknown>[], iterations: number): ThroughputResult {
  const tmpls = SEED_004_TEMPLATES.map((t) => compileGoTemplate(t, { missingkey: 'error' }));
  // Warm up the JIT the way a long-running evaluator would be.
  for (const p of params.slice(0, 200)) for (const t of tmpls) t.execute(p);
  let executions = 0;
  let bytes = 0;
  const start = performance.now();
  for (let it = 0; it < iterations; it++) {
    for (const p of params) {
      for (const t of tmpls) {
        bytes += t.execute(p).length;
        executions++;
      }
    }
  }
  const seconds = (performance.now() - start) / 1000;
  if (bytes === 0) throw new Error('no output');
  return { engine: 'fleetplan', executions, seconds, perSecond: executions / seconds };
}

export function benchGo(params: Record<string, unknown>[], iterations: number): ThroughputResult | string {
  const built = buildGoProgram(join('bench', 'go-gotemplate'));
  if (typeof built === 'string') return built;
  try {
    const input = JSON.stringify({ templates: SEED_004_TEMPLATES, params, iterations });
    const out = execFileSync(built.bin, [], { input, encoding: 'utf8', maxBuffer: 1 << 20 });
    const r = JSON.parse(out) as { executions: number; nanoseconds: number };
    const seconds = r.nanoseconds / 1e9;
    return { engine: 'go text/template', executions: r.executions, seconds, perSecond: r.executions / seconds };
  } finally {
    built.cleanup();
  }
}

export function runGotemplateBench(iterations = 20): string[] {
  const params = seed004Params(100, 20);
  const lines: string[] = [];
  const ours = benchFleetplan(params, iterations);
  const fmt = (r: ThroughputResult): string =>
    `${r.engine.padEnd(18)} ${r.executions} executions in ${r.seconds.toFixed(3)} s = ${Math.round(r.perSecond).toLocaleString('en-US')}/s`;
  lines.push(`gotemplate: seed 004 templates (${SEED_004_TEMPLATES.length}) × ${params.length} parameter sets × ${iterations}`);
  lines.push('  ' + fmt(ours));
  const go = benchGo(params, iterations);
  if (typeof go === 'string') lines.push(`  go text/template    skipped: ${go}`);
  else {
    lines.push('  ' + fmt(go));
    const ratio = ours.perSecond / go.perSecond;
    lines.push(`  fleetplan/go throughput ratio ${ratio.toFixed(2)} (goal: >= 1, no slower than Go)`);
  }
  return lines;
}

if (process.argv[1]?.endsWith('gotemplate.js')) {
  const i = process.argv.indexOf('--iterations');
  const iterations = i > 0 ? Number(process.argv[i + 1]) : 20;
  for (const line of runGotemplateBench(iterations)) process.stdout.write(line + '\n');
}
