/**
 * Printing generated Applications deterministically: sorted by name (generation order breaks
 * ties), keys sorted, no line wrapping, LF, one trailing newline. `explain` adds, per
 * Application, the generator and the parameter set it came from (YAML comments, or JSON
 * `{generator, params, application}` records).
 */
import type { GeneratedApplication } from './applications.js';
import { applicationName } from './applications.js';
import { CompiledApplication } from './compiled-app.js';
import { dumpSorted, dumpYaml } from '../yaml/index.js';

export type OutputFormat = 'yaml' | 'json';

export interface FormatOptions {
  output: OutputFormat;
  explain: boolean;
}

export const defaultFormatOptions: FormatOptions = { output: 'yaml', explain: false };

export function sortApplications(apps: readonly GeneratedApplication[]): GeneratedApplication[] {
  // Each name read once, not twice per comparison; positions sorted instead of one record per
  // Application (100,000 objects fewer for the scavenger). Name, then position: a total order.
  const n = apps.length;
  const names = new Array<string>(n);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    names[i] = applicationName(apps[i]!);
    order[i] = i;
  }
  order.sort((x, y) => {
    const a = names[x]!;
    const b = names[y]!;
    return a < b ? -1 : a > b ? 1 : x - y;
  });
  const out = new Array<GeneratedApplication>(n);
  for (let i = 0; i < n; i++) out[i] = apps[order[i]!]!;
  return out;
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sortKeysDeep(o[k])]),
    );
  }
  return v;
}

const yamlOptions = { sortKeys: true, lineWidth: -1, noRefs: true } as const;

export function formatApplications(apps: readonly GeneratedApplication[], options: FormatOptions = defaultFormatOptions): string {
  return [...formatApplicationChunks(apps, options)].join('');
}

/**
 * The text of `formatApplications` in pieces of at most 1,000 Applications, for writing as they
 * are made: 100,000 Applications are ~100 MB of YAML, which need never be one string.
 */
export function* formatApplicationChunks(apps: readonly GeneratedApplication[], options: FormatOptions = defaultFormatOptions): Generator<string> {
  const sorted = sortApplications(apps);
  if (options.output === 'json') {
    const items = sorted.map((g) => (options.explain ? { application: g.application, generator: g.generator, params: g.params } : g.application));
    yield `${JSON.stringify(sortKeysDeep(items), null, 2)}\n`;
    return;
  }
  for (let i = 0; i < sorted.length; i += 1000) {
    // Appended, not joined from an array: V8 makes a string of pieces appended cheaply.
    let chunk = '';
    for (const g of sorted.slice(i, i + 1000)) {
      chunk += '---\n';
      if (options.explain) chunk += explanation(g);
      // js-yaml's bytes (yamlOptions), several times faster for the many Applications of a matrix.
      chunk += g instanceof CompiledApplication ? g.template.yaml(g.values) : dumpSorted(g.application);
    }
    yield chunk;
  }
}

/** The `# generator: … # params: …` comment of `explain`. */
function explanation(g: GeneratedApplication): string {
  const params = dumpYaml(g.params, yamlOptions).trimEnd();
  return `# generator: ${g.generator}\n# params:\n${params
    .split('\n')
    .map((l) => `#   ${l}`)
    .join('\n')}\n`;
}

/** Bytes of each piece of formatApplicationBytes. */
const BYTES_CHUNK = 1 << 20;

export interface ByteFormatOptions {
  /**
   * Write the pieces into two buffers in turn instead of a fresh buffer each (ADR 0308): a piece's
   * memory is written again once the consumer asks for the second piece after it, so by then the
   * consumer must be done with it (written out, or copied). 76 MB of fresh buffers cost a page
   * fault every 4 KB — more system time than the printing itself.
   */
  reuse?: boolean;
}

/**
 * The bytes of `formatApplications` (UTF-8) in pieces of about 1 MB, for a byte sink such as
 * stdout. Each Application is encoded into the piece as it is printed (compiled Applications
 * from their template's bytes, compiled-app.ts `writeYaml`): no text of the whole output, nor of
 * one Application from a compiled template, is made.
 */
export function* formatApplicationBytes(
  apps: readonly GeneratedApplication[],
  options: FormatOptions = defaultFormatOptions,
  bytes: ByteFormatOptions = {},
): Generator<Uint8Array> {
  if (options.output === 'json') {
    for (const chunk of formatApplicationChunks(apps, options)) yield Buffer.from(chunk, 'utf8');
    return;
  }
  const spare: (Buffer | undefined)[] = [undefined, undefined];
  let turn = 0;
  // A buffer of at least `size` bytes for the next piece: fresh, or the older of the two.
  const take = (size: number): Buffer => {
    if (!bytes.reuse) return Buffer.allocUnsafe(size);
    turn ^= 1;
    const b = spare[turn];
    if (b !== undefined && b.length >= size) return b;
    return (spare[turn] = Buffer.allocUnsafe(size));
  };
  let buf = take(BYTES_CHUNK);
  let off = 0;
  for (const g of sortApplications(apps)) {
    const comment = options.explain ? explanation(g) : '';
    if (g instanceof CompiledApplication) {
      // The template's constant bytes and each hole's scalar, written straight into the piece.
      const most = 4 + comment.length * 3 + g.template.maxYamlBytes(g.values);
      if (off + most > buf.length) {
        if (off > 0) yield buf.subarray(0, off);
        buf = take(Math.max(BYTES_CHUNK, most));
        off = 0;
      }
      if (comment) {
        off += buf.write('---\n', off, 'utf8');
        off += buf.write(comment, off, 'utf8');
        off = g.template.writeYaml(g.values, buf, off, false);
      } else off = g.template.writeYaml(g.values, buf, off);
      continue;
    }
    const text = dumpSorted(g.application);
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    const most = 4 + (comment.length + text.length) * 3;
    if (off + most > buf.length) {
      if (off > 0) yield buf.subarray(0, off);
      buf = take(Math.max(BYTES_CHUNK, most));
      off = 0;
    }
    off += buf.write('---\n', off, 'utf8');
    if (comment) off += buf.write(comment, off, 'utf8');
    off += buf.write(text, off, 'utf8');
  }
  if (off > 0) yield buf.subarray(0, off);
}
