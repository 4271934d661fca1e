/**
 * The variables of a Flux Kustomization's `spec.postBuild`, as kustomize-controller gathers them
 * (fluxcd/pkg kustomize_varsub.go `LoadVariables`): each `substituteFrom` source in order (later
 * sources override earlier ones), then `substitute` (overrides all); newlines are removed from
 * values. Sources are ConfigMaps and Secrets in the Kustomization's namespace; in the cluster they
 * may come from anywhere, here only from plain YAML files of the repository:
 *
 * - found in the repository: its `data` (a Secret's `data` base64-decoded, and `stringData`);
 *   a Secret's values are marked secret so that callers never print them;
 * - SOPS-encrypted, or not in the repository: `unresolved` (unless `optional: true` and absent,
 *   which Flux skips as well) — the caller says that it cannot know the values.
 */
import type { RepoFileSystem } from '../ports/filesystem.js';
import { isObj, joinRelative } from './manifests.js';
import { parseYamlAll } from '../yaml/index.js';
import { sameRepository } from '../model/git-url.js';
import { checkedOutRef, gitRefText, originURL } from './repository-origin.js';
import type { SourceIgnore } from '../model/flux-source-ignore.js';

export interface FluxVariables {
  vars: Record<string, string>;
  /** Names whose value comes from a Secret (never print these values). */
  secret: Set<string>;
  /** `Kind/name` of sources that could not be read, with why. */
  unresolved: { source: string; reason: string }[];
  /** True when Flux substitutes at all (some variable is defined, a source is unresolved, or `substituteStrategy: Always`). */
  active: boolean;
}

export interface RepoObject {
  kind: string;
  name: string;
  namespace?: string;
  file: string;
  body: Record<string, unknown>;
  /**
   * Where kustomize builds put it (docs/adr/0393): the namespaces that the kustomizations listing
   * its file (through resources, folders and components) set, one per way up; undefined when no
   * kustomization on that way sets one (then it keeps `namespace`). Absent: no kustomization lists it.
   */
  lands?: (string | undefined)[];
}

const KUSTOMIZATION_FILE = /(^|\/)(kustomization\.ya?ml|Kustomization)$/;

/**
 * The documents of repository file `file` (YAML 1.2 core schema) when its text matches `test`; none
 * when it cannot be read, does not match, or does not parse (a template, say): a cheap scan of many files.
 */
export function yamlDocsMatching(fs: RepoFileSystem, file: string, test: RegExp): unknown[] {
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return [];
  }
  if (!test.test(text)) return [];
  try {
    return parseYamlAll(text, { schema: 'core' });
  } catch {
    return [];
  }
}

/**
 * For every file or folder that a kustomization of `files` lists (in `resources`, `bases` or
 * `components`), the namespaces kustomize build gives its objects on each way up to a kustomization
 * nothing lists: the outermost `namespace:` on the way wins (kustomize's namespace transformer runs
 * in every kustomization, outer last), undefined when none sets one. A component's resources are
 * the including kustomization's, so its namespace applies to them.
 */
export function kustomizeLandings(fs: RepoFileSystem, files: readonly string[]): (path: string) => (string | undefined)[] | undefined {
  const parents = new Map<string, { dir: string; namespace?: string }[]>();
  for (const f of files) {
    if (!KUSTOMIZATION_FILE.test(f)) continue;
    let doc: unknown;
    try {
      doc = parseYamlAll(fs.readText(f), { schema: 'core' })[0];
    } catch {
      continue;
    }
    if (!isObj(doc)) continue;
    const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.';
    const namespace = typeof doc.namespace === 'string' && doc.namespace !== '' ? doc.namespace : undefined;
    for (const field of ['resources', 'bases', 'components']) {
      for (const r of Array.isArray(doc[field]) ? doc[field] : []) {
        if (typeof r !== 'string' || r.includes('://') || r.startsWith('github.com/')) continue;
        const target = joinRelative(dir, r.replace(/\/+$/, ''));
        if (target === undefined || target === dir) continue;
        const list = parents.get(target) ?? [];
        list.push({ dir, ...(namespace !== undefined ? { namespace } : {}) });
        parents.set(target, list);
      }
    }
  }
  const memo = new Map<string, (string | undefined)[]>();
  const up = (path: string, seen: Set<string>): (string | undefined)[] => {
    const known = memo.get(path);
    if (known) return known;
    const ps = parents.get(path);
    if (!ps || seen.has(path)) return [undefined];
    seen.add(path);
    const out = new Set<string | undefined>();
    for (const p of ps) for (const outer of up(p.dir, seen)) out.add(outer ?? p.namespace);
    seen.delete(path);
    const list = [...out];
    memo.set(path, list);
    return list;
  };
  return (path) => {
    if (parents.has(path)) return up(path, new Set());
    // Listed through its folder (`resources: [./sops]` with a kustomization there listing the file).
    return undefined;
  };
}

