/**
 * YAML text → plain JS value, keeping what is needed to point at any value later.
 *
 * The fast path parses with js-yaml (about 10× faster than `yaml`); the `yaml` package's
 * Document, which knows the line and column of every node, is built only when something asks for
 * a position (a finding) — or when js-yaml fails, so that every syntax error is reported with its
 * place — or when the file uses aliases, so that alias bombs are refused by `maxAliasCount`.
 * Parsing is strict: duplicate keys are errors.
 */
import jsYaml from 'js-yaml';
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import { isMap, isPair, isScalar, isSeq, lineCounter, parseDocument } from './yaml-package.js';
import type { Finding } from '../model/finding.js';
import type { SourceFile } from '../model/source.js';
import { ONE_CORE_DOCUMENT, readYamlSubset } from './subset.js';



/** Aliases allowed per file; real fleet files use a handful at most. */
export const MAX_ALIASES = 100;

export interface ParseResult {
  source: SourceFile | undefined;
  findings: Finding[];
}

export interface ParseOptions {
  /**
   * `later-wins`: a key written twice in one map is what Helm's values reader does with it (the
   * later entry wins, sigs.k8s.io/yaml): a warning naming the line, and the later value is read.
   * Default: an error (fleetplan's own files, and kustomize, refuse it).
   */
  duplicateKeys?: 'error' | 'later-wins';
  /** Who reads the file, for the warning (`Helm`). */
  reader?: string;
}

export function parseYamlSource(file: string, text: string, options: ParseOptions = {}): ParseResult {
  // Most fleet files are plain block YAML: read those without js-yaml's generality (ADRs 0328, 0349).
  let fast: unknown = readYamlSubset(text, ONE_CORE_DOCUMENT);
  if (fast === undefined) {
    try {
      fast = jsYaml.load(text, { filename: file, schema: jsYaml.CORE_SCHEMA });
    } catch {
      return parseWithPositions(file, text, options);
    }
  }
  // An alias is written with `*`: a text without one has no shared nodes to look for.
  if (text.includes('*') && hasSharedNodes(fast)) return parseWithPositions(file, text, options);
  let lazy: SourceFile | undefined;
  return {
    source: {
      file,
      value: fast,
      locate(path) {
        lazy ??= parseWithPositions(file, text).source;
        return lazy ? lazy.locate(path) : { line: 1, column: 1 };
      },
    },
    findings: [],
  };
}

/** True when an object or array appears twice in the tree: the file used YAML aliases. */
function hasSharedNodes(v: unknown): boolean {
  const seen = new Set<object>();
  const walk = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object') return false;
    if (seen.has(x)) return true;
    seen.add(x);
    for (const c of Array.isArray(x) ? x : Object.values(x)) if (walk(c)) return true;
    return false;
  };
  return walk(v);
}

function parseWithPositions(file: string, text: string, options: ParseOptions = {}): ParseResult {
  let lc = lineCounter();
  let doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false, strict: true, merge: true });
  const findings: Finding[] = [];
  if (options.duplicateKeys === 'later-wins' && doc.errors.length > 0 && doc.errors.every((e) => e.code === 'DUPLICATE_KEY')) {
    for (const err of doc.errors) {
      const pos = lc.linePos(err.pos[0]);
      findings.push({
        severity: 'warning',
        code: 'duplicate-key',
        message: `${yamlMessage(err.message)}: ${options.reader ?? 'its reader'} keeps the later entry and drops the earlier one`,
        file,
        line: pos.line,
        column: pos.col,
        hint: 'each key may appear once in a map; merge the two entries',
      });
    }
    lc = lineCounter();
    doc = parseDocument(text, { lineCounter: lc, uniqueKeys: false, prettyErrors: false, strict: true, merge: true });
  }
  for (const err of findings.length > 0 ? [] : doc.errors) {
    const pos = lc.linePos(err.pos[0]);
    findings.push({
      severity: 'error',
      code: err.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax',
      message: yamlMessage(err.message),
      file,
      line: pos.line,
      column: pos.col,
      hint: err.code === 'DUPLICATE_KEY' ? 'each key may appear once in a map; merge the two entries' : 'fix the YAML syntax',
    });
  }
  if (findings.some((f) => f.severity === 'error')) return { source: undefined, findings };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    findings.push({
      severity: 'error',
      code: 'yaml-aliases',
      message: `too many YAML aliases (${(e as Error).message})`,
      file,
      line: 1,
      column: 1,
      hint: `a file may expand at most ${MAX_ALIASES} aliases; write the values out`,
    });
    return { source: undefined, findings };
  }
  return { source: makeSource(file, doc, lc, value), findings };
}

function makeSource(file: string, doc: Document, lc: LineCounter, value: unknown): SourceFile {
  return {
    file,
    value,
    locate(path) {
      let node: YamlNode | null | undefined = doc.contents as YamlNode | null;
      let offset = node?.range?.[0] ?? 0;
      for (const seg of path) {
        if (isMap(node)) {
          // The last pair of the key: the one read when a reader lets the later entry win (ParseOptions.duplicateKeys).
          const pair = [...node.items].reverse().find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
          if (!pair) break;
          const valueNode = pair.value as YamlNode | null;
          offset = valueNode?.range?.[0] ?? (pair.key as YamlNode).range?.[0] ?? offset;
          node = valueNode;
        } else if (isSeq(node) && typeof seg === 'number') {
          const item = node.items[seg] as YamlNode | undefined;
          if (!item) break;
          offset = item.range?.[0] ?? offset;
          node = item;
        } else {
          break;
        }
      }
      const pos = lc.linePos(offset);
      return { line: pos.line, column: pos.col };
    },
  };
}

function yamlMessage(message: string): string {
  // The yaml package appends " at line L, column C" plus a code excerpt; we report positions separately.
  return message.replace(/ at line \d+, column \d+[\s\S]*$/, '').trim();
}

