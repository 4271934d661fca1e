/**
 * A position-free reader for the narrow YAML subset that Kubernetes manifests such as cluster
 * Secrets are usually written in: a stream of documents, each a block mapping of block mappings
 * whose leaves are one-line strings (plain, 'single-quoted' or "double-quoted" without escapes).
 * It exists for speed (ADR 0326): 1,000 cluster Secrets read in a few milliseconds, against
 * 0.2–0.5 s of CPU in a general parser.
 *
 * Contract: `parseBlockMappingStream(text)` returns the documents (null documents left out, as
 * the general readers leave them out) only when every line is inside the subset and every value
 * is a string that both YAML 1.2 core readers (js-yaml's CORE_SCHEMA and the `yaml` package's
 * default) give as that same string. Otherwise it returns `undefined` and the caller parses the
 * text with a general parser, which gives the same values or the error at its line. It never
 * throws and never guesses: anything unusual — tabs, CR, control characters, a BOM, directives,
 * `...`, anchors, aliases, tags, flow collections, sequences, block scalars, multi-line scalars,
 * escapes, keys that are not simple names, duplicate keys, values that look like a number, a
 * boolean or null, a key with no value — is "not mine".
 */

/** Characters the subset refuses anywhere: tab, CR and the other controls, NEL, the Unicode line and paragraph separators, BOM. */
// eslint-disable-next-line no-control-regex
const REFUSED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
/** A key: a Kubernetes-style name (labels, annotations, field names). */
const KEY = /^[A-Za-z0-9_][A-Za-z0-9._/-]*$/;
/** A scalar that either core schema may read as a number (a superset of both: `+.5`, `0x1F`, `.inf`, `1e3`). */
const NUMBER_LIKE = /^[-+]?\.?[0-9]|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/;
/** Plain scalars the core schema reads as null or a boolean. */
const NOT_STRING = new Set(['null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
/** The `yaml` package refuses an implicit key longer than 1024 characters; stay well inside. */
const MAX_KEY = 1000;

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const SQUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;

/** Characters that start something other than a plain scalar (or a plain scalar this reader leaves to the general parser). */
function refusedStart(c: number): boolean {
  // - ? : , [ ] { } # & * ! | > % @ `
  return (
    c === 45 || c === 63 || c === 58 || c === 44 || c === 91 || c === 93 || c === 123 || c === 125 || c === 35 || c === 38 || c === 42 || c === 33 || c === 124 || c === 62 || c === 37 || c === 64 || c === 96
  );
}

function stringScalar(s: string): boolean {
  return !NOT_STRING.has(s) && !NUMBER_LIKE.test(s);
}

type Mapping = Record<string, unknown>;

/** The documents of a YAML stream in the block-mapping subset, or undefined when the text is outside it. */
export function parseBlockMappingStream(text: string): Mapping[] | undefined {
  if (REFUSED_CHARS.test(text)) return undefined;
  const docs: Mapping[] = [];
  const n = text.length;
  // The open mappings of the current document, outermost first, with their indentation.
  let indents: number[] = [];
  let maps: Mapping[] = [];
  // A key written with no value on its line: its mapping starts on the next content line.
  let pendingKey: string | undefined;
  const endDocument = (): boolean => {
    if (pendingKey !== undefined) return false; // a null value: not in the subset
    if (maps.length > 0) docs.push(maps[0]!);
    indents = [];
    maps = [];
    return true;
  };
  let pos = 0;
  while (pos < n) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = n;
    let i = pos;
    while (i < eol && text.charCodeAt(i) === SPACE) i++;
    if (i === eol || text.charCodeAt(i) === HASH) {
      pos = eol + 1;
      continue;
    }
    const indent = i - pos;
    if (indent === 0) {
      const c = text.charCodeAt(i);
      if (c === 45 /* - */ && text.startsWith('---', i)) {
        if (eol !== i + 3) return undefined; // `--- x`, `---x`, `--- # c`: left to the general parser
        if (!endDocument()) return undefined;
        pos = eol + 1;
        continue;
      }
      if (c === 46 /* . */ || c === 37 /* % */) return undefined; // `...`, directives
    }
    // The key.
    const colon = text.indexOf(':', i);
    if (colon < 0 || colon >= eol) return undefined;
    const key = text.slice(i, colon);
    if (key.length > MAX_KEY || !KEY.test(key) || !stringScalar(key) || key === '__proto__') return undefined;
    let j = colon + 1;
    if (j < eol && text.charCodeAt(j) !== SPACE) return undefined; // `a:b` is a plain scalar, not a pair
    // Where the pair goes.
    let map: Mapping;
    if (pendingKey !== undefined) {
      const parentIndent = indents.length > 0 ? indents[indents.length - 1]! : -1;
      if (indent <= parentIndent) return undefined;
      map = {};
      maps[maps.length - 1]![pendingKey] = map;
      indents.push(indent);
      maps.push(map);
      pendingKey = undefined;
    } else if (maps.length === 0) {
      if (indent !== 0) return undefined;
      map = {};
      indents.push(0);
      maps.push(map);
    } else {
      while (indents.length > 0 && indents[indents.length - 1]! > indent) {
        indents.pop();
        maps.pop();
      }
      if (indents.length === 0 || indents[indents.length - 1] !== indent) return undefined;
      map = maps[maps.length - 1]!;
    }
    if (Object.prototype.hasOwnProperty.call(map, key)) return undefined;
    // The value.
    while (j < eol && text.charCodeAt(j) === SPACE) j++;
    if (j === eol || text.charCodeAt(j) === HASH) {
      pendingKey = key;
      pos = eol + 1;
      continue;
    }
    const c = text.charCodeAt(j);
    let value: string;
    let after: number;
    if (c === SQUOTE) {
      let out = '';
      let from = j + 1;
      let k = from;
      for (;;) {
        if (k >= eol) return undefined; // multi-line or unterminated
        if (text.charCodeAt(k) === SQUOTE) {
          if (text.charCodeAt(k + 1) === SQUOTE && k + 1 < eol) {
            out += text.slice(from, k + 1);
            k += 2;
            from = k;
            continue;
          }
          break;
        }
        k++;
      }
      value = out + text.slice(from, k);
      after = k + 1;
    } else if (c === DQUOTE) {
      let k = j + 1;
      for (;;) {
        if (k >= eol) return undefined;
        const d = text.charCodeAt(k);
        if (d === BACKSLASH) return undefined; // escapes: the general parser
        if (d === DQUOTE) break;
        k++;
      }
      value = text.slice(j + 1, k);
      after = k + 1;
    } else {
      if (refusedStart(c)) return undefined;
      // A plain scalar ends at ` #` (a comment) or the end of the line; trailing spaces are not part of it.
      // One pass over the line (a search to the end of the text would make the reader quadratic).
      let end = eol;
      for (let k = j + 1; k < eol; k++) {
        const d = text.charCodeAt(k);
        if (d === HASH && text.charCodeAt(k - 1) === SPACE) {
          end = k;
          break;
        }
        if (d === COLON && (k + 1 === eol || text.charCodeAt(k + 1) === SPACE)) return undefined; // `a: b: c`, `a: b:`
      }
      while (end > j && text.charCodeAt(end - 1) === SPACE) end--;
      value = text.slice(j, end);
      if (!stringScalar(value)) return undefined;
      after = eol;
    }
    if (after < eol) {
      // After a quoted scalar: spaces, then the end of the line or a comment after a space.
      let k = after;
      while (k < eol && text.charCodeAt(k) === SPACE) k++;
      if (k < eol && !(text.charCodeAt(k) === HASH && k > after)) return undefined;
    }
    map[key] = value;
    pos = eol + 1;
  }
  if (!endDocument()) return undefined;
  return docs;
}
