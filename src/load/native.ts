/**
 * Stage 1, load: the repository's files → a Fleet with every file parsed and schema-checked.
 *
 * Input: a RepoFileSystem. Output: `{ fleet, findings }`. Never throws for bad content: a file
 * that does not parse or fails its schema becomes findings (file, line, column, YAML path, hint)
 * and is left out of the model, so the rest of the fleet can still be planned and checked.
 * Throws InputError only when there is no fleet at all.
 */
import { InputError } from '../errors/index.js';
import type { Finding } from '../model/finding.js';
import type { ClusterDef, Fleet, GroupDef } from '../model/fleet.js';
import type { ClusterSpec, Document, FleetSpec, GroupSpec } from '../model/spec.js';
import type { ClusterBuilder, FallbackRequest } from '../ports/cluster-build.js';
import type { GitRepo, RepositoryOrigin } from '../ports/git-repo.js';
import type { ClusterSecret } from '../appset/types.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import type { JsonnetTool } from '../ports/tools.js';
import { validateSchema } from './json-schema.js';
import type { Kind } from './schemas.js';
import { schemas } from './schemas.js';
import type { SourceFile } from '../model/source.js';
import { parseYamlSource } from '../yaml/source.js';
import { formatPath } from '../model/source.js';
import { FLEET_FILE } from '../model/constants.js';
import { NATIVE_CAPABILITIES } from '../model/fleet.js';
import { loadMirror } from './mirror.js';

function mirrorOf(spec: FleetSpec, source: SourceFile | undefined, findings: Finding[]): Pick<Fleet, 'mirror'> {
  const mirror = source ? loadMirror(spec.gitops?.mirror, spec.repoURL, source, findings) : undefined;
  return mirror ? { mirror } : {};
}


export interface LoadResult {
  fleet: Fleet;
  findings: Finding[];
  /** Clusters the layout reader could not read exactly: build them with the real tools (completeFallbacks). */
  fallbacks?: FallbackRequest[];
  /**
   * Work a reader leaves for the real tools (the argocd layout follows app-of-apps through
   * kustomize and Helm builds): run once, before the fleet is used (api/ completeLoad).
   */
  complete?: (tools: LoadTools) => Promise<void>;
  /**
   * The same repository read again with the managed clusters of `--clusters FILE` (Validated
   * Patterns: each cluster gets the apps of the group whose ACM placement selects it, ADR 0343).
   */
  withClusters?: (secrets: readonly ClusterSecret[]) => LoadResult;
}

/** What a reader's `complete` step may use: the real tools and the repository's git, through ports. */
export interface LoadTools {
  /** The real kustomize and Helm, created on first use. */
  builder: () => Promise<ClusterBuilder>;
  /** The repo server for ApplicationSet git generators. */
  git?: GitRepo;
  /** The clone's origin remote and branch. */
  origin: RepositoryOrigin;
  /** Cluster Secrets given by the user (--clusters), over the repository's own. */
  clusterSecrets?: readonly ClusterSecret[];
  /** The real Jsonnet, located on first use (Jsonnet directory sources that may generate Applications). */
  jsonnet?: () => Promise<JsonnetTool>;
  /** The roots given by the user (--root, ADR 0345): repository-relative files or directories; absent: guessed. */
  roots?: readonly string[];
}

