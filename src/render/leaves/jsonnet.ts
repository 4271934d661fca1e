/**
 * Jsonnet files of an Argo CD directory source, as the repo-server evaluates them
 * (reposerver/repository/repository.go: findManifests, makeJsonnetVM; ADR 0303):
 * - every `*.jsonnet` file the directory selection keeps (`.libsonnet` never: only
 *   `.yaml|.yml|.json|.jsonnet` are read), in the directory walk's order among the YAML files;
 *   a file holding `+argocd:skip-file-rendering` is left out;
 * - `directory.jsonnet.extVars` and `tlas` (`{name, value, code}`; a `code` value is Jsonnet, any
 *   other a string), their values with the build environment substituted;
 * - import search: the importing file's directory, then the `libs` (relative to the repository
 *   root, last first), then the source path; a lib that resolves outside the repository is an error;
 * - the output is a JSON array of objects or one object, each with a `kind`.
 *
 * The evaluation runs in an external binary (src/adapters/jsonnet.ts), which would read any file
 * an `import` names. So before it runs, the imports are read here (an import path is always a
 * string literal in Jsonnet) and resolved as the importer resolves them: an import that reaches a
 * file outside the repository is refused, and the files imported are the build's inputs (cache key).
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../../errors/index.js';
import { isPlainObject } from '../../model/merge.js';
import type { SourceReader } from '../../ports/source-reader.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';

export interface JsonnetVariable {
  name: string;
  value: string;
  /** The value is Jsonnet code (`--ext-code` / `--tla-code`), not a string. */
  code: boolean;
}

export interface JsonnetSettings {
  extVars: JsonnetVariable[];
  tlas: JsonnetVariable[];
  /** Library paths as written (relative to the repository root). */
  libs: string[];
}

/** Argo CD's marker: a file holding it is not rendered. */
export const SKIP_RENDERING_MARKER = '+argocd:skip-file-rendering';

