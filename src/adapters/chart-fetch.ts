/**
 * Remote charts for `--fetch` (docs/adr/0283-fetch-remote-sources.md): `helm pull` of a chart from
 * a Helm repository (`--repo URL`) or an OCI registry (`oci://…`) into the fetch cache,
 * `<cacheDir>/charts-fetched/<key>/<version>.tgz`, keyed by (repository URL, chart) and the
 * resolved version. An exact version already there is used without the network; a version range
 * (or none) is always resolved by Helm against the repository (its index, or the registry's tags),
 * and the version it chose is reported. Each archive's sha256 (and an OCI registry's manifest
 * digest) is recorded beside it.
 *
 * Credentials: Helm is given an empty repository configuration and cache of its own and, for
 * registries, only the registry configuration file the user names (`--registry-config FILE`);
 * never the logins of the user's Helm (HELM_REGISTRY_CONFIG, ~/.config/helm), nor anything from
 * the process environment (ADR 0212).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../errors/index.js';
import type { ChartFetcher, ChartRequest, FetchedChart, RegistryCredentials } from '../ports/chart-fetch.js';
import type { HelmTool } from '../ports/tools.js';
import { parseYamlAll } from '../yaml/index.js';
import { runTool } from './process.js';

export interface ChartFetcherOptions {
  /** The fetch cache lives under it; absent: a temporary directory for this run, removed by close(). */
  cacheDir: string | undefined;
  helm: () => Promise<HelmTool>;
  env: Readonly<Record<string, string | undefined>>;
  /** `--registry-config FILE`: the only registry logins Helm gets. */
  registryConfig?: string;
}

/** `1.2.3`, `v1.2.3`, `1.2.3-rc.1+build`: one version, not a range. */
const EXACT = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function isExactVersion(version: string | undefined): boolean {
  return version !== undefined && EXACT.test(version);
}

/** Hides the `user:password@` of every URL in a text that is shown. */
export function redactUrl(url: string): string {
  return url.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s]*@/g, '$1***@');
}

