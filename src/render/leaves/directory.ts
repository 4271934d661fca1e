/**
 * A directory-type Argo CD source (no kustomization, no Chart.yaml): the repo-server reads the
 * `.yaml`, `.yml` and `.json` files of the path — of its subdirectories too with
 * `directory.recurse` — kept by `directory.include` and not dropped by `directory.exclude`
 * (each a glob, or `{a,b}` of globs, matched against the path below the source and the file name).
 * A file that parses as no Kubernetes object is not a manifest and is skipped, unless it looks like
 * one (apiVersion, kind and metadata), which the repo-server reports as an error (ADR 0287).
 */
import { compileDoublestar } from '../../appset/glob.js';
import { isPlainObject } from '../../model/merge.js';
import { parseYamlAll } from '../../yaml/index.js';

export interface DirectoryOptions {
  recurse?: boolean;
  include?: string;
  exclude?: string;
}

/** The `directory` block of an Argo CD source, as options. */
export function directoryOptions(source: Record<string, unknown>): DirectoryOptions {
  const dir = isPlainObject(source.directory) ? source.directory : {};
  return {
    ...(dir.recurse === true ? { recurse: true } : {}),
    ...(typeof dir.include === 'string' && dir.include !== '' ? { include: dir.include } : {}),
    ...(typeof dir.exclude === 'string' && dir.exclude !== '' ? { exclude: dir.exclude } : {}),
  };
}

/**
 * Of `relFiles` (paths below the source directory, `/`-separated), the ones the repo-server reads;
 * with `jsonnet`, its `.jsonnet` files too, in the same order (jsonnet.ts evaluates them).
 */
export function selectDirectoryFiles(relFiles: readonly string[], options: DirectoryOptions, select: { jsonnet?: boolean } = {}): string[] {
  const matchers = (p: string | undefined) => (p ? p.replace(/^\{|\}$/g, '').split(',').map((x) => compileDoublestar(x.trim())) : []);
  const inc = matchers(options.include);
  const exc = matchers(options.exclude);
  const hit = (ms: ((p: string) => boolean)[], rel: string) => ms.some((m) => m(rel) || m(rel.split('/').pop()!));
  return relFiles.filter((rel) => {
    if (options.recurse !== true && rel.includes('/')) return false;
    if (!(select.jsonnet === true ? /\.(ya?ml|json|jsonnet)$/ : /\.(ya?ml|json)$/).test(rel)) return false;
    return (inc.length === 0 || hit(inc, rel)) && !hit(exc, rel);
  });
}

/**
 * The manifests of one file of a directory source, as text to append to the build's stream, or
 * undefined when the file holds no Kubernetes object. Throws (with the parser's message) when a
 * file that looks like a manifest does not parse, or mixes objects with other documents.
 */
export function directoryFileManifests(text: string): string | undefined {
  let docs: unknown[];
  try {
    docs = parseYamlAll(text);
  } catch (e) {
    if (/apiVersion:/.test(text) && /kind:/.test(text) && /metadata:/.test(text)) throw e;
    return undefined;
  }
  const present = docs.filter((d) => d !== null && d !== undefined);
  const objects = present.filter((d) => isPlainObject(d) && typeof d.apiVersion === 'string' && typeof d.kind === 'string');
  if (objects.length === 0) return undefined;
  if (objects.length !== present.length) throw new Error('some documents are Kubernetes objects (apiVersion and kind) and some are not');
  return text;
}
