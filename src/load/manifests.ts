/**
 * What an app applies, read statically: the YAML objects of a kustomize directory (following
 * `resources`, `bases` and `components` to files and directories inside the repository), or the
 * plain YAML files of a directory without a kustomization. No kustomize binary: patches,
 * generators and Helm inflation are not applied, so this is the set of objects the directory
 * names, with the namespace a kustomization sets.
 *
 * Cost: every file is parsed once and every directory read once per validation (cached by
 * repository path), however many clusters and apps share it.
 */
import type { RepoFileSystem } from '../ports/filesystem.js';
import { apiGroup } from '../model/catalog/operators.js';
import { expandListDocument, isListDocument } from '../model/k8s-list.js';

export interface ManifestObject {
  apiVersion: string;
  kind: string;
  group: string;
  name: string | undefined;
  /** metadata.namespace, or the namespace a kustomization sets. */
  namespace: string | undefined;
  /** Repository-relative file and the line where the document starts. */
  file: string;
  line: number;
  /** The parsed document. */
  body: Record<string, unknown>;
  /** Lines of top-level keys in the document (for pointing at `data:` and friends). */
  keyLines: Record<string, number>;
  /** A kustomization on the way renames it (namePrefix/nameSuffix): `name` is not the applied name. */
  renamed?: boolean;
  /** Taken from a real build (`render --leaves`): `body` is what the tool applies, transformations included. */
  built?: boolean;
}

export type DirectoryKind = 'kustomize' | 'chart' | 'plain' | 'empty' | 'missing';

export interface DirectoryManifests {
  path: string;
  kind: DirectoryKind;
  objects: ManifestObject[];
  /**
   * References of the kustomizations on the way (transitively) whose objects are not in
   * `objects`: remote ones, and local ones that leave the repository or name nothing. Absent
   * when there are none, so `objects` is then everything the directory names.
   */
  unresolved?: UnresolvedReference[];
}

export interface UnresolvedReference {
  /** The kustomization directory and the entry as written. */
  dir: string;
  entry: string;
  remote: boolean;
  /** The namespace the kustomizations on the way would set on what the entry names (the outermost wins). */
  namespace?: string;
}

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** One repository's manifests, parsed lazily and cached. */
export class ManifestIndex {
  private readonly files = new Map<string, ManifestObject[]>();
  private readonly dirs = new Map<string, DirectoryManifests>();
  private readonly building = new Set<string>();

  constructor(readonly fs: RepoFileSystem) {}

  /** The objects of one YAML file (empty when it cannot be read or parsed). */
  file(path: string): ManifestObject[] {
    let objs = this.files.get(path);
    if (!objs) {
      let text = '';
      try {
        text = this.fs.readText(path);
      } catch {
        text = '';
      }
      objs = parseManifests(path, text);
      this.files.set(path, objs);
    }
    return objs;
  }

  directory(path: string): DirectoryManifests {
    const cached = this.dirs.get(path);
    if (cached) return cached;
    if (this.building.has(path)) return { path, kind: 'empty', objects: [] };
    this.building.add(path);
    const result = this.readDirectory(path);
    this.building.delete(path);
    this.dirs.set(path, result);
    return result;
  }

  private readDirectory(path: string): DirectoryManifests {
    if (!this.fs.isDirectory(path)) return { path, kind: 'missing', objects: [] };
    const entries = this.fs.list(path);
    const kfile = KUSTOMIZATION_FILES.find((f) => entries.includes(f));
    if (kfile) return this.readKustomization(path, `${join(path, kfile)}`);
    if (entries.includes('Chart.yaml')) return { path, kind: 'chart', objects: [] };
    const yamls = entries.filter((e) => /\.(ya?ml|json)$/.test(e)).map((e) => join(path, e));
    const objects = yamls.flatMap((f) => this.file(f));
    return { path, kind: objects.length || yamls.length ? 'plain' : 'empty', objects};
  }

