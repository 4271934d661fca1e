/**
 * Reading ApplicationSets and cluster Secrets from YAML text (pure: the caller reads files).
 * Shape errors name the file, line and field; `locate` maps a spec path of a later evaluation
 * error (e.g. `spec.generators[0].matrix.generators[1].git`) back to its line.
 */
import { lineCounter, parseAllDocuments, parseYamlAll } from '../yaml/index.js';
import type { Document, LineCounter } from '../yaml/index.js';
import { InputError } from '../errors/index.js';
import type { SourceLocation } from '../errors/index.js';
import type { ApplicationSet, ClusterSecret } from './types.js';
import { isPlainObject } from './go-value.js';
import { STRING_STREAM, readYamlSubset } from '../yaml/subset.js';

export interface LoadedApplicationSet {
  appSet: ApplicationSet;
  /** Where a spec path is in the file (the nearest existing ancestor when the path is not there). */
  locate(path: string): SourceLocation;
}

/** Default namespace of an ApplicationSet without `metadata.namespace` (Argo CD's own namespace). */
export const DEFAULT_APPSET_NAMESPACE = 'argocd';

export function splitPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

function locator(doc: Document, lc: LineCounter, file: string): (path: string) => SourceLocation {
  return (path) => {
    let keys = splitPath(path);
    while (keys.length > 0) {
      const node = doc.getIn(keys, true) as { range?: [number, number, number] } | undefined;
      if (node && node.range) {
        const pos = lc.linePos(node.range[0]);
        return { file, line: pos.line, column: pos.col, path };
      }
      keys = keys.slice(0, -1);
    }
    return { file, path };
  };
}

function fail(message: string, loc: SourceLocation, hint?: string): never {
  throw new InputError(message, { code: 'invalid-applicationset', location: loc, hint });
}

/** Parses every ApplicationSet document of a YAML stream. */
export function loadApplicationSet(text: string, file: string): LoadedApplicationSet[] {
  const lc = lineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  if (!Array.isArray(docs)) fail('not a YAML stream', { file });
  const out: LoadedApplicationSet[] = [];
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const pos = lc.linePos(err.pos[0]);
      fail(err.message.split('\n')[0] ?? 'YAML error', { file, line: pos.line, column: pos.col });
    }
    const obj = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (obj === null || obj === undefined) continue;
    const locate = locator(doc, lc, file);
    if (!isPlainObject(obj)) fail('expected a mapping (an ApplicationSet)', locate(''));
    if (obj['kind'] !== 'ApplicationSet') continue;
    out.push({ appSet: checkApplicationSet(obj, locate), locate });
  }
  if (out.length === 0) fail('no ApplicationSet in the file', { file }, 'the file needs a document with `kind: ApplicationSet`');
  return out;
}

