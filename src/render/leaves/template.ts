/**
 * A build's output turned into files once, then filled in per app (ADR 0332).
 *
 * The general path of a leaf job substitutes the cluster's variables into the built text, parses
 * the result and dumps every object (manifests.ts). Most builds are shared by many apps that
 * differ only in the values substituted, so this module parses and dumps each distinct built text
 * once, with a sentinel where each `${NAME}` was, and for each app puts the values in at the
 * sentinels of the emitted text. It does so only where that is provably what the general path
 * gives, and otherwise says "no" (undefined) so that the caller takes the general path:
 *
 * - A text with no substitution to do (no variables for the job, or no `${NAME}` in the text) is
 *   one set of files for every app.
 * - Otherwise every `${NAME}` (an escaped `$${…}` anywhere: no) must sit on its own line in a
 *   single-line plain scalar in block context that is a mapping value (`key: …`) or a sequence
 *   item (`- …`), ending the line, with no continuation line below, never in a key, once in the
 *   parsed objects and once in the emitted files; the emitted scalar must be plain too. Then the
 *   general path's text differs from the template's only inside those scalars, which stay where
 *   they are.
 * - Per app, each such scalar with the values put in must still read back as that string (go-yaml
 *   v2's reading, as the general path parses) and be written plain with the same characters (as
 *   js-yaml dumps it): `parse(s) === s` and `dump(s) === s + "\n"`. A value that would change the
 *   scalar's type (`3`, `true`, `null`), its style (`a: b`, `#x`, `'q'`, a line break, an empty
 *   string), or the document around it fails the check, and the app takes the general path.
 * - A missing variable takes the general path, which reports it.
 *
 * - An Argo CD leaf's namespaced objects without a namespace get the Application's destination
 *   namespace (ADR 0420). The template is built once per text for all namespaces: the namespace is
 *   one more hole (after the variables), in `metadata.namespace` and the file name of each object
 *   it reaches, and a value is put in only where it is written plain, unchanged (else the general
 *   path). A kind or apiVersion with a variable in it, or a variable in a CustomResourceDefinition,
 *   could change which objects are namespaced: such a text is not templated with a namespace.
 *
 * Each template is also checked once against the general path on two sets of probe values.
 * test/render/leaf-template.test.ts compares both paths on generated documents and values.
 */
import type { OutputFile } from '../../ports/build-cache.js';
import { dumpYaml, parseYaml } from '../../yaml/index.js';
import type { ManifestObject } from './manifests.js';
import { MANIFEST_DUMP, objectFileName, parseManifests, placeInNamespace, serializeObject } from './manifests.js';

/** The substitution's grammar, as model/substitute.ts reads it (the test checks the two agree). */
const VARIABLE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
/** Sentinels: `QfpvQ<n>Qz`; a text that holds `fpvQ` already is not templated. */
const MARK = 'fpvQ';
const SENTINEL = /QfpvQ(\d+)Qz/g;
const sentinel = (i: number) => `QfpvQ${i}Qz`;

/** The emitted text split at its holes: pieces[0] + value(holes[0]) + pieces[1] + … */
interface Filled {
  pieces: string[];
  holes: number[];
}

interface TemplateFile {
  /** The file name, when no variable reaches it. */
  name?: string;
  /** Else the object's name fields, split at their sentinels once, to name it per app. */
  nameOf?: NameFields;
  index: number;
  content: Filled;
}

export interface LeafTemplate {
  /** `${NAME}` / `${NAME:-default}` in text order; empty for a constant template. */
  holes: { name: string; def: string | undefined }[];
  /** The scalars holding holes, to check per app. */
  scalars: Filled[];
  files: TemplateFile[];
  count: number;
  /**
   * Built for a destination namespace (ADR 0420): how many objects take it (the hole after the
   * variables' holes; 0: none does, the namespace changes nothing) and the kinds of unknown scope
   * read as namespaced. Undefined: objects as built.
   */
  placed?: { given: number; unknown: string[] };
}

export type VariableLookup = (name: string) => string | undefined;