export function createChartFetcher(options: ChartFetcherOptions): ChartFetcher & { close(): void } {
  let scratch: string | undefined;
  const base = () => (options.cacheDir ? join(options.cacheDir, 'charts-fetched') : (scratch ??= mkdtempSync(join(tmpdir(), 'fleetplan-charts-'))));
  const keyDir = (req: ChartRequest) => join(base(), sha256(`${req.chart.startsWith('oci://') ? '' : (req.repoURL ?? '')}\0${req.chart}`).slice(0, 32));
  const inflight = new Map<string, Promise<FetchedChart>>();

  const read = (dir: string, version: string): FetchedChart | undefined => {
    const archive = join(dir, `${safe(version)}.tgz`);
    if (!existsSync(archive)) return undefined;
    const digest = recordedDigest(dir, version);
    return { archive, version, sha256: sha256File(archive), ...(digest ? { digest } : {}), pulled: false };
  };

  /** The archive pulled before whose recorded manifest digest is `digest` (a digest-pinned chart). */
  const readByDigest = (dir: string, digest: string): FetchedChart | undefined => {
    let names: string[];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    } catch {
      return undefined;
    }
    for (const n of names) {
      const version = n.slice(0, -'.json'.length);
      if (recordedDigest(dir, version) === digest) return read(dir, version);
    }
    return undefined;
  };

  const pull = async (req: ChartRequest): Promise<FetchedChart> => {
    const helm = await options.helm();
    const oci = req.chart.startsWith('oci://');
    const work = mkdtempSync(join(tmpdir(), 'fleetplan-pull-'));
    try {
      const dest = join(work, 'out');
      mkdirSync(dest);
      // A digest-pinned chart is pulled by its digest (`oci://…@sha256:…`): the registry cannot hand over another.
      const byDigest = oci && req.digest !== undefined;
      const args = ['pull', byDigest ? `${req.chart}@${req.digest}` : req.chart];
      if (!oci) args.push('--repo', req.repoURL ?? '');
      if (req.version && !byDigest) args.push('--version', req.version);
      if (oci && req.plainHttp === true) args.push('--plain-http');
      if (req.insecureSkipVerify === true) args.push('--insecure-skip-tls-verify');
      args.push('--destination', dest, '--repository-config', join(work, 'repositories.yaml'), '--repository-cache', join(work, 'cache'));
      args.push('--registry-config', oci && req.credentials ? registryConfigWith(work, options.registryConfig, req.chart, req.credentials) : (options.registryConfig ?? join(work, 'registry.json')));
      // Helm's own directories point into the scratch directory: no login, repository or plugin of the user's Helm is read.
      const env = { ...options.env, HELM_CONFIG_HOME: join(work, 'config'), HELM_CACHE_HOME: join(work, 'cache'), HELM_DATA_HOME: join(work, 'data'), HELM_REGISTRY_CONFIG: undefined, HELM_REPOSITORY_CONFIG: undefined, HELM_REPOSITORY_CACHE: undefined, HELM_PLUGINS: undefined };
      const r = await runTool(helm.binary, args, { env, timeoutMs: 5 * 60 * 1000 }, 'check the repository URL, chart name and version; give registry logins with --registry-config FILE');
      const where = oci ? req.chart : `${req.chart} from ${redactUrl(req.repoURL ?? '?')}`;
      if (r.code !== 0) throw pullFailure(where, req, redactUrl((r.stderr || r.stdout).trim()) || `exit ${r.code}`);
      const tgz = readdirSync(dest).filter((f) => f.endsWith('.tgz'));
      if (tgz.length !== 1) throw new ToolError(`helm pull of ${where} wrote ${tgz.length} archives, expected one`, { code: 'chart-fetch-failed' });
      const archive = join(dest, tgz[0]!);
      const shown = await runTool(helm.binary, ['show', 'chart', archive], { env }, '');
      const meta = shown.code === 0 ? parseYamlAll(shown.stdout, { schema: 'core' })[0] : undefined;
      const version = meta !== null && typeof meta === 'object' && typeof (meta as Record<string, unknown>).version === 'string' ? String((meta as Record<string, unknown>).version) : undefined;
      if (!version) throw new ToolError(`cannot read the version of the chart helm pulled for ${where}: ${shown.stderr.trim()}`, { code: 'chart-fetch-failed' });
      const registryDigest = /Digest:\s*(sha256:[0-9a-f]{64})/.exec(`${r.stdout}\n${r.stderr}`)?.[1];
      if (req.digest !== undefined && registryDigest !== req.digest) {
        throw new ToolError(`helm pull of ${where}@${req.digest} gave a chart whose manifest digest is ${registryDigest ?? 'not reported'}, not the pinned ${req.digest}`, {
          code: 'chart-digest-mismatch',
          hint: 'the registry does not serve the pinned digest; check ref.digest, or the registry',
        });
      }
      const dir = keyDir(req);
      mkdirSync(dir, { recursive: true });
      const target = join(dir, `${safe(version)}.tgz`);
      renameSync(archive, target);
      if (registryDigest) writeFileSync(join(dir, `${safe(version)}.json`), `${JSON.stringify({ digest: registryDigest })}\n`);
      return { archive: target, version, sha256: sha256File(target), ...(registryDigest ? { digest: registryDigest } : {}), pulled: true };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  };

  return {
    cached(req) {
      if (req.digest !== undefined) return readByDigest(keyDir(req), req.digest);
      if (!isExactVersion(req.version)) return undefined;
      return read(keyDir(req), req.version!.replace(/^v/, '')) ?? read(keyDir(req), req.version!);
    },
    pull(req) {
      const k = `${req.repoURL ?? ''}\0${req.chart}\0${req.version ?? ''}\0${req.digest ?? ''}\0${req.plainHttp === true}`;
      let p = inflight.get(k);
      if (!p) inflight.set(k, (p = pull(req)));
      return p;
    },
    close() {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      scratch = undefined;
    },
  };
}