function checkApplicationSet(obj: Record<string, unknown>, locate: (p: string) => SourceLocation): ApplicationSet {
  const meta = obj['metadata'];
  if (!isPlainObject(meta) || typeof meta['name'] !== 'string' || meta['name'] === '') {
    fail('metadata.name: expected a non-empty string', locate('metadata.name'));
  }
  if (meta['namespace'] !== undefined && typeof meta['namespace'] !== 'string') fail('metadata.namespace: expected a string', locate('metadata.namespace'));
  const spec = obj['spec'];
  if (!isPlainObject(spec)) fail('spec: expected a mapping', locate('spec'));
  const gens = spec['generators'];
  if (!Array.isArray(gens) || gens.length === 0) fail('spec.generators: expected a non-empty list', locate('spec.generators'));
  gens.forEach((g, i) => {
    if (!isPlainObject(g)) fail(`spec.generators[${i}]: expected a mapping`, locate(`spec.generators[${i}]`));
  });
  if (spec['goTemplate'] !== undefined && typeof spec['goTemplate'] !== 'boolean') {
    fail(`spec.goTemplate: expected true or false, got ${JSON.stringify(spec['goTemplate'])}`, locate('spec.goTemplate'));
  }
  const opts = spec['goTemplateOptions'];
  if (opts !== undefined && !(Array.isArray(opts) && opts.every((o) => typeof o === 'string'))) {
    fail('spec.goTemplateOptions: expected a list of strings', locate('spec.goTemplateOptions'), 'e.g. ["missingkey=error"]');
  }
  if (spec['templatePatch'] !== undefined && typeof spec['templatePatch'] !== 'string') {
    fail('spec.templatePatch: expected a string (a YAML or JSON patch template)', locate('spec.templatePatch'), 'write it as a block scalar: `templatePatch: |`');
  }
  const tmpl = spec['template'] ?? {};
  if (!isPlainObject(tmpl)) fail('spec.template: expected a mapping', locate('spec.template'));
  if (tmpl['metadata'] !== undefined && !isPlainObject(tmpl['metadata'])) fail('spec.template.metadata: expected a mapping', locate('spec.template.metadata'));
  if (tmpl['spec'] !== undefined && !isPlainObject(tmpl['spec'])) fail('spec.template.spec: expected a mapping', locate('spec.template.spec'));
  const sp = spec['syncPolicy'];
  if (sp !== undefined && sp !== null && !isPlainObject(sp)) fail('spec.syncPolicy: expected a mapping', locate('spec.syncPolicy'));
  return {
    metadata: { name: meta['name'] as string, namespace: (meta['namespace'] as string | undefined) ?? DEFAULT_APPSET_NAMESPACE },
    spec: { ...spec, generators: gens as Record<string, unknown>[], template: tmpl } as ApplicationSet['spec'],
  };
}

/**
 * Cluster Secrets from a YAML stream: `kind: Secret` documents (or `kind: List` items) with
 * `data` (base64, decoded here) and `stringData` (wins over `data`, as the API server merges
 * them). Argo CD declarative cluster Secrets are such Secrets. Other kinds are errors; the
 * cluster generator itself keeps only Secrets labelled `argocd.argoproj.io/secret-type: cluster`.
 */
export function parseClusterSecrets(text: string, file: string): ClusterSecret[] {
  return parseClusterSecretsFast(text) ?? parseClusterSecretsWithPositions(text, file);
}

/** Thrown by the fast path's locator: a message needs a position, so the file is read again with them. */
const NEEDS_POSITIONS = Symbol('needs positions');

/** A string that the `yaml` package's core schema may read as a number where js-yaml's reads a string (`+.5`). */
const NUMBER_LIKE = /^[-+]?\.?[0-9]|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;
/** A carriage return that does not end a CRLF line. */
const LONE_CR = /\r(?!\n)/;
/** An anchor or alias: the positioned parser limits how many a file expands. */
const ANCHOR_OR_ALIAS = /(?:^|[\s:\-[{,])[&*][^\s,\]}]/;

/**
 * parseClusterSecrets without positions: first the subset reader (src/yaml/subset.ts, strings
 * both core parsers agree on; ADRs 0326, 0349), else js-yaml (YAML 1.2 core). 1,000 Secrets parse
 * many times faster than with the positioned parser. Undefined — read again with positions, which
 * gives the same values or the error at its line — whenever the parsers could differ or a message
 * needs a place: a syntax error, an anchor or alias, a value either parser might read as a number,
 * or any Secret that is not accepted as it is.
 */
function parseClusterSecretsFast(text: string): ClusterSecret[] | undefined {
  const docs = readYamlSubset(text, STRING_STREAM) ?? parseCoreChecked(text);
  if (docs === undefined) return undefined;
  const locate = (): SourceLocation => {
    throw NEEDS_POSITIONS;
  };
  const out: ClusterSecret[] = [];
  try {
    for (const obj of docs) {
      if (obj === null || obj === undefined) continue;
      if (!isPlainObject(obj)) return undefined;
      if (obj['kind'] === 'List' && Array.isArray(obj['items'])) for (const item of obj['items']) out.push(toSecret(item, locate));
      else out.push(toSecret(obj, locate));
    }
  } catch (e) {
    if (e === NEEDS_POSITIONS) return undefined;
    throw e;
  }
  return out;
}

