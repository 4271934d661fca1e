/**
 * What the repository's Argo CD repository Secrets (ADR 0316) and Argo CD 3.1's native OCI
 * sources (ADR 0317) make of an Application's remote source, for jobs.ts: whether a chart's
 * repoURL is an OCI registry, plain HTTP or unverified TLS, whose login, and the job of an
 * `oci://` source.
 */
import type { SourceLocation } from '../../errors/index.js';
import type { RepositorySecret, ResolvedRepository } from '../../model/argocd-repositories.js';
import { repositoryFor } from '../../model/argocd-repositories.js';
import { hasNoScheme, isHelmOciRepo, parseOciRepoURL } from '../../model/helm-oci.js';
import { isPlainObject } from '../../model/merge.js';
import type { RegistryCredentials } from '../../ports/chart-fetch.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { scanRepositorySecrets } from '../../load/argocd-repositories.js';
import { located } from '../../yaml/documents.js';
import { directoryOptions } from './directory.js';
import type { OciLeafSource } from './oci.js';

/** The repository's repository Secrets, scanned on first use. */
export class RepositorySecrets {
  private secrets: RepositorySecret[] | undefined;
  constructor(private readonly fs: RepoFileSystem) {}
  get all(): RepositorySecret[] {
    return (this.secrets ??= scanRepositorySecrets(this.fs));
  }
  for(repoURL: string, project: string): ResolvedRepository | undefined {
    return repositoryFor(this.all, repoURL, project);
  }
}

/** What a repository Secret gives a pull: transport and login, and what to say about it. */
export interface RepositoryAccess {
  plainHttp?: boolean;
  insecureSkipVerify?: boolean;
  credentials?: RegistryCredentials;
  notes: string[];
}

export function repositoryAccess(repo: ResolvedRepository | undefined): RepositoryAccess {
  const notes: string[] = [];
  if (!repo) return { notes };
  const access: RepositoryAccess = { notes };
  if (repo.from.length) notes.push(`repository ${repo.url} as configured by ${repo.from.join(' and ')}${describe(repo)}`);
  if (repo.insecureOCIForceHttp) access.plainHttp = true;
  if (repo.insecure) access.insecureSkipVerify = true;
  if (repo.credentials.state === 'plain') access.credentials = { username: repo.credentials.username, password: repo.credentials.password };
  else if (repo.credentials.state === 'unreadable') notes.push(`the credentials of ${repo.template && !repo.secret?.credentials ? repo.from[repo.from.length - 1] : repo.from[0]} are not readable (${repo.credentials.fields.join(', ')} are encrypted or come from a secret store): give the registry login with --registry-config FILE`);
  for (const u of repo.uncertain) notes.push(`not known: ${u}, so it may configure this repository too`);
  return access;
}

function describe(r: ResolvedRepository): string {
  const flags = [r.enableOCI ? 'enableOCI' : '', r.insecureOCIForceHttp ? 'insecureOCIForceHttp (plain HTTP)' : '', r.insecure ? 'insecure (TLS not verified)' : '', r.credentials.state === 'plain' ? 'a login' : ''].filter(Boolean);
  return flags.length ? `: ${flags.join(', ')}` : '';
}

/**
 * Whether Argo CD pulls a chart source's repoURL from an OCI registry: `enableOCI` from the
 * repository Secret (or the credential template it inherits), or `helm.IsHelmOciRepo`. A URL
 * without a scheme that neither says is OCI only by assumption (no Secret in the repository), or
 * cannot work at all (a Secret that does not enable OCI: Argo CD reads it as an HTTP repository).
 */
export function chartRepositoryIsOci(repoURL: string, repo: ResolvedRepository | undefined): { oci: boolean; assumption?: string; refusal?: string } {
  if (isHelmOciRepo(repoURL)) return { oci: true };
  if (repo?.enableOCI) return { oci: true };
  if (!hasNoScheme(repoURL)) return { oci: false };
  if (repo && (repo.secret || repo.template) && repo.uncertain.length === 0) {
    return { oci: false, refusal: `Argo CD reads repoURL ${repoURL} as a Helm HTTP repository (${repo.from.join(' and ')} does not set enableOCI: "true") and a URL without a scheme cannot be one: Argo CD cannot fetch this chart either` };
  }
  return { oci: true, assumption: `Argo CD reads repoURL ${repoURL} as an OCI registry only when its repository Secret sets enableOCI: "true" (Go's URL parser rejects it); no such Secret is in the repository, so fleetplan assumed it` };
}