export function loadNativeFleet(fs: RepoFileSystem): LoadResult {
  const findings: Finding[] = [];
  const sources = new Map<string, SourceFile>();
  if (!fs.exists(FLEET_FILE)) {
    throw new InputError(`no ${FLEET_FILE} in ${fs.root}`, {
      code: 'no-fleet',
      hint: 'run fleetplan in a fleet repository, pass --repo DIR, or create one with `fleetplan init`',
    });
  }
  const fleetDoc = readKind<FleetSpec>(fs, FLEET_FILE, 'Fleet', sources, findings);
  if (!fleetDoc) {
    throw new InputError(`${FLEET_FILE} cannot be used`, {
      code: 'bad-fleet',
      location: { file: FLEET_FILE },
      hint: findings.map((f) => `${f.file}:${f.line ?? 0}:${f.column ?? 0} ${f.path ? f.path + ': ' : ''}${f.message}`).join('; '),
    });
  }
  const spec = fleetDoc.spec;
  const clusters: ClusterDef[] = [];
  for (const dir of fs.list('clusters')) {
    const file = `clusters/${dir}/cluster.yaml`;
    if (!fs.exists(file)) continue;
    const doc = readKind<ClusterSpec>(fs, file, 'Cluster', sources, findings);
    if (!doc) continue;
    if (doc.metadata.name !== dir) {
      findings.push(at(sources.get(file)!, ['metadata', 'name'], {
        severity: 'error',
        code: 'cluster-name-mismatch',
        message: `cluster "${doc.metadata.name}" is in folder clusters/${dir}`,
        hint: `name the folder after the cluster, or set metadata.name: ${dir}`,
      }));
      continue;
    }
    clusters.push({ name: dir, file, metadata: doc.metadata, spec: doc.spec });
  }
  const groups = new Map<string, GroupDef>();
  for (const dir of fs.list('groups')) {
    const file = `groups/${dir}/group.yaml`;
    if (!fs.exists(file)) continue;
    const doc = readKind<GroupSpec>(fs, file, 'Group', sources, findings);
    if (!doc) continue;
    if (doc.metadata.name !== dir) {
      findings.push(at(sources.get(file)!, ['metadata', 'name'], {
        severity: 'error',
        code: 'group-name-mismatch',
        message: `group "${doc.metadata.name}" is in folder groups/${dir}`,
        hint: `name the folder after the group, or set metadata.name: ${dir}`,
      }));
      continue;
    }
    groups.set(dir, { name: dir, file, metadata: doc.metadata, spec: doc.spec });
  }
  const fleet: Fleet = {
    root: fs.root,
    layout: 'native',
    capabilities: NATIVE_CAPABILITIES,
    name: fleetDoc.metadata.name,
    file: FLEET_FILE,
    repoURL: spec.repoURL,
    revision: spec.revision ?? 'HEAD',
    platform: spec.platform ?? 'openshift',
    engine: spec.gitops?.engine ?? 'argocd',
    delivery: spec.gitops?.delivery ?? 'app-of-apps',
    ...(spec.gitops?.applicationset?.directories ? { applicationSet: { directories: spec.gitops.applicationset.directories } } : {}),
    gitopsNamespace: spec.gitops?.namespace,
    renderedPath: (spec.gitops?.renderedPath ?? 'rendered').replace(/\/+$/, ''),
    plugin: spec.gitops?.plugin ? { image: spec.gitops.plugin.image, name: spec.gitops.plugin.name ?? 'fleetplan' } : undefined,
    operator: spec.gitops?.operator ?? {},
    ...bootstrapRunnerOf(spec, sources.get(FLEET_FILE), findings),
    ...(spec.gitops?.selfManaged !== undefined ? { selfManaged: spec.gitops.selfManaged } : {}),
    ...mirrorOf(spec, sources.get(FLEET_FILE), findings),
    sectors: spec.sectors ?? [],
    vars: stringifyVars(spec.vars),
    defaults: spec.defaults ?? {},
    projects: spec.projects ?? {},
    validation: spec.validation ?? {},
    clusters,
    groups,
    sources,
    loadFindings: findings,
  };
  return { fleet, findings };
}

export function stringifyVars(vars: Record<string, string | number | boolean> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars ?? {})) out[k] = String(v);
  return out;
}

/** Reads, parses and schema-checks one file of a kind; undefined (with findings) when unusable. */
export function readKind<S>(
  fs: RepoFileSystem,
  file: string,
  kind: Kind,
  sources: Map<string, SourceFile>,
  findings: Finding[],
): Document<Kind, S> | undefined {
  let text: string;
  try {
    text = fs.readText(file);
  } catch (e) {
    const err = e as InputError;
    findings.push({ severity: 'error', code: err.code ?? 'unreadable-file', message: err.message, file, ...(err.hint ? { hint: err.hint } : {}) });
    return undefined;
  }
  const parsed = parseYamlSource(file, text);
  findings.push(...parsed.findings);
  const source = parsed.source;
  if (!source) return undefined;
  sources.set(file, source);
  const value = source.value;
  if (value === null || value === undefined) {
    findings.push({ severity: 'error', code: 'empty-file', message: `the file is empty; expected a ${kind}`, file, line: 1, column: 1, hint: `fleetplan schema ${kind} shows the format` });
    return undefined;
  }
  const issues = validateSchema(value, schemas[kind]);
  // A wrong apiVersion/kind explains every other issue: report it alone.
  const head = issues.filter((i) => i.path.length === 1 && (i.path[0] === 'kind' || i.path[0] === 'apiVersion'));
  for (const issue of head.length ? head : issues) {
    findings.push(at(source, issue.path, {
      severity: 'error',
      code: 'schema',
      message: issue.message,
      hint: issue.hint ?? `fleetplan schema ${kind} shows the format`,
    }));
  }
  if (issues.length > 0) return undefined;
  return value as Document<Kind, S>;
}

/** A finding placed at `path` inside `source`. */
export function at(source: SourceFile, path: readonly (string | number)[], f: Omit<Finding, 'file' | 'line' | 'column' | 'path'>): Finding {
  const pos = source.locate(path);
  const p = formatPath(path);
  return { ...f, file: source.file, line: pos.line, column: pos.column, ...(p ? { path: p } : {}) };
}

/** `gitops.bootstrapRunner` with its defaults; an error finding when no image can be named. */
function bootstrapRunnerOf(spec: FleetSpec, source: SourceFile | undefined, findings: Finding[]): Pick<Fleet, 'bootstrapRunner'> {
  const raw = spec.gitops?.bootstrapRunner;
  if (raw === undefined) return {};
  const r = typeof raw === 'string' ? { type: raw } : raw;
  const image = r.image ?? spec.gitops?.plugin?.image;
  if (image === undefined) {
    const f = { severity: 'error' as const, code: 'bootstrap-runner-image', message: `bootstrapRunner ${r.type} needs the fleetplan image, and gitops.plugin.image is not set`,
      hint: 'write bootstrapRunner: { type: ' + r.type + ', image: REGISTRY/fleetplan:TAG } (built from the Containerfile)' };
    findings.push(source ? at(source, ['spec', 'gitops', 'bootstrapRunner'], f) : { ...f, file: FLEET_FILE });
    return {};
  }
  return { bootstrapRunner: { type: r.type, image, timeout: r.timeout ?? '2h' } };
}
