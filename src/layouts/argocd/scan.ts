/**
 * What a repository holds for Argo CD, read statically: every Application and ApplicationSet in a
 * plain YAML file, every cluster Secret, Helm charts whose templates produce Applications, and the
 * kustomizations that pull those files in. Pure over a RepoFileSystem; the async part that builds
 * sources with the real tools is follow.ts.
 */
import { isPlainObject } from '../../model/merge.js';
import { joinRepoPath } from '../../model/repo-path.js';
import type { Finding } from '../../model/finding.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import { KUSTOMIZATION_FILES } from '../../load/kustomization.js';
import { parseYamlAll, parseAllDocuments, lineCounter, isMap, isPair, isScalar, isSeq } from '../../yaml/index.js';
import type { Document } from '../../yaml/index.js';
import { expandListDocument, isListDocument } from '../../model/k8s-list.js';

export const ARGO_API = 'argoproj.io';
export type ArgoKind = 'Application' | 'ApplicationSet';

/** One Argo CD object as written in a repository file. */
export interface ArgoObject {
  file: string;
  /** Index of the YAML document in the file. */
  index: number;
  /** Index of the item, for an object that is an item of a list document (model/k8s-list.ts). */
  item?: number;
  kind: ArgoKind;
  name: string;
  namespace: string | undefined;
  doc: Record<string, unknown>;
  /** Line of its `metadata.name` in the file (the YAML parser's position); absent when not found. */
  line?: number;
}

export interface RepoScan {
  objects: ArgoObject[];
  /** Cluster Secrets (label argocd.argoproj.io/secret-type: cluster), as documents. */
  clusterSecrets: { file: string; doc: Record<string, unknown> }[];
  /** Helm chart directories with a template that writes an argoproj.io Application or ApplicationSet. */
  argoCharts: string[];
  /** Files that hold Argo CD objects or cluster Secrets but do not parse. */
  findings: Finding[];
}

/** Folders never read: version control, CI settings and vendored dependencies hold no GitOps objects. */
const SKIP_DIRS = new Set(['.git', '.github', '.gitlab', 'node_modules', '.terraform']);
const MAX_FILE_BYTES = 2_000_000;

function isYaml(name: string): boolean {
  return /\.(ya?ml|json)$/i.test(name);
}

/** Every file of the repository (sorted, depth first), without the SKIP_DIRS. */
export function repositoryFiles(fs: RepoFileSystem, dir = '.'): string[] {
  const out: string[] = [];
  for (const name of fs.list(dir)) {
    if (SKIP_DIRS.has(name)) continue;
    const path = dir === '.' ? name : `${dir}/${name}`;
    if (fs.isDirectory(path)) out.push(...repositoryFiles(fs, path));
    else out.push(path);
  }
  return out;
}

function chartOf(fs: RepoFileSystem, file: string): string | undefined {
  const parts = file.split('/');
  const t = parts.lastIndexOf('templates');
  if (t < 0) return undefined;
  const dir = parts.slice(0, t).join('/') || '.';
  return fs.exists(dir === '.' ? 'Chart.yaml' : `${dir}/Chart.yaml`) ? dir : undefined;
}

const ARGO_KIND = /^\s*(-\s+)?kind:\s*["']?(Application|ApplicationSet)["']?\s*$/m;
const SECRET_TYPE = /argocd\.argoproj\.io\/secret-type/;

/**
 * The line of `metadata.name` of each document (`<index>\0<0>\0doc`) and of each item of a list
 * document (`<index>\0<n>\0item`), from the YAML parser's positions; documents are counted as
 * js-yaml counts them (empty ones skipped). Empty when the text does not parse.
 */
function nameLines(text: string): Map<string, { line: number; name: unknown }> {
  const out = new Map<string, { line: number; name: unknown }>();
  const lc = lineCounter();
  let docs: Document[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lc }) as Document[];
  } catch {
    return out;
  }
  if (!Array.isArray(docs)) return out;
  const nameOf = (node: unknown): { line: number; name: unknown } | undefined => {
    if (!isMap(node)) return undefined;
    const meta = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'metadata');
    const m = meta && isPair(meta) ? meta.value : undefined;
    if (!isMap(m)) return undefined;
    const name = m.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'name');
    const at = name && isPair(name) ? (name.key as { range?: [number, number, number] }).range?.[0] : undefined;
    return at === undefined || !isPair(name) || !isScalar(name.value) ? undefined : { line: lc.linePos(at).line, name: name.value.value };
  };
  let index = 0;
  for (const d of docs) {
    const c = d.contents as unknown;
    const line = nameOf(c);
    if (line !== undefined) out.set(`${index}\u00000\u0000doc`, line);
    if (isMap(c)) {
      const items = c.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'items');
      const seq = items && isPair(items) ? items.value : undefined;
      if (isSeq(seq)) seq.items.forEach((it, n) => {
        const l = nameOf(it);
        if (l !== undefined) out.set(`${index}\u0000${n}\u0000item`, l);
      });
    }
    index++;
  }
  return out;
}