/** Test seam: with `checkValues` false the per-app scalar check is skipped (the property test shows it is needed). */
export const LEAF_TEMPLATE_HOOKS = { checkValues: true };

function split(text: string): Filled {
  const pieces: string[] = [];
  const holes: number[] = [];
  let last = 0;
  for (const m of text.matchAll(SENTINEL)) {
    pieces.push(text.slice(last, m.index));
    holes.push(Number(m[1]));
    last = m.index + m[0].length;
  }
  pieces.push(text.slice(last));
  return { pieces, holes };
}

function fill(f: Filled, values: readonly string[]): string {
  if (f.holes.length === 0) return f.pieces[0]!;
  let s = f.pieces[0]!;
  for (let i = 0; i < f.holes.length; i++) s += values[f.holes[i]!]! + f.pieces[i + 1]!;
  return s;
}

/** Whether `s` reads back as itself as a plain scalar (as parseManifests reads) and js-yaml writes it plain, unchanged. */
export function plainBothWays(s: string): boolean {
  if (s.length === 0 || s.includes('\n') || s.includes('\r')) return false;
  try {
    if (parseYaml(s, { schema: 'kubernetes' }) !== s) return false;
  } catch {
    return false;
  }
  return dumpYaml(s, MANIFEST_DUMP) === `${s}\n`;
}

/** A key as kustomize and Helm write them, plain; a value after it or a `- ` item marker. */
const LINE_PREFIX = /^( *)((?:- )*)([A-Za-z0-9_][A-Za-z0-9_./-]*: )?$/;

/**
 * Whether the scalar `value` (with the sentinel at `at`) is the plain rest of its line in `text`,
 * after `key: ` or `- `, and no line below continues it.
 */
function plainRestOfLine(text: string, at: number, value: string): boolean {
  const start = text.lastIndexOf('\n', at) + 1;
  let end = text.indexOf('\n', at);
  if (end === -1) end = text.length;
  const line = text.slice(start, end);
  if (!line.endsWith(value)) return false;
  const m = LINE_PREFIX.exec(line.slice(0, line.length - value.length));
  if (!m || (m[2] === '' && m[3] === undefined)) return false;
  // The node that owns the scalar starts here; a continuation line would be indented further.
  const owner = m[1]!.length + m[2]!.length - (m[3] === undefined ? 2 : 0);
  let i = end + 1;
  while (i < text.length) {
    let e = text.indexOf('\n', i);
    if (e === -1) e = text.length;
    const next = text.slice(i, e);
    const indent = next.length - next.trimStart().length;
    if (indent < next.length) return indent <= owner && next[indent] !== '#';
    i = e + 1;
  }
  return true;
}

function constantFiles(objects: readonly ManifestObject[]): TemplateFile[] {
  return objects.map((o, i) => ({ index: i, name: objectFileName(i, objects.length, o), content: { pieces: [serializeObject(o)], holes: [] } }));
}

/** A name field with sentinels, split at them (a class, so that no value of the object is taken for one). */
class SplitText {
  constructor(readonly text: Filled) {}
}

/** An object's kind, name and namespace: a field with a sentinel split at it, any other as it is. */
interface NameFields {
  kind: unknown;
  metadata: unknown;
}

function nameFields(o: ManifestObject): NameFields {
  const cut = (x: unknown) => (typeof x === 'string' && x.includes(MARK) ? new SplitText(split(x)) : x);
  const meta = o.metadata as unknown;
  const fields = meta !== null && typeof meta === 'object' ? { name: cut((meta as Record<string, unknown>).name), namespace: cut((meta as Record<string, unknown>).namespace) } : meta;
  return { kind: cut(o.kind), metadata: fields };
}

/** Whether the name fields of `o` (kind, name, namespace) hold a sentinel, so that its file name is made per app. */
function namedByHole(o: ManifestObject): boolean {
  const meta = o.metadata;
  return [o.kind, ...(meta !== null && typeof meta === 'object' ? [meta.name, meta.namespace] : [])].some((x) => typeof x === 'string' && x.includes(MARK));
}

