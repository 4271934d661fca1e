/**
 * Argo CD 3.1 native OCI sources (docs/adr/0317-native-oci-sources.md): an Application whose
 * `repoURL` is `oci://registry/repository` is an OCI artifact at `targetRevision` (a tag, a
 * `sha256:` digest or a semver range), extracted by the repo-server and built at `path` as a git
 * checkout would be: plain manifests, kustomize, or Helm (a Helm chart artifact is unwrapped to
 * its chart folder, so `path: .` is the chart). Argo CD checks `repoURL` for `oci://` before it
 * looks at `chart`, so a `chart` beside an `oci://` repoURL is ignored (said in a note).
 *
 * Offline, only a digest already in the fetch cache is read; a tag or range needs `--fetch`
 * (a tag can move, and only the registry says where it points now).
 */
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError, ToolError } from '../../errors/index.js';
import type { ArtifactFetcher, ArtifactRevision, FetchedArtifact, RegistryCredentials } from '../../ports/chart-fetch.js';
import type { HelmTool, KustomizeTool } from '../../ports/tools.js';
import type { SourceReader } from '../../ports/source-reader.js';
import { SemverVersion, compareVersions, semverCompare } from '../../gotemplate/sprig/semver.js';
import { argoSourceType } from '../../model/argo-source-type.js';
import type { DirectoryOptions } from './directory.js';
import { directoryFileManifests, selectDirectoryFiles } from './directory.js';
import type { BuildInputs } from './inputs.js';
import { InputWalker } from './inputs.js';
import type { SourceLocation } from '../../errors/index.js';

export interface OciLeafSource {
  kind: 'oci';
  /** `oci://registry/repository` as written. */
  repoURL: string;
  registry: string;
  repository: string;
  /** What is wrong with `repoURL` (model/helm-oci.ts parseOciRepoURL): the build fails with it. */
  invalid?: string;
  targetRevision: string;
  /** The path in the artifact (`.` for its root). */
  path: string;
  /** The Application's source without `chart` (which Argo CD ignores here): decides the tool, as for a git source. */
  argo: Record<string, unknown>;
  releaseName: string;
  namespace: string;
  helm: {
    valueFiles: string[];
    ignoreMissingValueFiles: boolean;
    parameters: { name: string; value: string; forceString?: boolean }[];
    values: unknown;
  };
  directory: DirectoryOptions;
  /** From the repository Secret (ADR 0316). */
  plainHttp?: boolean;
  insecureSkipVerify?: boolean;
  credentials?: RegistryCredentials;
  /** Said with the build's notes (the repository Secret used, an ignored chart). */
  notes: string[];
  /** Where the Application names repoURL and targetRevision. */
  locations?: { repoURL?: SourceLocation; version?: SourceLocation };
}

/** How a targetRevision selects an artifact, as Argo CD's oci client reads it; a string: why it cannot. */
export function ociRevision(targetRevision: string): Exclude<ArtifactRevision, { kind: 'range' }> | { kind: 'range'; range: string } | string {
  const rev = targetRevision.trim();
  if (rev === '' || rev === 'HEAD') return 'an OCI source needs targetRevision: a tag, a sha256: digest or a semver range';
  if (/^sha256:[a-f0-9]{64}$/.test(rev)) return { kind: 'digest', digest: rev };
  if (/^[a-z0-9]+:/.test(rev) && !/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(rev)) return `${JSON.stringify(rev)} is not a sha256 digest (sha256: and 64 lower-case hex digits)`;
  if (isVersion(rev)) return { kind: 'tag', tag: rev };
  if (isConstraint(rev)) return { kind: 'range', range: rev };
  if (/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/.test(rev)) return { kind: 'tag', tag: rev };
  return `${JSON.stringify(rev)} is neither a tag, a sha256: digest nor a semver range`;
}

function isVersion(v: string): boolean {
  try {
    SemverVersion.parse(v);
    return true;
  } catch {
    return false;
  }
}

