/**
 * From a build's YAML stream to files: strict substitution with the error naming the variable,
 * the object and the source file that refers to it; splitting into objects; deterministic file
 * names and bytes (sorted keys, no line folding, no anchors, LF, one trailing newline).
 *
 * The stream is read as its consumer reads it: kubectl, Argo CD, Helm and Flux turn YAML into
 * JSON with go-yaml v2 (sigs.k8s.io/yaml), so `defaultMode: 0755` from a chart is 493 and
 * `tty: on` is true (the `kubernetes` schema, ADR 0389); each object is written back so that the
 * same reader gets the same values (a string it would take for a number or a boolean is quoted).
 */
import { InputError, formatRef } from '../../errors/index.js';
import type { SourceLocation } from '../../errors/index.js';
import type { MissingVariable, VariableLookup } from '../../model/substitute.js';
import { substitute } from '../../model/substitute.js';
import { dumpYaml, parseYamlAll } from '../../yaml/index.js';
import { expandListDocument } from '../../model/k8s-list.js';
import { inDestinationNamespace } from '../../load/kind-scope.js';

/** How a leaf object is written (template.ts checks its scalars the same way). */
export const MANIFEST_DUMP = { sortKeys: true, lineWidth: -1, noRefs: true, schema: 'kubernetes' } as const;

export type ManifestObject = Record<string, unknown> & {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
};

export interface SubstituteStreamOptions {
  lookup: VariableLookup;
  /** Words after "for", e.g. `application web`; names the consumer in the message. */
  subject?: string;
  /** Repo-relative path of what was built (the location when the source file is unknown). */
  path: string;
  /** Finds the source file and line that refers to a variable, preferring one whose line reads like `lineText`. */
  findSource?: (name: string, lineText: string) => SourceLocation | undefined;
  /** How to fix, for the hint. */
  hint: (names: string[]) => string;
}

/** Substitutes `${NAME}` in a build's output; any undefined variable is one InputError naming all of them. */
export function substituteStream(text: string, options: SubstituteStreamOptions): string {
  const r = substitute(text, options.lookup);
  if (r.missing.length === 0) return r.text;
  const names = [...new Set(r.missing.map((m) => m.name))];
  const first = r.missing[0]!;
  const obj = objectAtLine(text, first.line);
  const source = options.findSource?.(first.name, text.split('\n')[first.line - 1] ?? '');
  const what = names.length === 1 ? `undefined variable \${${names[0]}}` : `undefined variables ${names.map((n) => `\${${n}}`).join(', ')}`;
  const inObj = obj ? ` in ${obj}` : '';
  const forWhom = options.subject ? ` for ${options.subject}` : '';
  throw new InputError(`${what}${inObj} (build output line ${first.line})${forWhom}`, {
    code: 'undefined-variable',
    location: source ?? { file: options.path },
    hint: options.hint(names),
  });
}

/** `Kind/ns/name` of the document containing 1-based `line` of a YAML stream. */
export function objectAtLine(text: string, line: number): string | undefined {
  const lines = text.split('\n');
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) if (lines[i]!.startsWith('---')) start = i + 1;
  let end = lines.length;
  for (let i = line; i < lines.length; i++) {
    if (lines[i]!.startsWith('---')) {
      end = i;
      break;
    }
  }
  try {
    const docs = parseYamlAll(lines.slice(start, end).join('\n'), { schema: 'kubernetes' });
    const doc = docs[0];
    if (typeof doc === 'object' && doc !== null) return formatRef(doc as ManifestObject);
  } catch {
    // The document may not parse before substitution; the line number still says where.
  }
  return undefined;
}

/**
 * Splits a YAML stream into objects; empty documents are skipped, anything else is an error. A key
 * repeated in one mapping keeps its later value, as Argo CD's repo-server and kubectl read a build's
 * output (sigs.k8s.io/yaml: go-yaml v2, not strict; ADR 0403).
 */