/** The text without its CustomResourceDefinition documents (split at `---` lines, as YAML streams are). */
function withoutCrds(text: string): string {
  return text.split(/^---[^\n]*$/m).filter((d) => !/^kind:\s*["']?CustomResourceDefinition\b/m.test(d)).join('\n---\n');
}

export function scanRepository(fs: RepoFileSystem): RepoScan {
  const scan: RepoScan = { objects: [], clusterSecrets: [], argoCharts: [], findings: [] };
  const charts = new Set<string>();
  for (const file of repositoryFiles(fs)) {
    // Helm renders every file of a chart's templates/ but partials (`_*`) and NOTES.txt, whatever its extension (`*.yaml.tpl`).
    if (!isYaml(file) && !(/(^|\/)templates\/(.*\/)?[^_/][^/]*$/.test(file) && !file.endsWith('/NOTES.txt') && chartOf(fs, file) !== undefined)) continue;
    let text: string;
    try {
      text = fs.readText(file);
    } catch (e) {
      // A link out of the repository is its own finding (symlink-outside-repo); anything else
      // that cannot be read is said, since Argo CD objects in it would be missing from the plan.
      const code = (e as { code?: unknown }).code;
      if (code !== 'symlink-outside-repo') scan.findings.push(notScanned(file, e));
      continue;
    }
    if (text.length > MAX_FILE_BYTES) {
      if (text.includes(ARGO_API)) scan.findings.push(notScanned(file, new Error(`${text.length} characters, more than the scan limit of ${MAX_FILE_BYTES}`)));
      continue;
    }
    if (!text.includes(ARGO_API)) continue;
    // A CustomResourceDefinition names the kind (`names: kind: Application`); it writes no object of it.
    const argo = ARGO_KIND.test(/^kind:\s*["']?CustomResourceDefinition/m.test(text) ? withoutCrds(text) : text);
    const secret = SECRET_TYPE.test(text);
    if (!argo && !secret) continue;
    const chart = chartOf(fs, file);
    if (chart !== undefined) {
      if (argo) charts.add(chart);
      continue;
    }
    let docs: unknown[];
    try {
      // As kubectl and Argo CD read an Application file (go-yaml v2: `prune: yes` is true, ADR 0389).
      docs = parseYamlAll(text, { schema: 'kubernetes' });
    } catch (e) {
      scan.findings.push({
        severity: 'warning',
        code: 'unreadable-file',
        message: `${file} mentions Argo CD objects but is not YAML fleetplan can read: ${(e as Error).message.split('\n')[0]}`,
        file,
        hint: 'fix the YAML (Argo CD cannot read it either), or keep templates under a chart\'s templates/ folder',
      });
      continue;
    }
    const lines = nameLines(text);
    for (const [index, document] of docs.entries()) {
      // A list document is its items, as the repo-server applies it (ADR 0300).
      let items: unknown[];
      try {
        items = expandListDocument(document);
      } catch {
        items = [];
      }
      for (const [n, doc] of items.entries()) {
        const item = isListDocument(document) ? { item: n } : {};
        if (!isPlainObject(doc) || !isPlainObject(doc.metadata)) continue;
        const api = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
        if ((doc.kind === 'Application' || doc.kind === 'ApplicationSet') && api.startsWith(`${ARGO_API}/`) && typeof doc.metadata.name === 'string') {
          const ns = doc.metadata.namespace;
          // The position only when the parsers agree on the document (the same name there).
          const pos = lines.get(`${index}\u0000${n}\u0000${isListDocument(document) ? 'item' : 'doc'}`);
          const line = pos && pos.name === doc.metadata.name ? pos.line : undefined;
          scan.objects.push({ file, index, ...item, kind: doc.kind, name: doc.metadata.name, namespace: typeof ns === 'string' ? ns : undefined, doc, ...(line !== undefined ? { line } : {}) });
        } else if (doc.kind === 'Secret' && isPlainObject(doc.metadata.labels) && doc.metadata.labels['argocd.argoproj.io/secret-type'] === 'cluster') {
          scan.clusterSecrets.push({ file, doc });
        }
      }
    }
  }
  scan.argoCharts = [...charts].sort();
  return scan;
}

export function kustomizationIn(fs: RepoFileSystem, dir: string): string | undefined {
  return KUSTOMIZATION_FILES.map((f) => (dir === '.' || dir === '' ? f : `${dir}/${f}`)).find((f) => fs.exists(f));
}

function entries(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['resources', 'components', 'bases']) {
    const v = doc[key];
    if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/**
 * A kustomization's resources, components and bases, recursively: the repository files they name
 * (`files`), the kustomization directories they pass through (`dirs`), and entries that name
 * nothing in the repository (`missing`, which `kustomize build` fails on). Remote entries are left out.
 */
export function kustomizationClosure(fs: RepoFileSystem, dir: string): { files: Set<string>; dirs: Set<string>; missing: { file: string; entry: string }[] } {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const missing: { file: string; entry: string }[] = [];
  const visit = (d: string): void => {
    if (dirs.has(d)) return;
    dirs.add(d);
    const k = kustomizationIn(fs, d);
    if (!k) return;
    files.add(k);
    let doc: unknown;
    try {
      doc = parseYamlAll(fs.readText(k))[0];
    } catch {
      return;
    }
    if (!isPlainObject(doc)) return;
    for (const entry of entries(doc)) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || entry.startsWith('github.com/') || entry.includes('?ref=')) continue;
      const p = joinRepoPath(d, entry);
      if (p === undefined) continue;
      if (fs.isDirectory(p)) visit(p);
      else if (fs.exists(p)) files.add(p);
      else missing.push({ file: k, entry });
    }
  };
  visit(dir);
  return { files, dirs, missing };
}

/**
 * Kustomization directories that pull in at least one of `files` and that no other kustomization
 * of the repository pulls in: the directories a person applies with `kubectl apply -k` to start
 * Argo CD off (e.g. `clusters/global`), sorted.
 */
export function topKustomizations(fs: RepoFileSystem, allFiles: readonly string[], files: ReadonlySet<string>): string[] {
  const kdirs = allFiles.filter((f) => KUSTOMIZATION_FILES.some((k) => f === k || f.endsWith(`/${k}`))).map((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.'));
  const closures = new Map(kdirs.map((d) => [d, kustomizationClosure(fs, d)]));
  const included = new Set<string>();
  for (const [d, c] of closures) for (const x of c.dirs) if (x !== d) included.add(x);
  return kdirs.filter((d) => !included.has(d) && [...closures.get(d)!.files].some((f) => files.has(f))).sort();
}

/**
 * A YAML file the scan could not read (too large, not a regular file, unreadable): an info finding,
 * because a large CRD bundle is common and harmless, but Argo CD objects in it would be missing.
 */
function notScanned(file: string, e: unknown): Finding {
  return {
    severity: 'info',
    code: 'not-read',
    message: `${file} was not scanned for Argo CD objects (${(e as Error).message.split('\n')[0]}): an Application or ApplicationSet in it is not found as a root, only where another Application's source reads it`,
    file,
    hint: 'if it holds Applications or ApplicationSets, split it into smaller regular files; else ignore this',
  };
}