/**
 * A failed `helm pull`, said by what went wrong as far as Helm's message tells: the version or tag
 * is not in the repository, the registry refused the credentials (or there were none), the bytes
 * did not match their digest; else Helm's message as it is.
 */
function pullFailure(where: string, req: ChartRequest, helmMessage: string): ToolError {
  const what = `${where}${req.digest ? `@${req.digest}` : req.version ? ` ${req.version}` : ''}`;
  if (/dial tcp|no such host|connection refused|i\/o timeout|server gave HTTP response to HTTPS client|tls: |x509: /i.test(helmMessage)) {
    return new ToolError(`helm pull of ${what} could not reach the repository: ${helmMessage}`, {
      code: 'registry-unreachable',
      hint: /HTTP response to HTTPS/.test(helmMessage)
        ? 'the registry speaks plain HTTP: fleetplan uses it only where the source says so (Flux insecure: true; ADR 0301)'
        : 'check the repository URL and that this machine reaches it (DNS, proxy, TLS)',
    });
  }
  if (/\b401\b|unauthorized|basic credential not found|authentication required|\b403\b|denied/i.test(helmMessage)) {
    return new ToolError(`helm pull of ${what} was refused by the registry (not authorized): ${helmMessage}`, {
      code: 'registry-unauthorized',
      hint: 'log in with `helm registry login HOST --registry-config FILE` and pass --registry-config FILE (fleetplan never reads your own Helm logins)',
    });
  }
  if (/mismatch|digest.*(invalid|verif)|content.*does not match/i.test(helmMessage)) {
    return new ToolError(`helm pull of ${what} failed: the registry sent content that does not match its digest: ${helmMessage}`, {
      code: 'chart-digest-mismatch',
      hint: 'the registry serves corrupted or altered content; do not use it until it is fixed',
    });
  }
  if (/\bnot found\b|no chart version found|manifest unknown|name unknown|\b404\b/i.test(helmMessage)) {
    return new ToolError(`helm pull of ${what} failed: ${req.digest ? 'that digest' : req.version ? 'that version' : 'the chart'} is not in the repository: ${helmMessage}`, {
      code: 'chart-not-found',
      hint: 'check the chart name and the version (targetRevision, chart.spec.version, ref.tag/ref.digest) against the repository',
    });
  }
  return new ToolError(`helm pull of ${what} failed: ${helmMessage}`, {
    code: 'chart-fetch-failed',
    hint: 'check the repository URL, the chart name and the version (targetRevision); for a private registry pass --registry-config FILE',
  });
}

/**
 * A registry config for this pull only (mode 0600, in the pull's scratch directory): the user's
 * `--registry-config` logins with the repository Secret's login for the chart's registry (ADR
 * 0316). The password never appears on a command line or in a message.
 */
function registryConfigWith(work: string, userConfig: string | undefined, chart: string, credentials: RegistryCredentials): string {
  let config: { auths?: Record<string, unknown> } = {};
  if (userConfig !== undefined) {
    try {
      config = JSON.parse(readFileSync(userConfig, 'utf8')) as { auths?: Record<string, unknown> };
    } catch {
      config = {};
    }
  }
  const host = chart.replace(/^oci:\/\//, '').split('/')[0]!;
  const auths = { ...(config.auths ?? {}), [host]: { auth: Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64') } };
  const file = join(work, 'registry-secret.json');
  writeFileSync(file, `${JSON.stringify({ ...config, auths })}\n`, { mode: 0o600 });
  return file;
}

function recordedDigest(dir: string, version: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, `${safe(version)}.json`), 'utf8')) as { digest?: string }).digest;
  } catch {
    return undefined;
  }
}

function safe(version: string): string {
  return version.replace(/[^A-Za-z0-9._+-]/g, '_');
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

function sha256File(file: string): string {
  return `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
}
