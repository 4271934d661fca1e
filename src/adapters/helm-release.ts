/**
 * Helm 3 releases for the helmfile bootstrap (src/model/helmfile-bootstrap.ts HelmReleasePort),
 * through the real `helm` binary: `template --include-crds` for the CRD phase, `list`/`get` for
 * what is deployed, `upgrade --install --dry-run=server` for what an upgrade would change, and
 * `upgrade --install` itself. Helm reaches the cluster through a kubeconfig of the bootstrap's own
 * context only, written 0600 into a private temporary directory that `close()` removes; the
 * child gets only the tool variables (toolEnv), never the whole environment.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveInside } from './fs.js';
import { ToolError } from '../errors/index.js';
import type { K8sObject } from '../model/k8s.js';
import type { DeployedRelease, HelmfileReleaseSpec, HelmReleasePort, ReleasePreview } from '../model/helmfile-bootstrap.js';
import { parseYamlAll } from '../yaml/index.js';
import { runProcess } from './process.js';
import { kubeconfigFiles } from './kube.js';

export interface HelmReleaseOptions {
  /** The helm binary (locateHelm). */
  binary: string;
  /** The repository root: chart and values paths are relative to it. */
  root: string;
  /** Text of a kubeconfig for the cluster (one context, its current). */
  kubeconfig: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Helm's merge of values files: maps merge key by key, anything else replaces. */
export function mergeValues(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [k, v] of Object.entries(from)) out[k] = isMap(out[k]) && isMap(v) ? mergeValues(out[k] as Record<string, unknown>, v) : v;
  return out;
}

export class ProcessHelmReleases implements HelmReleasePort {
  private readonly dir: string;
  private readonly kubeconfigPath: string;