/** The documents as js-yaml's YAML 1.2 core reads them, or undefined where the positioned parser could read them otherwise. */
function parseCoreChecked(text: string): unknown[] | undefined {
  // A CR without LF is a line break to js-yaml (a quoted scalar folds it into a space) and text to the `yaml` package.
  if (ANCHOR_OR_ALIAS.test(text) || LONE_CR.test(text)) return undefined;
  let docs: unknown[];
  try {
    docs = parseYamlAll(text, { schema: 'core' });
  } catch {
    return undefined;
  }
  const numberLike = (v: unknown): boolean => {
    if (typeof v === 'string') return NUMBER_LIKE.test(v);
    // js-yaml reads `1_000` and `0b1` as numbers, the `yaml` package as strings: any number is left to the positioned parser.
    if (typeof v === 'number') return true;
    if (Array.isArray(v)) return v.some(numberLike);
    if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => NUMBER_LIKE.test(k) || numberLike(x));
    return false;
  };
  return docs.some(numberLike) ? undefined : docs;
}

/** parseClusterSecrets with the positioned parser (`yaml`): every value placed; the reference for the fast path. */
export function parseClusterSecretsWithPositions(text: string, file: string): ClusterSecret[] {
  const lc = lineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  if (!Array.isArray(docs)) fail('not a YAML stream', { file });
  const out: ClusterSecret[] = [];
  docs.forEach((doc) => {
    const err = doc.errors[0];
    if (err) {
      const pos = lc.linePos(err.pos[0]);
      fail(err.message.split('\n')[0] ?? 'YAML error', { file, line: pos.line, column: pos.col });
    }
    const locate = locator(doc, lc, file);
    const obj = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (obj === null || obj === undefined) return;
    if (!isPlainObject(obj)) fail('expected a Secret', locate(''));
    if (obj['kind'] === 'List' && Array.isArray(obj['items'])) {
      obj['items'].forEach((item, i) => out.push(toSecret(item, (p) => locate(`items[${i}]${p ? `.${p}` : ''}`))));
    } else {
      out.push(toSecret(obj, locate));
    }
  });
  return out;
}

function toSecret(obj: unknown, locate: (p: string) => SourceLocation): ClusterSecret {
  if (!isPlainObject(obj) || obj['kind'] !== 'Secret') {
    fail(`expected kind: Secret, got ${JSON.stringify(isPlainObject(obj) ? obj['kind'] : obj)}`, locate('kind'), 'give cluster Secrets (argocd.argoproj.io/secret-type: cluster)');
  }
  const meta = isPlainObject(obj['metadata']) ? obj['metadata'] : {};
  const strMap = (v: unknown, path: string): Record<string, string> => {
    if (v === undefined || v === null) return {};
    if (!isPlainObject(v)) fail(`${path}: expected a mapping`, locate(path));
    const m: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string') fail(`${path}.${k}: expected a string, got ${JSON.stringify(x)}`, locate(`${path}.${k}`), 'quote the value');
      m[k] = x;
    }
    return m;
  };
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(strMap(obj['data'], 'data'))) {
    const compact = v.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
      fail(`data.${k}: not valid base64`, locate(`data.${k}`), 'put plain text under stringData instead');
    }
    data[k] = Buffer.from(compact, 'base64').toString('utf8');
  }
  Object.assign(data, strMap(obj['stringData'], 'stringData'));
  return {
    name: typeof meta['name'] === 'string' ? meta['name'] : '',
    namespace: typeof meta['namespace'] === 'string' ? meta['namespace'] : undefined,
    labels: strMap(meta['labels'], 'metadata.labels'),
    annotations: strMap(meta['annotations'], 'metadata.annotations'),
    data,
  };
}