const INDEXED = ['ConfigMap', 'Secret', 'OCIRepository', 'HelmRepository', 'GitRepository'];

/** Every YAML file of the repository outside hidden directories, sorted. */
export function repositoryYamlFiles(fs: RepoFileSystem, dir = '.', depth = 0, out: string[] = []): string[] {
  if (depth > 12) return out;
  for (const e of fs.list(dir)) {
    if (e.startsWith('.') || e === 'node_modules') continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (fs.isDirectory(p)) repositoryYamlFiles(fs, p, depth + 1, out);
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

/** ConfigMaps, Secrets and Flux sources of the repository's YAML files, read once. */
export class RepoConfigIndex {
  private objects: RepoObject[] | undefined;
  constructor(
    private readonly fs: RepoFileSystem,
    private readonly files: () => readonly string[],
  ) {}

  private all(): RepoObject[] {
    if (this.objects) return this.objects;
    const out: RepoObject[] = [];
    const files = this.files();
    const lands = kustomizeLandings(this.fs, files);
    for (const f of [...files].sort()) {
      for (const d of yamlDocsMatching(this.fs, f, /^kind:\s*(ConfigMap|Secret|OCIRepository|HelmRepository|GitRepository)\s*$/m)) {
        if (!isObj(d) || typeof d.kind !== 'string' || !INDEXED.includes(d.kind) || !isObj(d.metadata) || typeof d.metadata.name !== 'string') continue;
        const landing = lands(f);
        out.push({ kind: d.kind, name: d.metadata.name, ...(typeof d.metadata.namespace === 'string' ? { namespace: d.metadata.namespace } : {}), file: f, body: d, ...(landing ? { lands: landing } : {}) });
      }
    }
    return (this.objects = out);
  }

  /**
   * Objects of that kind and name; ones that land in `namespace` first (written there, or moved
   * there by the kustomizations that list them), else ones without a namespace anywhere (set by a
   * kustomization fleetplan does not see, or the default).
   */
  find(kind: string, name: string, namespace: string): RepoObject[] {
    const same = this.all().filter((o) => o.kind === kind && o.name === name);
    const landsIn = (o: RepoObject) => (o.lands ?? [undefined]).map((l) => l ?? o.namespace);
    const exact = same.filter((o) => landsIn(o).includes(namespace));
    return exact.length ? exact : same.filter((o) => landsIn(o).includes(undefined));
  }
}

/**
 * What a layout knows about where a Flux Kustomization is built from (keyed by its manifest object,
 * AppSpec.manifest): the repository folder of its path when the layout mapped its source (an
 * ExternalArtifact of this repository), and the objects its cluster applies, in which its
 * substitution sources and its HelmReleases' sources are looked up (docs/adr/0279).
 */
export interface FluxBuildScope {
  path?: string;
  lookup: ConfigLookup;
  /** The clusters of the plan that this cluster's Flux reaches through `spec.kubeConfig` (ADR 0369): kubeConfig reference (`<namespace>/<Secret name>`) → cluster name. */
  spokes?: ReadonlyMap<string, string>;
  /** Whether a GitRepository is this repository, by the rule the layout applies to Kustomizations (ADR 0380): HelmRelease charts use it too (0393). */
  thisRepository?: (name: string, namespace: string) => boolean;
  /** kustomize-controller's StrictPostBuildSubstitutions gate on the cluster (ADR 0411): an unset variable without a default fails the build. */
  strictSubstitution?: boolean;
  /** What the artifact of the Kustomization's GitRepository leaves out (`.sourceignore`, spec.ignore; ADR 0421). */
  ignore?: SourceIgnore;
}
const scopesByRoot = new Map<string, Map<string, FluxBuildScope>>();
const scopeKey = (cluster: string, manifest: object) => `${cluster}\n${JSON.stringify(manifest)}`;

/** Records the scopes of one repository's load (replacing the previous load's). */
export function setFluxBuildScopes(root: string, scopes: readonly { cluster: string; manifest: object; scope: FluxBuildScope }[]): void {
  scopesByRoot.set(root, new Map(scopes.map((s) => [scopeKey(s.cluster, s.manifest), s.scope])));
}

/** The scope a layout recorded for this cluster's Kustomization (its manifest as loaded), if any. */
export function fluxBuildScope(root: string, cluster: string, manifest: object): FluxBuildScope | undefined {
  return scopesByRoot.get(root)?.get(scopeKey(cluster, manifest));
}

/** Where `substituteFrom` sources are looked up: the repository (RepoConfigIndex) or what one cluster applies. */
export interface ConfigLookup {
  find(kind: string, name: string, namespace: string): RepoObject[];
}

export function fluxVariables(kustomization: Record<string, unknown>, index: ConfigLookup | undefined): FluxVariables {
  const spec = isObj(kustomization.spec) ? kustomization.spec : {};
  const meta = isObj(kustomization.metadata) ? kustomization.metadata : {};
  const namespace = typeof meta.namespace === 'string' ? meta.namespace : 'default';
  const post = isObj(spec.postBuild) ? spec.postBuild : {};
  const vars: Record<string, string> = {};
  const secret = new Set<string>();
  const unresolved: FluxVariables['unresolved'] = [];
  for (const ref of Array.isArray(post.substituteFrom) ? post.substituteFrom : []) {
    if (!isObj(ref) || typeof ref.name !== 'string') continue;
    const kind = ref.kind === 'Secret' ? 'Secret' : 'ConfigMap';
    const source = `${kind}/${ref.name}`;
    const found = index?.find(kind, ref.name, namespace) ?? [];
    if (found.length === 0) {
      if (ref.optional !== true) unresolved.push({ source, reason: `no ${kind} ${namespace}/${ref.name} in the repository (it is created in the cluster)` });
      continue;
    }
    const o = found[0]!;
    const content = (x: RepoObject) => JSON.stringify([x.body.data ?? null, x.body.stringData ?? null]);
    if (found.some((x) => content(x) !== content(o))) {
      // Several files define it (one per cluster, say) with different data: which one the cluster gets is not known here.
      unresolved.push({ source, reason: `${found.length} different ${kind}s ${namespace}/${ref.name} in the repository (${found.map((x) => x.file).join(', ')}) and fleetplan cannot tell which one the cluster gets` });
      continue;
    }
    const put = (k: string, v: unknown) => {
      vars[k] = String(v).replace(/\n/g, '');
      if (kind === 'Secret') secret.add(k);
      else secret.delete(k);
    };
    if (isObj(o.body.sops)) {
      // SOPS encrypts values, never keys (ADR 0381): a Secret's variables are known and written
      // redacted, as a plaintext Secret's are; a ConfigMap's values would be printed, so it stays unknown.
      if (kind !== 'Secret') {
        unresolved.push({ source, reason: `${o.file} is SOPS-encrypted` });
        continue;
      }
      for (const field of ['data', 'stringData']) if (isObj(o.body[field])) for (const k of Object.keys(o.body[field])) put(k, '');
      continue;
    }
    if (isObj(o.body.data)) {
      for (const [k, v] of Object.entries(o.body.data)) put(k, kind === 'Secret' ? Buffer.from(String(v), 'base64').toString('utf8') : v);
    }
    if (kind === 'Secret' && isObj(o.body.stringData)) for (const [k, v] of Object.entries(o.body.stringData)) put(k, v);
  }
  if (isObj(post.substitute)) {
    for (const [k, v] of Object.entries(post.substitute)) {
      vars[k] = String(v).replace(/\n/g, '');
      secret.delete(k);
    }
  }
  return { vars, secret, unresolved, active: Object.keys(vars).length > 0 || unresolved.length > 0 || post.substituteStrategy === 'Always' };
}

/**
 * Without a layout's scope (helmfile-flux): whether the GitRepository `namespace/name` is this
 * repository — flux-system, or a GitRepository of the repository with the same URL and
 * ref as that one (its object in the repository, else the clone's origin and checked-out branch),
 * the rule ADR 0380 gives the flux layout's Kustomizations.
 */
export function repositoryGitSources(fs: RepoFileSystem, index: ConfigLookup): (name: string, namespace: string) => boolean {
  let self: { url?: string; ref?: string } | undefined;
  return (name, namespace) => {
    // By name, in any namespace, as fleetplan read flux-system before (a sourceRef without a namespace).
    if (name === 'flux-system') return true;
    const other = index.find('GitRepository', name, namespace)[0];
    const spec = other && isObj(other.body.spec) ? other.body.spec : undefined;
    if (!spec || typeof spec.url !== 'string') return false;
    if (!self) {
      const own = index.find('GitRepository', 'flux-system', 'flux-system')[0];
      const ownSpec = own && isObj(own.body.spec) ? own.body.spec : undefined;
      const url = typeof ownSpec?.url === 'string' ? ownSpec.url : originURL(fs);
      const ref = ownSpec ? gitRefText(ownSpec.ref) : checkedOutRef(fs);
      self = { ...(url !== undefined ? { url } : {}), ...(ref !== undefined ? { ref } : {}) };
    }
    const ref = gitRefText(spec.ref);
    return self.url !== undefined && sameRepository(spec.url, self.url) && ref !== undefined && ref === self.ref;
  };
}
