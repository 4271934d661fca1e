/**
 * helmfile's command-line state values (`--state-values-file FILE`, `--state-values-set KEY=VALUE`),
 * read as helmfile reads them (pkg/config/config.go, pkg/maputil, pkg/environment): the files'
 * values are merged over the environment values (and its secrets), the set values over those, and
 * both again after every part of the state, for the top-level helmfiles only (helmfile does not pass
 * them to a sub-helmfile of `helmfiles:`). Decisions: docs/adr/0405-helmfile-state-values-flags.md.
 */
import { InputError } from '../errors/index.js';
import { isPlainObject } from '../model/merge.js';
import { joinRepoPath as joinRelative } from '../model/repo-path.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { parseYamlAll } from '../yaml/index.js';

/**
 * The state values given on the command line: each file as given, with its values as read from
 * the current folder (absent: no such file there), then the set values. Which copy of a relative
 * file a state gets is resolveStateValues' to say.
 */
export interface HelmfileStateValues {
  files: { name: string; values?: Record<string, unknown> }[];
  set: Record<string, unknown>;
  /** The flags as given, for the plan's note (`--state-values-set ns=prod`). */
  given: string[];
}

/** The state values one top-level state gets: each file's values in order, then the set values. */
export interface ResolvedStateValues {
  files: Record<string, unknown>[];
  set: Record<string, unknown>;
}

/** helmfile's typedVal: true/false/null (any case), 0 and integers without a leading zero as numbers, else the text. */
function typedValue(text: string): unknown {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (text === '0') return 0;
  if (text !== '' && text[0] !== '0' && /^[+-]?\d+$/.test(text)) {
    const n = BigInt(text);
    // strconv.ParseInt(…, 64): out of range stays text.
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return Number(n);
  }
  return text;
}

/** helmfile's ParseKey: `.` separates, `\.` is a dot of the key. */
function parseKey(key: string): string[] {
  const out: string[] = [];
  let part = '';
  let escaped = false;
  for (const ch of key) {
    if (!escaped && ch === '\\') {
      escaped = true;
      continue;
    }
    if (ch === '.' && !escaped) {
      out.push(part);
      part = '';
    } else part += ch;
    escaped = false;
  }
  if (part.length) out.push(part);
  return out;
}

/**
 * The values of `--state-values-set` arguments, as helmfile builds them: each argument is split on
 * `,`, each piece on its first `=`; a later key replaces an earlier one, and a key under a key that
 * holds no map replaces it with one. Throws InputError for a piece without `=` (helmfile panics) and
 * for an index (`list[0]=x`), which fleetplan does not read.
 */
export function parseStateValuesSet(args: readonly string[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const arg of args) {
    for (const piece of arg.split(',')) {
      const eq = piece.indexOf('=');
      if (eq < 0) throw new InputError(`--state-values-set ${arg}: ${JSON.stringify(piece)} is not KEY=VALUE`, { code: 'bad-state-values', hint: 'write --state-values-set key.path=value (several separated by commas)' });
      const key = parseKey(piece.slice(0, eq));
      if (key.length === 0) throw new InputError(`--state-values-set ${arg}: ${JSON.stringify(piece)} has no key`, { code: 'bad-state-values', hint: 'write --state-values-set key.path=value' });
      if (key.some((k) => /\[\s*\d+\s*\]/.test(k))) throw new InputError(`--state-values-set ${arg}: list indexes (${piece.slice(0, eq)}) are not read by fleetplan`, { code: 'bad-state-values', hint: 'set the whole list in a --state-values-file instead' });
      let at = set;
      for (const k of key.slice(0, -1)) {
        const next = at[k];
        if (!isPlainObject(next)) at[k] = {};
        at = at[k] as Record<string, unknown>;
      }
      at[key[key.length - 1]!] = typedValue(piece.slice(eq + 1));
    }
  }
  return set;
}

/** helmfile's mergeSlices: an override list holding a null merges element by element, any other replaces. */
function mergeLists(base: readonly unknown[], over: readonly unknown[]): unknown[] {
  if (!over.some((v) => v === null || v === undefined)) return [...over];
  const out = [...base];
  over.forEach((v, i) => {
    if (v === null || v === undefined) {
      if (i >= out.length) out[i] = null;
      return;
    }
    const b = out[i];
    out[i] = isPlainObject(v) && isPlainObject(b) ? mergeStateValues(b, v) : v;
  });
  return out;
}