/** Whether a variable could change an object's scope: in a kind, an apiVersion or a CustomResourceDefinition. */
function scopeHasHole(objects: readonly ManifestObject[]): boolean {
  return objects.some((o) => [o.kind, o.apiVersion].some((x) => typeof x === 'string' && x.includes(MARK)) || (o.kind === 'CustomResourceDefinition' && JSON.stringify(o).includes(MARK)));
}

/**
 * The template of one built text, or undefined when the shortcut cannot be shown exact for it
 * (the general path then runs for every app of that text). `substitutes`: whether the jobs using
 * it substitute variables at all.
 */
export function buildLeafTemplate(text: string, substitutes: boolean, displayName: string, placed = false): LeafTemplate | undefined {
  if (!substitutes || !text.includes('${')) return constant(text, displayName, placed);
  if (text.includes('\r') || text.includes(MARK)) return undefined;
  const holes: LeafTemplate['holes'] = [];
  let escaped = false;
  const marked = text.replace(VARIABLE, (match: string, escape: string, name: string, def: string | undefined) => {
    if (escape) {
      escaped = true;
      return match;
    }
    holes.push({ name, def });
    return sentinel(holes.length - 1);
  });
  if (escaped) return undefined;
  // `${` without a variable (`${not a name}`): the substitution changes nothing.
  if (holes.length === 0) return constant(text, displayName, placed);
  let objects: ManifestObject[];
  try {
    objects = parseManifests(marked, displayName);
  } catch {
    return undefined;
  }
  const seen = new Array<number>(holes.length).fill(0);
  const scalars: Filled[] = [];
  const scalarOf = new Array<string>(holes.length);
  let ok = true;
  const walk = (v: unknown): void => {
    if (!ok) return;
    if (typeof v === 'string') {
      if (!v.includes(MARK)) return;
      const f = split(v);
      if (!plainBothWays(v)) ok = false;
      for (const h of f.holes) {
        seen[h] = (seen[h] ?? 0) + 1;
        scalarOf[h] = v;
      }
      scalars.push(f);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes(MARK)) ok = false;
        walk(x);
      }
    }
  };
  for (const o of objects) walk(o);
  if (!ok || seen.some((n) => n !== 1)) return undefined;
  for (let i = 0; i < holes.length; i++) {
    if (!plainRestOfLine(marked, marked.indexOf(sentinel(i)), scalarOf[i]!)) return undefined;
  }
  let place: LeafTemplate['placed'];
  if (placed) {
    if (scopeHasHole(objects)) return undefined;
    const r = placeInNamespace(objects, sentinel(holes.length));
    objects = r.objects;
    place = { given: r.given, unknown: r.unknown };
  }
  const emitted = new Array<number>(holes.length).fill(0);
  const files: TemplateFile[] = objects.map((o, i) => {
    const content = split(serializeObject(o));
    for (const h of content.holes) if (h < holes.length) emitted[h] = (emitted[h] ?? 0) + 1;
    return namedByHole(o) ? { index: i, nameOf: nameFields(o), content } : { index: i, name: objectFileName(i, objects.length, o), content };
  });
  if (emitted.some((n) => n !== 1)) return undefined;
  const template: LeafTemplate = { holes, scalars, files, count: objects.length, ...(place ? { placed: place } : {}) };
  // Once per template, against the general path: two sets of probe values (and namespaces).
  for (const [probe, namespace] of [[(_: string) => 'x', 'x'], [(n: string) => `p${n.length}-v.${n.charCodeAt(0)}`, 'probe-ns']] as const) {
    const ns = placed ? namespace : undefined;
    const fast = fillLeafTemplate(template, probe, undefined, ns);
    if (!fast || !sameFiles(fast, generalFiles(text, probe, displayName, ns))) return undefined;
  }
  return template;
}

