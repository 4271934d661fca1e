/** Multi-document YAML (kustomize output, `.bootstrap/*.yaml`), with positions when asked. */
import type { Document, Node as YamlNode } from 'yaml';
import { isMap, isPair, isScalar, isSeq, lineCounter, parseAllDocuments } from './yaml-package.js';
import type { YamlPath } from '../model/source.js';

/** Every document as plain data; throws on a syntax error. */
export function parseAll(text: string): unknown[] {
  return located(text).map((d) => d.value);
}

export interface LocatedDoc {
  value: unknown;
  locate(path: YamlPath): { line: number; column: number };
}

export function located(text: string): LocatedDoc[] {
  const lc = lineCounter();
  // logLevel error: the yaml package's warnings (a flow map as a key, stringified) would go to the
  // process's stderr from inside the library; callers say what they could not read.
  const docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false, logLevel: 'error' });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: LocatedDoc[] = [];
  for (const doc of list as Document[]) {
    if (doc.errors.length) throw new Error(doc.errors[0]!.message.split('\n')[0]);
    out.push({
      value: doc.toJS({ maxAliasCount: 100 }) as unknown,
      locate(path) {
        let node = doc.contents as YamlNode | null;
        let offset = node?.range?.[0] ?? 0;
        for (const seg of path) {
          if (isSeq(node) && typeof seg === 'number') {
            const item = node.items[seg] as YamlNode | undefined;
            if (!item) break;
            offset = item.range?.[0] ?? offset;
            node = item;
            continue;
          }
          if (!isMap(node)) break;
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
          if (!pair) break;
          offset = (pair.key as YamlNode).range?.[0] ?? offset;
          node = pair.value as YamlNode | null;
        }
        const pos = lc.linePos(offset);
        return { line: pos.line, column: pos.col };
      },
    });
  }
  return out;
}
