/**
 * The `environments:` each helmfile knows, as helmfile merges them: its own documents, its
 * `bases:` (relative to it), and those of a helmfile whose `helmfiles:` includes it (a sub-helmfile
 * runs in its parent's environment). Templates are not executed: a templated base or path is not
 * followed. Which releases an environment selects is src/order/helmfile-plan.ts's concern.
 * Decisions: docs/adr/0262-helmfile-dry-run-and-environments.md.
 */
import type { HelmfileEnvironment, HelmfileEnvironments } from '../model/graphs.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { lineCounter, isMap, isPair, isScalar, parseAllDocuments } from '../yaml/index.js';
import type { Document, YamlNode } from '../yaml/index.js';
import { joinRelative } from './manifests.js';

interface FileFacts {
  environments: HelmfileEnvironment[];
  bases: string[];
  helmfiles: string[];
}

function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '.' : file.slice(0, i);
}

/**
 * `text` with its Go template actions blanked and its lines kept: an action alone on its line
 * becomes an empty line, one inside a line the scalar `_`, newlines inside an action stay.
 */
function withoutActions(text: string): string {
  return text
    .replace(/^[ \t]*\{\{[^\n]*?\}\}[ \t]*$/gm, '')
    .replace(/\{\{[\s\S]*?\}\}/g, (m) => (m.includes('\n') ? m.replace(/[^\n]/g, '') : '_'));
}

function read(fs: RepoFileSystem, file: string): FileFacts {
  const out: FileFacts = { environments: [], bases: [], helmfiles: [] };
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return out;
  }
  let lc = lineCounter();
  let docs: Document[];
  try {
    docs = parseAllDocuments(text, { lineCounter: lc }) as Document[];
    // A state that is not YAML until rendered (a .gotmpl, or a helmfile.yaml that helmfile before
    // v1 rendered): its environments are read with the template actions blanked, line for line.
    if (docs.some((d) => d.errors.length) && text.includes('{{')) {
      lc = lineCounter();
      docs = parseAllDocuments(withoutActions(text), { lineCounter: lc }) as Document[];
    }
  } catch {
    return out;
  }
  const rel = (p: string) => (p.includes('{{') ? undefined : joinRelative(dirOf(file), p));
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length || !isMap(doc.contents)) continue;
    for (const pair of doc.contents.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const value = pair.value as YamlNode | null;
      if (key === 'environments' && isMap(value)) {
        for (const env of value.items) {
          if (!isPair(env) || !isScalar(env.key)) continue;
          const spec = env.value as YamlNode | null;
          const values: string[] = [];
          let missingFileHandler: string | undefined;
          const secrets: string[] = [];
          if (isMap(spec)) {
            const sec = spec.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'secrets');
            const secList = sec && isPair(sec) ? (sec.value as { items?: unknown[] } | null) : null;
            for (const item of secList?.items ?? []) secrets.push(isScalar(item) ? String(item.value) : 'inline secrets');
            const h = spec.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'missingFileHandler');
            if (h && isPair(h) && isScalar(h.value)) missingFileHandler = String(h.value.value);
            const v = spec.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'values');
            const list = v && isPair(v) ? (v.value as { items?: unknown[] } | null) : null;
            for (const item of list?.items ?? []) values.push(isScalar(item) ? String(item.value) : 'inline values');
          }
          out.environments.push({ name: String(env.key.value), file, line: lc.linePos((env.key as YamlNode).range?.[0] ?? 0).line, values, ...(missingFileHandler !== undefined ? { missingFileHandler } : {}), ...(secrets.length ? { secrets } : {}) });
        }
      } else if ((key === 'bases' || key === 'helmfiles') && value !== null && 'items' in (value as object)) {
        for (const item of (value as { items: unknown[] }).items) {
          // helmfiles: entries are paths or {path: …}.
          const path = isScalar(item) ? String(item.value) : isMap(item) ? String((item.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === 'path') as { value?: { value?: unknown } } | undefined)?.value?.value ?? '') : '';
          const target = path ? rel(path) : undefined;
          if (target !== undefined) (key === 'bases' ? out.bases : out.helmfiles).push(target);
        }
      }
    }
  }
  return out;
}

/** helmfile's missingFileHandler values that skip a missing values file rather than fail (its default is Error). */
const SKIPPING = new Set(['Warn', 'Info', 'Debug']);

/** `e` with the values files that are not in the repository and that helmfile skips (resolved from `dir`). */
function withSkipped(fs: RepoFileSystem, e: HelmfileEnvironment, dir: string): HelmfileEnvironment {
  if (e.missingFileHandler === undefined || !SKIPPING.has(e.missingFileHandler)) return e;
  const skipped = e.values.filter((v) => {
    if (v === 'inline values' || v.includes('{{')) return false;
    const path = joinRelative(dir, v);
    return path !== undefined && !fs.exists(path);
  });
  return skipped.length ? { ...e, skipped } : e;
}

/** The environments of each helmfile of `files` (those that define any). */
export function readHelmfileEnvironments(fs: RepoFileSystem, files: readonly string[]): HelmfileEnvironments[] {
  const cache = new Map<string, FileFacts>();
  const facts = (f: string) => {
    let x = cache.get(f);
    if (!x) cache.set(f, (x = read(fs, f)));
    return x;
  };
  // A base's environment values resolve from the including helmfile's folder (helmfile loads bases
  // with the includer's base path), a helmfile's own from its folder.
  const own = (f: string): HelmfileEnvironment[] => [...facts(f).bases.flatMap((b) => facts(b).environments), ...facts(f).environments].map((e) => withSkipped(fs, e, dirOf(f)));
  const parents = new Map<string, string[]>();
  for (const f of files) for (const child of facts(f).helmfiles) parents.set(child, [...(parents.get(child) ?? []), f]);
  const known = (f: string, seen: Set<string>): HelmfileEnvironment[] => {
    if (seen.has(f)) return [];
    seen.add(f);
    return [...(parents.get(f) ?? []).flatMap((p) => known(p, seen)), ...own(f)];
  };
  return files.map((file) => ({ file, environments: known(file, new Set()) })).filter((e) => e.environments.length > 0);
}