  constructor(private readonly opts: HelmReleaseOptions) {
    this.dir = mkdtempSync(join(tmpdir(), 'fleetplan-helm-'));
    this.kubeconfigPath = join(this.dir, 'kubeconfig');
    writeFileSync(this.kubeconfigPath, opts.kubeconfig, { mode: 0o600 });
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The user values of a release: its values files and inline maps merged in order. */
  values(spec: HelmfileReleaseSpec): Record<string, unknown> {
    let out: Record<string, unknown> = {};
    for (const v of spec.values) {
      if ('inline' in v) out = mergeValues(out, v.inline);
      else {
        const doc = parseYamlAll(readFileSync(this.path(v.file), 'utf8'))[0];
        if (doc !== undefined && doc !== null && !isMap(doc)) throw new ToolError(`values file ${v.file} of release ${spec.id} is not a map`, { code: 'helm-values', hint: 'a values file holds one YAML map' });
        if (isMap(doc)) out = mergeValues(out, doc);
      }
    }
    return out;
  }

  async crds(spec: HelmfileReleaseSpec): Promise<K8sObject[]> {
    const r = await this.helm(['template', spec.name, ...this.chartArgs(spec), '--namespace', spec.namespace, '--include-crds', '--no-hooks', '--values', this.valuesFile(spec)], `helm template ${spec.id}`);
    return parseYamlAll(r).filter((o): o is K8sObject => isMap(o) && o.kind === 'CustomResourceDefinition');
  }

  async deployed(spec: HelmfileReleaseSpec): Promise<DeployedRelease | undefined> {
    const list = JSON.parse(await this.helm(['list', '--namespace', spec.namespace, '--all', '--filter', `^${spec.name.replace(/[.]/g, '\\.')}$`, '-o', 'json'], `helm list ${spec.id}`)) as Array<{ name: string; status: string; chart: string; revision: string }>;
    const rel = list.find((x) => x.name === spec.name);
    if (!rel) return undefined;
    const manifest = await this.helm(['get', 'manifest', spec.name, '--namespace', spec.namespace], `helm get manifest ${spec.id}`);
    const values = JSON.parse((await this.helm(['get', 'values', spec.name, '--namespace', spec.namespace, '-o', 'json'], `helm get values ${spec.id}`)) || 'null') as unknown;
    return { status: rel.status, chart: rel.chart, revision: Number(rel.revision), manifest, values: isMap(values) ? values : {} };
  }

  async preview(spec: HelmfileReleaseSpec): Promise<ReleasePreview> {
    const out = await this.helm(['upgrade', '--install', spec.name, ...this.chartArgs(spec), '--namespace', spec.namespace, '--values', this.valuesFile(spec), '--dry-run=server', '-o', 'json'], `helm upgrade --dry-run=server ${spec.id}`);
    return this.release(out);
  }

  async upgrade(spec: HelmfileReleaseSpec): Promise<ReleasePreview> {
    // No --wait: fleetplan awaits the release's objects itself, through watches (ADR 0231).
    const out = await this.helm(['upgrade', '--install', spec.name, ...this.chartArgs(spec), '--namespace', spec.namespace, '--values', this.valuesFile(spec), '-o', 'json'], `helm upgrade --install ${spec.id}`);
    return this.release(out);
  }

  private release(out: string): ReleasePreview {
    const r = JSON.parse(out) as { manifest?: string; chart?: { metadata?: { name?: string; version?: string } } };
    return { manifest: r.manifest ?? '', chart: `${r.chart?.metadata?.name ?? '?'}-${r.chart?.metadata?.version ?? '?'}` };
  }

  private path(rel: string): string {
    // Charts and values files stay inside the repository (ADR 0210).
    return resolveInside(this.opts.root, rel);
  }

  private chartArgs(spec: HelmfileReleaseSpec): string[] {
    const c = spec.chart;
    if (c.kind === 'local') return [this.path(c.path)];
    return [c.ref, ...(c.repo ? ['--repo', c.repo] : []), ...(c.version ? ['--version', c.version] : [])];
  }

  private valuesFile(spec: HelmfileReleaseSpec): string {
    const file = join(this.dir, `values-${spec.namespace}-${spec.name}.json`);
    writeFileSync(file, JSON.stringify(this.values(spec)), { mode: 0o600 });
    return file;
  }

  private async helm(args: string[], what: string): Promise<string> {
    const r = await runProcess(this.opts.binary, [...args, '--kubeconfig', this.kubeconfigPath], { env: this.opts.env, cwd: this.opts.root, timeoutMs: this.opts.timeoutMs ?? 10 * 60_000 });
    if (r.code !== 0) {
      throw new ToolError(`${what} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n')}`, { code: 'helm-failed', hint: 'run the same helm command with --debug to see why' });
    }
    return r.stdout;
  }
}

/**
 * The kubeconfig text Helm gets: only the context the bootstrap uses (its cluster, user and
 * context, made current), from the same files and `--context` as connectKube reads.
 */
export async function kubeconfigForHelm(opts: { kubeconfig?: string; context?: string; env: Readonly<Record<string, string | undefined>> }): Promise<string> {
  const k8s = await import('@kubernetes/client-node');
  const files = kubeconfigFiles({ ...(opts.kubeconfig !== undefined ? { kubeconfig: opts.kubeconfig } : {}), env: opts.env });
  const clusters: Array<ReturnType<InstanceType<typeof k8s.KubeConfig>['getClusters']>[number]> = [];
  const users: Array<ReturnType<InstanceType<typeof k8s.KubeConfig>['getUsers']>[number]> = [];
  const contexts: Array<ReturnType<InstanceType<typeof k8s.KubeConfig>['getContexts']>[number]> = [];
  let current = '';
  for (const f of files) {
    const one = new k8s.KubeConfig();
    one.loadFromFile(f);
    for (const c of one.getClusters()) if (!clusters.some((x) => x.name === c.name)) clusters.push(c);
    for (const u of one.getUsers()) if (!users.some((x) => x.name === u.name)) users.push(u);
    for (const c of one.getContexts()) if (!contexts.some((x) => x.name === c.name)) contexts.push(c);
    if (current === '' && one.getCurrentContext()) current = one.getCurrentContext();
  }
  const name = opts.context !== undefined && opts.context !== '' ? opts.context : current;
  const ctx = contexts.find((c) => c.name === name);
  if (!ctx) throw new ToolError(`context "${name}" is not in the kubeconfig (${files.join(', ')})`, { code: 'kube-context-missing', hint: 'pass --context' });
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: clusters.filter((c) => c.name === ctx.cluster),
    users: users.filter((u) => u.name === ctx.user),
    contexts: [ctx],
    currentContext: ctx.name,
  });
  return kc.exportConfig();
}