/** Masterminds' semver.NewConstraint accepts it (and it is not one exact version): Argo CD's versions.IsConstraint. */
function isConstraint(v: string): boolean {
  try {
    semverCompare(v, '0.0.0');
    return true;
  } catch {
    return false;
  }
}

/** Argo CD's versions.MaxVersion: the highest tag that is a semver version matching the range. */
export function maxVersion(range: string, tags: readonly string[]): string | undefined {
  let best: SemverVersion | undefined;
  for (const t of tags) {
    let v: SemverVersion;
    try {
      v = SemverVersion.parse(t);
    } catch {
      continue;
    }
    let ok: boolean;
    try {
      ok = semverCompare(range, t);
    } catch {
      ok = false;
    }
    if (ok && (best === undefined || compareVersions(v, best) > 0)) best = v;
  }
  return best?.original;
}

export interface OciPorts {
  artifacts?: ArtifactFetcher;
  /** The repository, for `$ref` value files of a multi-source Application (`$repo/…`). */
  repoRoot?: string;
  repoReader?: SourceReader;
  network?: boolean;
  kustomize(): Promise<KustomizeTool>;
  helm(): Promise<HelmTool>;
}

/** The shape render.ts builds from (its BuildPlan). */
export interface OciBuildPlan {
  path: string;
  inputs: BuildInputs;
  key: string | undefined;
  dedupeKey: string;
  run(): Promise<string>;
  notes?: string[];
}

const KUSTOMIZE_FLAGS = ['--enable-helm', '--load-restrictor', 'LoadRestrictionsNone'];