export function parseManifests(text: string, displayName: string): ManifestObject[] {
  let docs: unknown[];
  try {
    // Keys and big integers as sigs.k8s.io/yaml turns them into JSON (ADR 0414).
    docs = parseYamlAll(text, { schema: 'kubernetes', json: true, asJson: true, filename: displayName });
  } catch (e) {
    const mark = (e as { mark?: { line?: number; column?: number } }).mark;
    throw new InputError(`the manifests are not valid YAML: ${(e as Error).message}`, {
      code: 'invalid-manifests',
      location: { file: displayName, ...(mark?.line !== undefined ? { line: mark.line + 1, column: (mark.column ?? 0) + 1 } : {}) },
      cause: e,
    });
  }
  const out: ManifestObject[] = [];
  docs.forEach((d, i) => {
    if (d === null || d === undefined) return;
    if (typeof d !== 'object' || Array.isArray(d)) {
      throw new InputError(`document ${i + 1} is not a Kubernetes object`, { code: 'invalid-manifests', location: { file: displayName } });
    }
    // A list (kind List, ConfigMapList, any items array) is applied as its items (model/k8s-list.ts, ADR 0300).
    let objects: unknown[];
    try {
      objects = expandListDocument(d);
    } catch (e) {
      throw new InputError(`document ${i + 1}: ${(e as Error).message}`, {
        code: 'invalid-manifests',
        location: { file: displayName },
        hint: 'every item of a list must be a Kubernetes object (a mapping with apiVersion, kind and metadata)',
      });
    }
    for (const o of objects) out.push(o as ManifestObject);
  });
  return out;
}

/**
 * The objects as an Argo CD sync places them (ADR 0420): a namespaced object without a namespace
 * gets the Application's destination namespace, a cluster-scoped one keeps none (scope from
 * src/load/kind-scope.ts: the fixed lists, then the build's own CustomResourceDefinitions). `given`:
 * how many got it; `unknown`: kinds of unknown scope, read as namespaced.
 */
export function placeInNamespace(objects: readonly ManifestObject[], namespace: string): { objects: ManifestObject[]; given: number; unknown: string[] } {
  const r = inDestinationNamespace(objects, namespace);
  return { objects: r.docs as ManifestObject[], given: r.given, unknown: r.unknown };
}

/** Deterministic YAML for one object, as parseManifests' reader reads it back. */
export function serializeObject(obj: unknown): string {
  const text = dumpYaml(obj, MANIFEST_DUMP);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The file name of the object at 0-based `index` of `count`:
 * `NN-<kind>-<namespace>-<name>.yaml`, or `NN-<kind>-<name>.yaml` without a namespace.
 * NN keeps the build's order (kustomize's: Namespaces and CRDs first) and makes names unique;
 * it is zero-padded to at least two digits so that files sort in that order.
 */
export function objectFileName(index: number, count: number, obj: ManifestObject): string {
  const width = Math.max(2, String(count).length);
  const nn = String(index + 1).padStart(width, '0');
  const kind = safe(String(obj.kind ?? 'unknown').toLowerCase());
  const name = safe(String(obj.metadata?.name ?? 'unnamed'));
  const ns = obj.metadata?.namespace;
  const parts = ns ? [nn, kind, safe(String(ns)), name] : [nn, kind, name];
  return `${parts.join('-').slice(0, 200)}.yaml`;
}

function safe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_');
}

/**
 * Finds where `name` is referred to as `${name}` in the given texts. A reference on a line that
 * reads like `lineText` (the build-output line, which kustomize may have re-indented) wins;
 * otherwise the first reference.
 */
export function findVariableReference(
  name: string,
  files: readonly { path: string; text: () => string | undefined }[],
  lineText = '',
): SourceLocation | undefined {
  const needle = `\${${name}`;
  const want = normalizeLine(lineText);
  let first: SourceLocation | undefined;
  for (const f of files) {
    const text = f.text();
    if (text === undefined || !text.includes(needle)) continue;
    const lines = text.split('\n');
    for (const m of substitute(text, () => undefined).missing as MissingVariable[]) {
      if (m.name !== name) continue;
      const loc = { file: f.path, line: m.line, column: m.column };
      if (want !== '' && normalizeLine(lines[m.line - 1] ?? '') === want) return loc;
      first ??= loc;
    }
  }
  return first;
}

function normalizeLine(s: string): string {
  return s.trim().replace(/^-\s+/, '').replace(/["']/g, '');
}