/** Default bounds of one evaluation: Argo CD's exec timeout (90 s) and 64 MiB of JSON. */
export const JSONNET_TIMEOUT_MS = 90_000;
export const JSONNET_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * `spec.source.directory.jsonnet` of an Argo CD source, with `subst` (Argo CD's Env.Envsubst)
 * applied to the extVar and TLA values, as makeJsonnetVM does. Entries without a name are dropped.
 */
export function jsonnetSettings(source: Record<string, unknown>, subst: (value: string) => string = (v) => v): JsonnetSettings {
  const dir = isPlainObject(source.directory) ? source.directory : {};
  const j = isPlainObject(dir.jsonnet) ? dir.jsonnet : {};
  const vars = (list: unknown): JsonnetVariable[] =>
    (Array.isArray(list) ? list : []).filter(isPlainObject).filter((v) => typeof v.name === 'string' && v.name !== '').map((v) => ({
      name: v.name as string,
      value: subst(v.value === undefined || v.value === null ? '' : String(v.value)),
      code: v.code === true,
    }));
  return {
    extVars: vars(j.extVars),
    tlas: vars(j.tlas),
    libs: (Array.isArray(j.libs) ? j.libs : []).filter((l): l is string => typeof l === 'string'),
  };
}

/** The library search path: the source directory, then each lib (Argo CD: relative to the repository root, never outside it). */
export function jsonnetSearchPath(repoRoot: string, appDir: string, libs: readonly string[], where: string): string[] {
  const out = [appDir];
  for (const lib of libs) {
    const abs = resolve(join(repoRoot, lib));
    if (!insideDir(repoRoot, abs)) {
      throw new InputError(`${where}: jsonnet lib "${lib}" resolves outside the repository`, {
        code: 'jsonnet-outside-repo',
        hint: 'spec.source.directory.jsonnet.libs are paths relative to the repository root; Argo CD refuses one that leaves it',
      });
    }
    out.push(abs);
  }
  return out;
}

function insideDir(root: string, abs: string): boolean {
  const r = relative(root, abs);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

export interface JsonnetImport {
  kind: 'import' | 'importstr' | 'importbin';
  path: string;
  line: number;
}

/**
 * The imports of a Jsonnet text: every `import`, `importstr` and `importbin` followed by a string
 * literal (Jsonnet has no computed imports: anything else is a syntax error the evaluation reports).
 * Comments, strings, verbatim strings and text blocks are skipped as the Jsonnet lexer skips them.
 */
export function jsonnetImports(text: string): JsonnetImport[] {
  const out: JsonnetImport[] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  const skipSpace = (): void => {
    for (;;) {
      const c = text[i];
      if (c === '\n') {
        line++;
        i++;
      } else if (c === ' ' || c === '\t' || c === '\r') i++;
      else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
        while (i < n && text[i] !== '\n') i++;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        const stop = end < 0 ? n : end + 2;
        for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
        i = stop;
      } else return;
    }
  };
  /** A string literal at i, decoded; undefined when there is none. Advances past it. */
  const readString = (): string | undefined => {
    const c = text[i];
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < n && text[i] !== c) {
        const ch = text[i]!;
        if (ch === '\n') line++;
        if (ch === '\\') {
          const e = text[i + 1];
          i += 2;
          if (e === 'n') s += '\n';
          else if (e === 't') s += '\t';
          else if (e === 'r') s += '\r';
          else if (e === 'b') s += '\b';
          else if (e === 'f') s += '\f';
          else if (e === 'u') {
            s += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
            i += 4;
          } else if (e === '\n') {
            line++;
            s += '\n';
          } else s += e ?? '';
          continue;
        }
        s += ch;
        i++;
      }
      i++;
      return s;
    }
    if (c === '@' && (text[i + 1] === '"' || text[i + 1] === "'")) {
      const q = text[i + 1]!;
      let s = '';
      i += 2;
      while (i < n) {
        if (text[i] === q) {
          if (text[i + 1] === q) {
            s += q;
            i += 2;
            continue;
          }
          break;
        }
        if (text[i] === '\n') line++;
        s += text[i];
        i++;
      }
      i++;
      return s;
    }
    if (text.startsWith('|||', i)) return readTextBlock();
    return undefined;
  };
  /** `|||` (or `|||-`), a newline, lines sharing the first line's indentation, then `|||`. */
  const readTextBlock = (): string => {
    i += 3;
    const chomp = text[i] === '-';
    if (chomp) i++;
    while (i < n && text[i] !== '\n') i++;
    i++;
    line++;
    const lines: string[] = [];
    let indent: string | undefined;
    while (i < n) {
      const eol = text.indexOf('\n', i);
      const raw = text.slice(i, eol < 0 ? n : eol);
      if (indent === undefined) {
        if (raw === '') {
          lines.push('');
          i = eol < 0 ? n : eol + 1;
          line++;
          continue;
        }
        indent = /^[ \t]*/.exec(raw)![0];
      }
      if (raw !== '' && (indent === '' || !raw.startsWith(indent))) {
        // The closing line: whitespace, then |||.
        const m = /^[ \t]*\|\|\|/.exec(raw);
        i += m ? m[0].length : 0;
        break;
      }
      lines.push(raw.slice(indent.length));
      i = eol < 0 ? n : eol + 1;
      line++;
    }
    const s = lines.map((l) => `${l}\n`).join('');
    return chomp ? s.replace(/\n$/, '') : s;
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    const c = text[i]!;
    if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z0-9_]/.test(text[i]!)) i++;
      const word = text.slice(start, i);
      if (word === 'import' || word === 'importstr' || word === 'importbin') {
        const at = line;
        skipSpace();
        const s = readString();
        if (s !== undefined) out.push({ kind: word, path: s, line: at });
      }
      continue;
    }
    if (readString() !== undefined) continue;
    i++;
  }
  return out;
}

/**
 * Every file the evaluation of `entry` reads, resolved as the Jsonnet importer resolves them
 * (the importing file's directory first, then `searchPath` last first; an absolute path as it
 * is), `entry` first. Throws an InputError when an import would look outside `repoRoot`.
 * An import that matches nothing is left to the evaluation, which reports it.
 */