/** Fetches (or finds) the artifact and plans the build of its `path`. */
export async function planOciSource(source: OciLeafSource, ports: OciPorts): Promise<OciBuildPlan> {
  const display = `${source.repoURL}@${source.targetRevision}${source.path !== '.' ? ` ${source.path}` : ''}`;
  if (source.invalid !== undefined) {
    throw new InputError(`repoURL ${source.repoURL} is not an OCI reference Argo CD can pull: ${source.invalid}`, { code: 'invalid-oci-reference', ...(source.locations?.repoURL ? { location: source.locations.repoURL } : {}), hint: 'write oci://registry[:port]/repository, with the tag or digest in targetRevision' });
  }
  const rev = ociRevision(source.targetRevision);
  if (typeof rev === 'string') {
    throw new InputError(`${source.repoURL}: ${rev}`, { code: 'invalid-oci-reference', ...(source.locations?.version ? { location: source.locations.version } : {}), hint: 'write a tag (1.2.0), a digest (sha256:…) or a semver range (^1.2.0)' });
  }
  const request = {
    registry: source.registry,
    repository: source.repository,
    revision: rev.kind === 'range' ? { kind: 'range' as const, range: rev.range, pick: (tags: readonly string[]) => maxVersion(rev.range, tags) } : rev,
    ...(source.plainHttp ? { plainHttp: true } : {}),
    ...(source.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
    ...(source.credentials ? { credentials: source.credentials } : {}),
  };
  let artifact: FetchedArtifact | undefined;
  try {
    artifact = ports.artifacts?.cached(request) ?? (ports.network === true && ports.artifacts ? await ports.artifacts.pull(request) : undefined);
  } catch (e) {
    const located = locate(e, source);
    if (!(located instanceof ToolError) || source.notes.length === 0) throw located;
    const note = source.notes.join('; ');
    throw new ToolError(located.message, { code: located.code, ...(located.location ? { location: located.location } : {}), hint: located.hint ? `${located.hint}; ${note}` : note, cause: located.cause ?? located });
  }
  if (!artifact) {
    const why = rev.kind === 'digest' ? 'it was never fetched into the fetch cache' : `a ${rev.kind === 'tag' ? 'tag' : 'semver range'} is resolved only by the registry`;
    throw new ToolError(`not built: the OCI artifact ${source.repoURL} ${source.targetRevision} is not available offline (${why})`, {
      code: 'oci-not-fetched',
      ...(source.locations?.repoURL ? { location: source.locations.repoURL } : {}),
      hint: 'pass --fetch to let fleetplan pull it from the registry (as Argo CD 3.1 does)',
    });
  }
  const notes = [...source.notes];
  const resolved = rev.kind === 'range' ? `tag ${artifact.tag} (resolved from ${rev.range}), ` : rev.kind === 'tag' ? `tag ${rev.tag}, ` : '';
  notes.push(`${artifact.pulled ? 'fetched' : 'from the fetch cache:'} OCI artifact ${source.repoURL} ${resolved}digest ${artifact.digest}${artifact.helmChart ? ' (a Helm chart)' : ''}`);
  const root = resolve(artifact.dir);
  const appDir = resolve(root, source.path);
  const r = relative(root, appDir);
  if (r.startsWith('..') || isAbsolute(r)) throw new InputError(`path "${source.path}" leaves the OCI artifact`, { code: 'path-escapes-repo', ...(source.locations?.repoURL ? { location: source.locations.repoURL } : {}) });
  const reader = artifact.reader;
  if (reader.kind(appDir) !== 'dir') {
    throw new InputError(`path "${source.path}" is not a directory in the OCI artifact ${source.repoURL}@${artifact.digest}`, { code: 'missing-path', ...(source.locations?.repoURL ? { location: source.locations.repoURL } : {}), hint: 'the path is relative to the artifact\'s root; use "." for the root' });
  }
  const type = argoSourceType(source.argo, (name) => reader.kind(resolve(appDir, name)) !== undefined);
  const at = (abs: string) => relative(root, abs).split(sep).join('/') || '.';
  const keyOf = (material: unknown) => sha256(JSON.stringify(material));
  const base = { v: 1, kind: `oci-${type}`, digest: artifact.digest, path: at(appDir) };
  const empty: BuildInputs = { files: [], missing: [], remote: [], usesHelm: false };
  if (type === 'plugin') throw new ToolError(`not built: ${display} names a config-management plugin, which fleetplan never runs (ADR 0284)`, { code: 'plugin-not-run' });
  if (type === 'kustomize') {
    const inputs = new InputWalker(reader).kustomization(appDir);
    if (inputs.remote.length > 0 && ports.network !== true) {
      throw new ToolError(`not built: ${display} reads remote resources, not fetched offline: ${inputs.remote.join(', ')}`, { code: 'remote-not-fetched', hint: 'pass --fetch to let kustomize fetch them' });
    }
    const tool = await ports.kustomize();
    const helm = inputs.usesHelm ? await ports.helm() : undefined;
    const flags = helm ? [...KUSTOMIZE_FLAGS, '--helm-command', helm.binary] : KUSTOMIZE_FLAGS;
    const key = inputs.remote.length > 0 ? undefined : keyOf({ ...base, tool: `kustomize ${tool.version}`, helm: helm?.version ?? null });
    return { path: display, inputs: empty, key, dedupeKey: key ?? `uncacheable:${display}`, notes, run: () => tool.build(appDir, flags) };
  }
  if (type === 'helm') {
    // Value files: relative to the chart; a leading `/` is the artifact's root (Argo CD's rule for a source root).
    // `$repo/…`: a `$ref` value file of this repository (a multi-source Application), read from the repository.
    const named = source.helm.valueFiles.map((f) => {
      const inRepo = f.startsWith('$repo/');
      const base = inRepo ? resolve(ports.repoRoot ?? '/nonexistent') : f.startsWith('/') ? root : appDir;
      const abs = resolve(base, (inRepo ? f.slice('$repo/'.length) : f).replace(/^\/+/, ''));
      const rel = relative(base === appDir ? root : base, abs);
      if (rel.startsWith('..') || isAbsolute(rel)) throw new InputError(`values file "${f}" leaves the ${inRepo ? 'repository' : 'OCI artifact'}`, { code: 'path-escapes-repo' });
      return { f: inRepo ? f.slice('$repo'.length) : f, abs, inRepo };
    });
    const kindOf = (v: { abs: string; inRepo: boolean }) => (v.inRepo ? ports.repoReader?.kind(v.abs) : reader.kind(v.abs));
    const missing = named.filter((v) => kindOf(v) !== 'file');
    if (missing.length && !source.helm.ignoreMissingValueFiles) {
      throw new InputError(`values file${missing.length === 1 ? '' : 's'} ${missing.map((v) => `"${v.f}"`).join(', ')} of ${display} do${missing.length === 1 ? 'es' : ''} not exist in the artifact`, {
        code: 'missing-path',
        hint: 'fix the valueFiles entry, or set helm.ignoreMissingValueFiles: true',
      });
    }
    const valueFiles = named.filter((v) => !missing.includes(v)).map((v) => v.abs);
    const helm = await ports.helm();
    const repoFiles = named.filter((v) => v.inRepo && !missing.includes(v)).map((v) => [v.f, ports.repoReader!.hash(v.abs)]);
    const key = keyOf({ ...base, tool: `helm ${helm.version}`, releaseName: source.releaseName, namespace: source.namespace, valueFiles: named.filter((v) => !missing.includes(v)).map((v) => (v.inRepo ? `$repo${v.f}` : at(v.abs))), repoFiles, parameters: source.helm.parameters, values: source.helm.values ?? null });
    return {
      path: display,
      inputs: empty,
      key,
      dedupeKey: key,
      notes,
      run: () => helm.template({ chart: appDir, releaseName: source.releaseName, namespace: source.namespace, valueFiles, values: source.helm.values, ...(source.helm.parameters.length ? { parameters: source.helm.parameters } : {}) }),
    };
  }
  // A directory of plain manifests.
  const all = reader.listFiles(appDir);
  const below = (abs: string) => relative(appDir, abs).split(sep).join('/');
  const picked = new Set(selectDirectoryFiles(all.map(below), source.directory, { jsonnet: true }));
  const files = all.filter((f) => picked.has(below(f)));
  const jsonnet = files.find((f) => f.endsWith('.jsonnet'));
  if (jsonnet !== undefined) throw new ToolError(`not built: ${display} holds ${at(jsonnet)}, and fleetplan does not evaluate Jsonnet inside OCI artifacts`, { code: 'jsonnet-not-evaluated' });
  const key = keyOf({ ...base, options: source.directory });
  return {
    path: display,
    inputs: empty,
    key,
    dedupeKey: key,
    notes,
    run: () => {
      const parts: string[] = [];
      for (const f of files) {
        let text: string | undefined;
        try {
          text = directoryFileManifests(reader.readText(f));
        } catch (e) {
          throw new InputError(`${at(f)} in the OCI artifact ${source.repoURL}@${artifact.digest} is not valid manifests: ${(e as Error).message.split('\n')[0]}`, { code: 'invalid-manifests' });
        }
        if (text !== undefined) parts.push(text.endsWith('\n') ? text : `${text}\n`);
      }
      return Promise.resolve(parts.join('---\n'));
    },
  };
}

/** A fetch error, pointed at the field to fix: the revision for a missing tag or a digest that does not match, else the repository. */
function locate(e: unknown, source: OciLeafSource): unknown {
  if (!(e instanceof ToolError) || e.location) return e;
  const at = e.code === 'artifact-not-found' || (e.code === 'artifact-digest-mismatch' && /manifest/.test(e.message) && /^sha256:/.test(source.targetRevision)) ? source.locations?.version : source.locations?.repoURL;
  if (!at) return e;
  return new ToolError(e.message, { code: e.code, location: at, ...(e.hint !== undefined ? { hint: e.hint } : {}), cause: e });
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