  private readKustomization(dir: string, kfile: string): DirectoryManifests {
    const out: DirectoryManifests = { path: dir, kind: 'kustomize', objects: [] };
    let k: Record<string, unknown> = {};
    try {
      const v = parseYaml(this.fs.readText(kfile));
      if (v && typeof v === 'object' && !Array.isArray(v)) k = v as Record<string, unknown>;
    } catch {
      return out;
    }
    const refs = [...strings(k.resources), ...strings(k.bases), ...strings(k.components)];
    const unresolved: UnresolvedReference[] = [];
    for (const ref of refs) {
      if (/^[a-z]+:\/\//i.test(ref) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref) || ref.startsWith('git@')) {
        unresolved.push({ dir, entry: ref, remote: true });
        continue;
      }
      const target = joinRelative(dir, ref);
      // References that leave the repository or name nothing are the kustomize-references rule's
      // to report; here they are only listed as unresolved.
      if (target !== undefined && this.fs.isDirectory(target)) {
        const sub = this.directory(target);
        out.objects.push(...sub.objects);
        if (sub.unresolved) unresolved.push(...sub.unresolved);
      } else if (target !== undefined && this.fs.exists(target)) {
        out.objects.push(...this.file(target));
      } else {
        unresolved.push({ dir, entry: ref, remote: false });
      }
    }
    const ns = typeof k.namespace === 'string' ? k.namespace : undefined;
    if (ns) out.objects = out.objects.map((o) => inKustomizeNamespace(o, ns));
    if (unresolved.length) out.unresolved = ns ? unresolved.map((u) => ({ ...u, namespace: ns })) : unresolved;
    if (typeof k.namePrefix === 'string' || typeof k.nameSuffix === 'string') out.objects = out.objects.map((o) => ({ ...o, renamed: true }));
    return out;
  }
}

/**
 * An object of a kustomization whose `namespace:` is `ns`, as kustomize's namespace transformer
 * gives it: a namespaced object in `ns`, a Namespace named `ns` (whatever the file calls it), any
 * other cluster-scoped object as it is.
 */