export function jsonnetReads(reader: Pick<SourceReader, 'kind' | 'readText'>, repoRoot: string, entry: string, searchPath: readonly string[], display: (abs: string) => string): string[] {
  const seen = new Set<string>([entry]);
  const order = [entry];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const imp of jsonnetImports(reader.readText(file))) {
      if (imp.path === '') continue;
      const candidates = isAbsolute(imp.path) ? [imp.path] : [dirname(file), ...[...searchPath].reverse()].map((d) => join(d, imp.path));
      for (const c of candidates) {
        const abs = resolve(c);
        // Outside the repository: refused whether or not a file is there (its existence is itself
        // something the evaluation would learn), even where a later search directory would match.
        if (!insideDir(repoRoot, abs)) {
          throw new InputError(`${imp.kind} "${imp.path}" would read ${abs}, outside the repository`, {
            code: 'jsonnet-outside-repo',
            location: { file: display(file), line: imp.line },
            hint: 'Jsonnet imports must stay inside the repository: vendor the library into it and name it in spec.source.directory.jsonnet.libs',
          });
        }
        const kind = reader.kind(abs);
        if (kind !== 'file') {
          if (kind === 'dir') break;
          continue;
        }
        if (!seen.has(abs)) {
          seen.add(abs);
          order.push(abs);
          if (imp.kind === 'import') queue.push(abs);
        }
        break;
      }
    }
  }
  return order;
}

/**
 * The manifests of one Jsonnet file's output as a YAML stream (one JSON document per object):
 * an array of objects, or one object; each must have a `kind` (Argo CD unmarshals them into
 * unstructured objects, which require it). Throws an Error saying what is wrong.
 */
export function jsonnetOutputManifests(json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new Error(`its output is not JSON: ${(e as Error).message}`);
  }
  const items = Array.isArray(value) ? value : [value];
  const docs: string[] = [];
  items.forEach((item, index) => {
    const where = Array.isArray(value) ? `element ${index} of its output` : 'its output';
    if (!isPlainObject(item)) {
      const what = item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item;
      throw new Error(`${where} is ${what}, not a Kubernetes object (the output must be an object or an array of objects)`);
    }
    if (typeof item.kind !== 'string' || item.kind === '') throw new Error(`${where} has no kind (Object 'Kind' is missing)`);
    docs.push(`${JSON.stringify(item)}\n`);
  });
  return docs.join('---\n');
}

/**
 * Where a Jsonnet error message points: the first `FILE:LINE:COLUMN` of a file inside `repoRoot`
 * (a STATIC ERROR names the place it could not parse; a RUNTIME ERROR's trace starts where the
 * error was raised). Both implementations name files as they were given (absolute here) or
 * relative to the working directory; `FILE` is returned relative to the repository.
 */
export function jsonnetErrorLocation(message: string, repoRoot: string): { file: string; line: number; column: number } | undefined {
  for (const m of message.matchAll(/([^\s:()"']+):(\d+):(\d+)/g)) {
    const abs = resolve(repoRoot, m[1]!);
    if (!insideDir(repoRoot, abs)) continue;
    return { file: relative(repoRoot, abs).split(sep).join('/'), line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

/**
 * The standard-library function a failed evaluation lacks, when the error is the interpreter's
 * own gap rather than the file's: Jsonnet says `field does not exist: NAME` and the line it points
 * at calls `std.NAME`. The C++ jsonnet 0.18 (Debian's) lacks functions go-jsonnet (what Argo CD
 * runs) has, e.g. std.objectKeysValues or std.all; such a file is not judged by its result.
 * `lineAt` reads a repository file's line (undefined when it cannot).
 */
export function jsonnetStdLibraryGap(message: string, repoRoot: string, lineAt: (file: string, line: number) => string | undefined): string | undefined {
  const m = /RUNTIME ERROR: field does not exist: ([A-Za-z_][A-Za-z0-9_]*)/.exec(message);
  if (!m) return undefined;
  const at = jsonnetErrorLocation(message, repoRoot);
  if (!at) return undefined;
  const text = lineAt(at.file, at.line);
  return text !== undefined && new RegExp(`\\bstd\\s*\\.\\s*${m[1]}\\b`).test(text) ? m[1] : undefined;
}

/** Line `n` (1-based) of a repository file, or undefined. */
export function lineOf(fs: RepoFileSystem, file: string, n: number): string | undefined {
  try {
    return fs.readText(file).split('\n')[n - 1];
  } catch {
    return undefined;
  }
}