/** Where an Application file names `repoURL` (and `targetRevision`, `chart`) of the source whose repoURL is `repoURL`. */
export function sourceLocations(fs: RepoFileSystem, file: string, app: string, repoURL: string): { repoURL?: SourceLocation; version?: SourceLocation; chart?: SourceLocation } | undefined {
  let docs;
  try {
    docs = located(fs.readText(file));
  } catch {
    return undefined;
  }
  const apps = docs.filter((d) => isPlainObject(d.value) && d.value.kind === 'Application');
  const named = apps.filter((d) => isPlainObject((d.value as Record<string, unknown>).metadata) && (d.value as Record<string, Record<string, unknown>>).metadata!.name === app);
  const doc = named[0] ?? (apps.length === 1 ? apps[0] : undefined);
  if (!doc) return undefined;
  const spec = isPlainObject((doc.value as Record<string, unknown>).spec) ? ((doc.value as Record<string, unknown>).spec as Record<string, unknown>) : {};
  let base: (string | number)[] | undefined;
  if (isPlainObject(spec.source) && spec.source.repoURL === repoURL) base = ['spec', 'source'];
  else if (Array.isArray(spec.sources)) {
    const i = spec.sources.findIndex((x) => isPlainObject(x) && x.repoURL === repoURL);
    if (i >= 0) base = ['spec', 'sources', i];
  }
  if (!base) return undefined;
  const at = (field: string) => {
    const path = [...base!, field];
    const { line, column } = doc.locate(path);
    return { file, line, column, path: path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('').replace(/\.\[/g, '[') };
  };
  return { repoURL: at('repoURL'), version: at('targetRevision'), ...(isPlainObject(spec.source) && spec.source.chart !== undefined ? { chart: at('chart') } : {}) };
}

export interface OciJobInput {
  /** The Application's source whose repoURL is `oci://…` (spec.source, or the spec.sources entry). */
  argo: Record<string, unknown>;
  releaseName: string;
  namespace: string;
  helm: OciLeafSource['helm'];
  access: RepositoryAccess;
  locations?: { repoURL?: SourceLocation; version?: SourceLocation };
}

/** The leaf source of an `oci://` Application source, or why it is malformed (the build then fails with it, at repoURL). */
export function ociLeafSource(input: OciJobInput): OciLeafSource {
  const { argo } = input;
  const repoURL = String(argo.repoURL);
  const parsed = parseOciRepoURL(repoURL);
  const notes = [...input.access.notes];
  const source: Record<string, unknown> = { ...argo };
  if (typeof argo.chart === 'string' && argo.chart !== '') {
    // reposerver: source.IsOCI() is checked before source.IsHelm(). Said only when it matters: a
    // repoURL that already ends with the chart's name is that chart.
    if (repoURL.replace(/\/+$/, '').split('/').pop() !== argo.chart) notes.push(`chart ${argo.chart} is ignored: Argo CD (3.x) pulls an oci:// repoURL itself as the artifact (write repoURL: ${repoURL.replace(/\/+$/, '')}/${argo.chart} and path: . for the chart)`);
    delete source.chart;
  }
  const rawPath = typeof argo.path === 'string' ? argo.path.replace(/^\.\//, '').replace(/\/+$/, '') : '';
  return {
    kind: 'oci',
    repoURL,
    registry: typeof parsed === 'string' ? '' : parsed.registry,
    repository: typeof parsed === 'string' ? '' : parsed.repository,
    ...(typeof parsed === 'string' ? { invalid: parsed } : {}),
    targetRevision: typeof argo.targetRevision === 'string' ? argo.targetRevision : argo.targetRevision === undefined || argo.targetRevision === null ? '' : String(argo.targetRevision),
    path: rawPath === '' ? '.' : rawPath,
    argo: source,
    releaseName: input.releaseName,
    namespace: input.namespace,
    helm: input.helm,
    directory: directoryOptions(argo),
    ...(input.access.plainHttp ? { plainHttp: true } : {}),
    ...(input.access.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
    ...(input.access.credentials ? { credentials: input.access.credentials } : {}),
    notes,
    ...(input.locations ? { locations: input.locations } : {}),
  };
}