export function inKustomizeNamespace(o: ManifestObject, ns: string): ManifestObject {
  if (o.kind === 'Namespace' && o.group === '') {
    const md = typeof o.body.metadata === 'object' && o.body.metadata !== null ? (o.body.metadata as Record<string, unknown>) : {};
    return { ...o, name: ns, body: { ...o.body, metadata: { ...md, name: ns } } };
  }
  return CLUSTER_SCOPED.has(o.kind) ? o : { ...o, namespace: ns };
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function join(dir: string, name: string): string {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}

import { joinRepoPath as joinRelative } from '../model/repo-path.js';
import { parseYaml } from '../yaml/index.js';
export { joinRelative };

/** Kinds that have no namespace (a kustomization `namespace:` leaves them alone). */
export const CLUSTER_SCOPED = new Set([
  'Namespace',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'StorageClass',
  'PersistentVolume',
  'PriorityClass',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'APIService',
  'IngressClass',
  'RuntimeClass',
  'CSIDriver',
  'ClusterCSIDriver',
  'VolumeSnapshotClass',
  'ClusterIssuer',
  'ClusterSecretStore',
  'ClusterExternalSecret',
  'SecurityContextConstraints',
  'ClusterVersion',
  'OAuth',
  'Console',
  'Proxy',
  'APIServer',
  'Ingress.config.openshift.io',
  'ManagedCluster',
  'ManagedClusterSet',
  'MultiClusterObservability',
  'AgentServiceConfig',
  'Provisioning',
  'NodeNetworkConfigurationPolicy',
  'NMState',
  'NodeHealthCheck',
  'ExternalDNS',
  'MachineConfig',
  'MachineConfigPool',
  'KubeletConfig',
  'ClusterPolicy',
  'ConsoleLink',
  'ConsoleNotification',
  'ConsoleCLIDownload',
  'ConsoleYAMLSample',
  'ConsoleQuickStart',
  'ConsolePlugin',
]);

/**
 * YAML text → objects with their start lines. Documents that are not Kubernetes objects
 * (no apiVersion/kind) are skipped; a document that does not parse is skipped too — the
 * tools that apply it will say why, and it is not what these rules are about.
 */
export function parseManifests(file: string, text: string): ManifestObject[] {
  const out: ManifestObject[] = [];
  const lines = text.split('\n');
  let start = 0;
  const flush = (end: number) => {
    const chunk = lines.slice(start, end);
    const firstContent = chunk.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
    if (firstContent >= 0) {
      let doc: unknown;
      try {
        doc = parseYaml(chunk.join('\n'));
      } catch {
        doc = undefined;
      }
      // A list (any document whose items is an array) is its items, as Argo CD and Flux apply it (model/k8s-list.ts).
      let items: unknown[];
      try {
        items = expandListDocument(doc);
      } catch {
        items = [];
      }
      const itemPlaces = isListDocument(doc) ? listItemLines(chunk, items.length) : undefined;
      items.forEach((item, n) => {
        if (!isObj(item) || typeof item.apiVersion !== 'string' || typeof item.kind !== 'string') return;
        const meta = isObj(item.metadata) ? item.metadata : {};
        const keyLines: Record<string, number> = {};
        const place = itemPlaces?.[n];
        if (place) {
          for (const [k, i] of Object.entries(place.keys)) keyLines[k] = start + i + 1;
        } else if (!itemPlaces) {
          chunk.forEach((l, i) => {
            const m = /^([A-Za-z][\w-]*):/.exec(l);
            if (m && keyLines[m[1]!] === undefined) keyLines[m[1]!] = start + i + 1;
          });
        }
        out.push({
          apiVersion: item.apiVersion,
          kind: item.kind,
          group: apiGroup(item.apiVersion),
          name: typeof meta.name === 'string' ? meta.name : undefined,
          namespace: typeof meta.namespace === 'string' ? meta.namespace : undefined,
          file,
          line: place ? start + place.line + 1 : start + firstContent + 1,
          body: item,
          keyLines,
        });
      });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^---(\s|$)/.test(lines[i]!)) {
      flush(i);
      start = i + 1;
    } else if (/^\.\.\.\s*$/.test(lines[i]!)) {
      flush(i);
      start = i + 1;
    }
  }
  flush(lines.length);
  return out;
}

/**
 * Where each item of a list document written in block style starts in its chunk (0-based line) and
 * the lines of its top-level keys; undefined when the items cannot be placed one to one (flow style,
 * JSON), and the caller then points at the list itself.
 */
function listItemLines(chunk: readonly string[], count: number): { line: number; keys: Record<string, number> }[] | undefined {
  const at = chunk.findIndex((l) => /^items:\s*(#.*)?$/.test(l));
  if (at < 0) return undefined;
  let indent: number | undefined;
  const places: { line: number; keys: Record<string, number> }[] = [];
  for (let i = at + 1; i < chunk.length; i++) {
    const l = chunk[i]!;
    if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
    const lead = l.length - l.trimStart().length;
    if (lead === 0 && !l.startsWith('-')) break; // the next top-level key
    const dash = /^(\s*)- ?(.*)$/.exec(l);
    if (dash && (indent === undefined || dash[1]!.length === indent)) {
      indent = dash[1]!.length;
      places.push({ line: i, keys: {} });
      const k = /^([A-Za-z][\w-]*):/.exec(dash[2]!);
      if (k) places[places.length - 1]!.keys[k[1]!] = i;
      continue;
    }
    const cur = places[places.length - 1];
    if (!cur || indent === undefined) return undefined;
    const k = new RegExp(`^ {${indent + 2}}([A-Za-z][\\w-]*):`).exec(l);
    if (k && cur.keys[k[1]!] === undefined) cur.keys[k[1]!] = i;
  }
  return places.length === count ? places : undefined;
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
