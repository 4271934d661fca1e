/**
 * The one edit promotion makes to fleet.yaml: set `spec.sectors[i].revision` to a commit.
 *
 * Input: the file's text, the sector's index and the new value. Output: the new text, equal to
 * the old one byte for byte except for that value — comments, key order, quoting style, blank
 * lines and line endings stay. The text is edited at the source range the `yaml` package reports
 * for the node (no re-serialisation of the document, which would reflow it). A sector without a
 * `revision` key gets one, right after its `name`, in the style of its map (block or flow).
 * The result is parsed again and must equal the old data with only that value changed.
 */
import { isMap, isPair, isScalar, isSeq, parseDocument } from '../yaml/index.js';
import type { YamlNode, Pair, Scalar, YAMLMap } from '../yaml/index.js';
import { InputError } from '../errors/index.js';

export function setSectorRevision(text: string, file: string, index: number, revision: string): string {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new InputError(`${file} does not parse: ${doc.errors[0]!.message.split('\n')[0]}`, { code: 'yaml-syntax', location: { file }, hint: 'fix the YAML first' });
  }
  const sectors = mapValue(mapValue(doc.contents, 'spec'), 'sectors');
  const item: unknown = isSeq(sectors) ? sectors.items[index] : undefined;
  if (!isMap(item)) {
    throw new InputError(`spec.sectors[${index}] of ${file} is not a map promotion can edit`, {
      code: 'sector-not-editable',
      location: { file, path: `spec.sectors[${index}]` },
      hint: 'write each sector as a map with name and revision (no anchors or aliases)',
    });
  }
  const old = doc.toJS() as unknown;
  const next = spliceRevision(text, item, revision, file, index);
  const check = parseDocument(next, { uniqueKeys: true });
  const want = setIn(old, index, revision);
  if (check.errors.length > 0 || JSON.stringify(check.toJS()) !== JSON.stringify(want)) {
    // Never write a file that says something else than intended; this is a bug, not bad input.
    throw new Error(`editing ${file} spec.sectors[${index}].revision would change more than that value`);
  }
  return next;
}

function spliceRevision(text: string, sector: YAMLMap, revision: string, file: string, index: number): string {
  const pair = findPair(sector, 'revision');
  if (pair) {
    const node = pair.value;
    if (!isScalar(node) || !node.range) {
      throw new InputError(`spec.sectors[${index}].revision of ${file} is not a plain value`, {
        code: 'sector-not-editable',
        location: { file, path: `spec.sectors[${index}].revision` },
        hint: 'write the revision as a plain string',
      });
    }
    const [start, valueEnd] = node.range;
    return text.slice(0, start) + scalarText(revision, node.type) + text.slice(valueEnd);
  }
  const name = findPair(sector, 'name');
  const nameValue = name?.value as YamlNode | null | undefined;
  const nameKey = name?.key as YamlNode | null | undefined;
  if (!nameValue?.range || !nameKey?.range) {
    throw new InputError(`spec.sectors[${index}] of ${file} has no name`, { code: 'sector-not-editable', location: { file, path: `spec.sectors[${index}]` } });
  }
  const value = scalarText(revision, 'PLAIN');
  const at = nameValue.range[1];
  if (sector.flow) return `${text.slice(0, at)}, revision: ${value}${text.slice(at)}`;
  // Block map: a new line after the name's line (past any comment on it), at the name's column.
  const keyStart = nameKey.range[0];
  const column = keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1);
  let eol = text.indexOf('\n', at);
  let newline = '\n';
  if (eol < 0) {
    eol = text.length;
    newline = text.includes('\r\n') ? '\r\n' : '\n';
  } else if (text[eol - 1] === '\r') {
    eol -= 1;
    newline = '\r\n';
  }
  return `${text.slice(0, eol)}${newline}${' '.repeat(column)}revision: ${value}${text.slice(eol)}`;
}

/** The value in the quoting style the old one had; plain unless plain would not read back as this string. */
function scalarText(value: string, type: Scalar.Type | undefined): string {
  if (type === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  if (type === 'QUOTE_DOUBLE') return JSON.stringify(value);
  const plain = parseDocument(`v: ${value}\n`).toJS() as { v?: unknown };
  return plain.v === value ? value : JSON.stringify(value);
}

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
}

function mapValue(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return findPair(node, key)?.value;
}

function setIn(data: unknown, index: number, revision: string): unknown {
  const copy = structuredClone(data) as { spec: { sectors: Record<string, unknown>[] } };
  const sector = copy.spec.sectors[index]!;
  if (!('revision' in sector)) {
    // A new key lands after name: rebuild the object in that order so the comparison holds.
    const ordered: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(sector)) {
      ordered[k] = v;
      if (k === 'name') ordered.revision = revision;
    }
    copy.spec.sectors[index] = ordered;
  } else {
    sector.revision = revision;
  }
  return copy;
}