function constant(text: string, displayName: string, placed: boolean): LeafTemplate | undefined {
  // The namespace's sentinel must be the only one in the emitted text.
  if (placed && text.includes(MARK)) return undefined;
  try {
    const objects = parseManifests(text, displayName);
    if (!placed) return { holes: [], scalars: [], files: constantFiles(objects), count: objects.length };
    const r = placeInNamespace(objects, sentinel(0));
    if (r.given === 0) return { holes: [], scalars: [], files: constantFiles(objects), count: objects.length, placed: { given: 0, unknown: r.unknown } };
    const files = r.objects.map((o, i): TemplateFile => {
      const content = split(serializeObject(o));
      return namedByHole(o) ? { index: i, nameOf: nameFields(o), content } : { index: i, name: objectFileName(i, objects.length, o), content };
    });
    return { holes: [], scalars: [], files, count: objects.length, placed: { given: r.given, unknown: r.unknown } };
  } catch {
    return undefined;
  }
}

/** What the general path makes of `text` with these values (no missing variables). */
function generalFiles(text: string, lookup: VariableLookup, displayName: string, namespace: string | undefined): OutputFile[] | undefined {
  try {
    const substituted = text.replace(VARIABLE, (match: string, escape: string, name: string, def: string | undefined) => {
      if (escape) return match.slice(1);
      const value = lookup(name);
      if (value !== undefined && !(def !== undefined && value === '')) return value;
      if (def !== undefined) return def;
      throw new Error(`missing ${name}`);
    });
    const parsed = parseManifests(substituted, displayName);
    const objects = namespace === undefined ? parsed : placeInNamespace(parsed, namespace).objects;
    return objects.map((o, i) => ({ name: objectFileName(i, objects.length, o), content: serializeObject(o) }));
  } catch {
    return undefined;
  }
}

function sameFiles(a: readonly OutputFile[], b: readonly OutputFile[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.content === b[i]!.content);
}

/**
 * The files of one app from a template, or undefined when the general path must run (a variable
 * has no value, or a value does not keep its scalar plain and a string). `plainMemo` remembers
 * the answers of plainBothWays for this run. `namespace`: the destination namespace of a template
 * built with one (it must be given exactly then).
 */
export function fillLeafTemplate(t: LeafTemplate, lookup: VariableLookup, plainMemo?: Map<string, boolean>, namespace?: string): OutputFile[] | undefined {
  if ((t.placed === undefined) !== (namespace === undefined)) throw new Error('a leaf template is filled with a namespace exactly when it was built with one');
  const values: string[] = [];
  for (const h of t.holes) {
    const value = lookup(h.name);
    if (value !== undefined && !(h.def !== undefined && value === '')) values.push(value);
    else if (h.def !== undefined) values.push(h.def);
    else return undefined;
  }
  const isPlain = (text: string): boolean => {
    let plain = plainMemo?.get(text);
    if (plain === undefined) {
      plain = plainBothWays(text);
      if (plainMemo) {
        if (plainMemo.size >= 50_000) plainMemo.clear();
        plainMemo.set(text, plain);
      }
    }
    return plain;
  };
  if (LEAF_TEMPLATE_HOOKS.checkValues) {
    for (const s of t.scalars) if (!isPlain(fill(s, values))) return undefined;
  }
  if (t.placed && t.placed.given > 0) {
    // Always checked: a namespace such as `123` or `null` would be written quoted.
    if (!isPlain(namespace!)) return undefined;
    values.push(namespace!);
  }
  return t.files.map((f) => ({ name: f.name ?? nameFor(f, t.count, values), content: fill(f.content, values) }));
}

function nameFor(f: TemplateFile, count: number, values: readonly string[]): string {
  const o = f.nameOf!;
  const put = (x: unknown) => (x instanceof SplitText ? fill(x.text, values) : x);
  const meta = o.metadata;
  const metadata = meta !== null && typeof meta === 'object' ? { name: put((meta as Record<string, unknown>).name) as string, namespace: put((meta as Record<string, unknown>).namespace) as string } : (meta as ManifestObject['metadata']);
  return objectFileName(f.index, count, { kind: put(o.kind) as string, metadata });
}