/**
 * helmfile's MergeMaps: maps merge key by key; a null never replaces a key that is there; lists as
 * mergeLists; anything else replaces.
 */
export function mergeStateValues(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    if (v === null || v === undefined) {
      if (!Object.hasOwn(out, k)) out[k] = null;
    } else if (isPlainObject(v) && isPlainObject(b)) out[k] = mergeStateValues(b, v);
    else if (Array.isArray(v) && Array.isArray(b)) out[k] = mergeLists(b, v);
    else out[k] = v;
  }
  return out;
}

/**
 * The state values the top-level state `file` gets, with its relative `--state-values-file` paths
 * resolved as helmfile resolves them (ADR 0405): from the state's folder when helmfile reads that
 * state alone (it changes into the folder first: pkg/app/app.go `a.within(absd, processFile)`),
 * read through `fs`; from the current folder when it reads several state files (helmfile.d/ of
 * more than one file), as the command line read them. An absolute path is the same file anywhere.
 * Throws InputError for a file helmfile would not find.
 */
export function resolveStateValues(state: HelmfileStateValues, file: string, alone: boolean, fs: RepoFileSystem): ResolvedStateValues {
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  const files = state.files.map(({ name, values }) => {
    if (alone && !name.startsWith('/')) {
      const path = joinRelative(dir, name);
      if (path === undefined || !fs.exists(path) || fs.isDirectory(path)) {
        throw new InputError(`--state-values-file ${name}: helmfile reads it from the folder of ${file} (${path ?? name} is not a file of the repository)`, { code: 'bad-state-values', hint: `helmfile changes into the folder of a state file it reads alone; give the path from there${dir === '.' ? '' : ` (${dir}/)`}, or an absolute one` });
      }
      return stateValuesFile(path, fs.readText(path));
    }
    if (values === undefined) throw new InputError(`--state-values-file ${name}: no such file in the current folder, where helmfile reads it when it reads several state files`, { code: 'bad-state-values', hint: 'give the path from the current folder, or an absolute one' });
    return values;
  });
  return { files, set: state.set };
}

/** `values` with the command line's state values over them: the files' in order, then the set ones. */
export function applyStateValues(values: Record<string, unknown>, state: ResolvedStateValues): Record<string, unknown> {
  let out = values;
  for (const f of state.files) out = mergeStateValues(out, f);
  return Object.keys(state.set).length ? mergeStateValues(out, state.set) : out;
}

/**
 * The state values of the command line: `files` (`--state-values-file`, read by the caller from the
 * current folder, in order; no text: not there) and `set` (`--state-values-set` arguments). A file is
 * YAML whose first document is a map; a `.gotmpl` file (helmfile renders it) is not read. Throws
 * InputError naming the file.
 */
export function readStateValues(files: readonly { name: string; text?: string }[], set: readonly string[]): HelmfileStateValues {
  const read = files.map(({ name, text }) => {
    if (name.endsWith('.gotmpl')) throw new InputError(`--state-values-file ${name}: a values template, which helmfile renders and fleetplan does not read`, { code: 'bad-state-values', location: { file: name }, hint: 'give the rendered values as a plain YAML file' });
    return text === undefined ? { name } : { name, values: stateValuesFile(name, text) };
  });
  return { files: read, set: parseStateValuesSet(set), given: [...files.map((f) => `--state-values-file ${f.name}`), ...set.map((s) => `--state-values-set ${s}`)] };
}

/** A state values file's values: YAML whose first document is a map. Throws InputError naming the file. */
function stateValuesFile(name: string, text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYamlAll(text, { schema: 'core' })[0];
  } catch (e) {
    throw new InputError(`--state-values-file ${name}: not YAML: ${(e as Error).message.split('\n')[0]}`, { code: 'bad-state-values', location: { file: name }, hint: 'fix the YAML', cause: e });
  }
  if (doc === undefined || doc === null) return {};
  if (!isPlainObject(doc)) throw new InputError(`--state-values-file ${name}: the first document is not a map of values`, { code: 'bad-state-values', location: { file: name }, hint: 'write the values as a YAML map (key: value)' });
  return doc;
}
