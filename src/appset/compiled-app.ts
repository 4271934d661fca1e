/**
 * An Application template compiled once for every parameter set (ADR 0273).
 *
 * When the template's shape cannot depend on the parameters — every map key is literal, there is
 * no `templatePatch`, and a templated string can only ever become a string scalar — every
 * generated Application is the same tree with different strings in the same places. The template
 * is then compiled once into those places (the holes, rendered in the order the general path
 * renders them, with the same errors) and into the YAML text between them, printed once by the
 * same printer (`dumpSorted`) with a marker in each hole. A generated Application is then its
 * holes' strings: no object is built unless a caller asks for `application`, and printing it is
 * copying the constant bytes and each hole's scalar text (`dumpSortedString`, the printer's own
 * rule for a string at that depth). test/appset/compiled-app.test.ts compares this with the
 * general path on generated templates and parameters.
 *
 * Anything else (a templated key, an empty parameter set, a `metadata.name` that is not a string,
 * a value that is not JSON data) takes the general path: `compileApplicationTemplate` returns
 * undefined, or the caller renders that one parameter set the general way.
 */
import type { Application, GeneratedApplication, ParamSet } from './types.js';
import type { CompiledString, FieldTemplate, RenderData, Renderer } from './render.js';
import { compileTemplatedString, isTemplated, pairFieldString } from './render.js';
import { mergeFirstWins } from './generators/matrix.js';
import { dumpSorted, dumpSortedString } from '../yaml/index.js';
import { isOmitEmptyString, storedApplication } from './stored.js';

type Materialize = (values: readonly string[]) => unknown;

export interface CompileApplicationOptions {
  /** `syncPolicy.preserveResourcesOnDeletion` of the ApplicationSet. */
  preserveResourcesOnDeletion: boolean;
  /** The ApplicationSet's namespace (every Application's `metadata.namespace`). */
  namespace: string;
  /** Spec path of the template, for render errors (`spec.template`). */
  path: string;
  /** The finalizer rule, applied as the general path applies it (applications.ts). */
  applyFinalizerRule: (app: Application, preserve: boolean) => void;
}

/** Marker text printed in place of a hole: certainly a plain scalar, never in the template. */
const MARK = 'Fpholemark';
const MARK_RE = /Fpholemark(\d+)x/g;

export class CompiledApplicationTemplate {
  /** Constant YAML text: pieces[i] comes before hole i's scalar, pieces[holes] ends the document. */
  private readonly pieceText: string[];
  /** Which value, at which depth, each printed hole shows. */
  private readonly printedHole: number[];
  private readonly printedLevel: number[];
  private readonly constantBytes: number;
  /** The last value printed in each hole and its scalar text. */
  private readonly lastValue: (string | undefined)[];
  private readonly lastText: (string | undefined)[];
  /** The constant pieces as UTF-8 bytes (`---\n` before the first), for `writeYaml`. */
  private readonly pieceBytes: Uint8Array[];
  private readonly firstBytes: Uint8Array;
  /** Per printed hole: the bytes of a value's scalar with the constant text after it, by value. */
  private readonly heldBytes: (Map<string, Uint8Array> | undefined)[];
  private readonly heldCalls: number[];
  private readonly heldMisses: number[];
  private readonly lastBytesValue: (string | undefined)[];
  private readonly lastBytes: (Uint8Array | undefined)[];

  private constructor(
    private readonly holes: readonly CompiledString[],
    /** Per hole, its field chains when it is text and `{{ .a.b }}` only (goTemplate), for `renderPair`. */
    private readonly fields: readonly (FieldTemplate | undefined)[],
    private readonly build: Materialize,
    private readonly finish: (app: Application) => void,
    /** The hole of metadata.name, or -1 when the name is constant. */
    private readonly nameHole: number,
    private readonly constName: string,
    /** The holes at an `omitempty` string field (ADR 0410): one that renders empty leaves the field out. */
    private readonly omitHoles: readonly number[],
    yaml: { pieces: string[]; holes: number[]; levels: number[] },
  ) {
    this.pieceText = yaml.pieces;
    this.printedHole = yaml.holes;
    this.printedLevel = yaml.levels;
    this.constantBytes = yaml.pieces.reduce((n, p) => n + Buffer.byteLength(p, 'utf8'), 0);
    this.lastValue = yaml.holes.map(() => undefined);
    this.lastText = yaml.holes.map(() => undefined);
    this.pieceBytes = yaml.pieces.map((p) => Buffer.from(p, 'utf8'));
    this.firstBytes = Buffer.from(`---\n${yaml.pieces[0]!}`, 'utf8');
    this.heldBytes = yaml.holes.map(() => new Map());
    this.heldCalls = yaml.holes.map(() => 0);
    this.heldMisses = yaml.holes.map(() => 0);
    this.lastBytesValue = yaml.holes.map(() => undefined);
    this.lastBytes = yaml.holes.map(() => undefined);
  }

  /**
   * Compiles `tmplApp` (the template Application before rendering), or undefined when its shape
   * could depend on the parameters or it holds something other than JSON data.
   */
  static compile(template: Application, renderer: Renderer, options: CompileApplicationOptions): CompiledApplicationTemplate | undefined {
    if (JSON.stringify(template).includes(MARK)) return undefined;
    // An empty omitempty string written in the template is absent from every Application (ADR 0410).
    const tmplApp = storedApplication(template);
    const omitHoles: number[] = [];
    const holes: CompiledString[] = [];
    const fields: (FieldTemplate | undefined)[] = [];
    const levels: number[] = [];
    const name = tmplApp.metadata.name;
    if (name !== undefined && typeof name !== 'string') return undefined;
    let nameHole = -1;
    // The tree walked in the general path's order (compileNode: keys in template order), so that
    // the holes render, and fail, in the same order.
    const compileNode = (v: unknown, depth: number, path: string, rel: readonly string[]): Materialize | undefined => {
      if (typeof v === 'string') {
        const f = compileTemplatedString(v, renderer, path);
        if (f === undefined) return () => v;
        const i = holes.length;
        holes.push(f);
        fields.push(renderer.goTemplate ? renderer.fieldTemplate(v) : undefined);
        levels.push(depth);
        if (isOmitEmptyString(rel)) omitHoles.push(i);
        if (path === `${options.path}.metadata.name` && depth === 2) nameHole = i;
        return (values) => values[i];
      }
      if (v === null || typeof v === 'number' || typeof v === 'boolean') return () => v;
      if (Array.isArray(v)) {
        const items: Materialize[] = [];
        for (let i = 0; i < v.length; i++) {
          const m = compileNode(v[i], depth + 1, `${path}[${i}]`, [...rel, String(i)]);
          if (!m) return undefined;
          items.push(m);
        }
        if (depth >= 2 && !hasHoles(v, renderer)) return () => v;
        return (values) => items.map((m) => m(values));
      }
      if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o);
        const fns: Materialize[] = [];
        for (const k of keys) {
          if (isTemplated(k, renderer)) return undefined;
          const m = compileNode(o[k], depth + 1, path === '' ? k : `${path}.${k}`, [...rel, k]);
          if (!m) return undefined;
          fns.push(m);
        }
        // Literal subtrees below metadata/spec are shared, as the general path shares them.
        if (depth >= 2 && !hasHoles(v, renderer)) return () => v;
        return (values) => {
          const out: Record<string, unknown> = {};
          for (let i = 0; i < keys.length; i++) out[keys[i]!] = fns[i]!(values);
          return out;
        };
      }
      return undefined;
    };
    const build = compileNode(tmplApp, 0, options.path, []);
    if (!build) return undefined;
    const finish = (app: Application): void => {
      options.applyFinalizerRule(app, options.preserveResourcesOnDeletion);
      app.metadata.namespace = options.namespace;
    };
    // The YAML of an Application whose holes hold markers, split at the markers.
    const marked = build(holes.map((_, i) => `${MARK}${i}x`)) as Application;
    finish(marked);
    const text = dumpSorted(marked);
    const pieces: string[] = [];
    const printed: number[] = [];
    let last = 0;
    for (const m of text.matchAll(MARK_RE)) {
      pieces.push(text.slice(last, m.index));
      printed.push(Number(m[1]));
      last = m.index + m[0].length;
    }
    pieces.push(text.slice(last));
    // Each hole printed exactly once, as the plain scalar it was (no quoting around a marker).
    if (printed.length !== holes.length || new Set(printed).size !== holes.length) return undefined;
    const name0 = name ?? '';
    return new CompiledApplicationTemplate(holes, fields, build, finish, nameHole, nameHole < 0 ? name0 : '', omitHoles, {
      pieces,
      holes: printed,
      levels: printed.map((i) => levels[i]!),
    });
  }

  /** Renders the holes for one parameter set (throws what the general path throws). */
  render(data: RenderData): string[] {
    const n = this.holes.length;
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = this.holes[i]!(data);
    return out;
  }

  /**
   * Renders the holes for the goTemplate matrix pair (a, b) — the parameter set
   * `mergeFirstWins(a, b)` — without making that set: a field-chain hole reads the two halves
   * (`pairFieldString`); any other hole, or a chain that reaches no string, is rendered the general
   * way from `data()`, the prepared merged set (made once, on first need). Only for a renderer
   * whose Go data is the parameter set itself. The same values and errors as `render(data())`.
   */
  renderPair(a: ParamSet, b: ParamSet, data: () => RenderData): string[] {
    const n = this.holes.length;
    const out = new Array<string>(n);
    let prepared: RenderData | undefined;
    for (let i = 0; i < n; i++) {
      const f = this.fields[i];
      if (f !== undefined) {
        const chains = f.chains;
        if (f.join === undefined) {
          const v = pairFieldString(a, b, chains[0]!);
          if (v !== undefined) {
            out[i] = v;
            continue;
          }
        } else {
          const slots = this.slots;
          let j = 0;
          for (; j < chains.length; j++) {
            const v = pairFieldString(a, b, chains[j]!);
            if (v === undefined) break;
            slots[j] = v;
          }
          if (j === chains.length) {
            out[i] = f.join(slots);
            continue;
          }
        }
      }
      out[i] = this.holes[i]!((prepared ??= data()));
    }
    return out;
  }

  private readonly slots: string[] = [];

  generated(values: string[], params: ParamSet, generator: string): GeneratedApplication {
    if (this.rendersEmptyOmitted(values)) return { application: storedApplication(this.materialize(values)), params, generator };
    return new CompiledApplication(this, values, params, undefined, generator, this.nameHole < 0 ? this.constName : values[this.nameHole]!);
  }

  /** The Application of the matrix pair (a, b); its `params` are combined when first read. */
  generatedPair(values: string[], a: ParamSet, b: ParamSet, generator: string): GeneratedApplication {
    if (this.rendersEmptyOmitted(values)) return { application: storedApplication(this.materialize(values)), params: mergeFirstWins(a, b), generator };
    return new CompiledApplication(this, values, a, b, generator, this.nameHole < 0 ? this.constName : values[this.nameHole]!);
  }

  /** True when an `omitempty` string field renders empty: that Application is built as an object, without the field. */
  private rendersEmptyOmitted(values: readonly string[]): boolean {
    const omit = this.omitHoles;
    for (let j = 0; j < omit.length; j++) if (values[omit[j]!] === '') return true;
    return false;
  }

  /** The Application the general path would have made (a fresh object; literal subtrees shared). */
  materialize(values: readonly string[]): Application {
    const app = this.build(values) as Application;
    this.finish(app);
    return app;
  }

  /** The YAML document (dumpSorted's text) of the Application with these values. */
  yaml(values: readonly string[]): string {
    const pieces = this.pieceText;
    const holes = this.printedHole;
    const levels = this.printedLevel;
    const lastValue = this.lastValue;
    const lastText = this.lastText;
    let out = pieces[0]!;
    for (let i = 0; i < holes.length; i++) {
      // Sorted by name, neighbours mostly share their values (the same cluster, the same path),
      // and a remembered hole value (render.ts slotJoiner) is the very same string: the scalar
      // and the constant text after it are then one remembered piece.
      const v = values[holes[i]!]!;
      let t = lastText[i];
      if (v !== lastValue[i] || t === undefined) {
        t = dumpSortedString(v, levels[i]!) + pieces[i + 1]!;
        lastValue[i] = v;
        lastText[i] = t;
      }
      out += t;
    }
    return out;
  }

  /** At most how many bytes `writeYaml` writes for these values. */
  maxYamlBytes(values: readonly string[]): number {
    let n = this.constantBytes;
    // A printed scalar: at most 6 characters per UTF-16 unit (`\uXXXX`) or 3 bytes of UTF-8,
    // plus quotes, a block header and the indentation of each of its lines.
    for (let i = 0; i < this.printedHole.length; i++) {
      const v = values[this.printedHole[i]!]!;
      n += v.length * 6 + 8 + (v.length + 1) * (2 * this.printedLevel[i]! + 2);
    }
    return n;
  }

  /**
   * Writes `---\n` (when `separator`) and the YAML document's bytes into `buf` at `off`, which
   * has room for `4 + maxYamlBytes(values)` bytes; returns the new offset. No text is made per
   * document (ADR 0308): the constant pieces are bytes encoded once, and a hole's scalar with the
   * constant text after it is encoded once per distinct value and copied after that — a matrix
   * repeats a few values per hole. A hole whose value is new nearly every time (the name) stops
   * remembering after HELD_TRIAL documents and is encoded straight into `buf`.
   */
  writeYaml(values: readonly string[], buf: Buffer, off: number, separator = true): number {
    const first = separator ? this.firstBytes : this.pieceBytes[0]!;
    buf.set(first, off);
    off += first.length;
    const holes = this.printedHole;
    for (let i = 0; i < holes.length; i++) {
      const v = values[holes[i]!]!;
      let bytes: Uint8Array | undefined;
      if (v === this.lastBytesValue[i]) bytes = this.lastBytes[i]!;
      else {
        const held = this.heldBytes[i];
        if (held === undefined) {
          off = writeText(buf, off, dumpSortedString(v, this.printedLevel[i]!));
          const piece = this.pieceBytes[i + 1]!;
          buf.set(piece, off);
          off += piece.length;
          continue;
        }
        bytes = held.get(v);
        const calls = ++this.heldCalls[i]!;
        if (bytes === undefined) {
          bytes = Buffer.from(dumpSortedString(v, this.printedLevel[i]!) + this.pieceText[i + 1]!, 'utf8');
          const misses = ++this.heldMisses[i]!;
          if (held.size >= HELD_MAX || (calls >= HELD_TRIAL && misses * 2 > calls)) this.heldBytes[i] = undefined;
          else held.set(v, bytes);
        }
        this.lastBytesValue[i] = v;
        this.lastBytes[i] = bytes;
      }
      buf.set(bytes, off);
      off += bytes.length;
    }
    return off;
  }
}

/** Distinct values a hole's byte memo holds at most, and the documents after which it judges its hit rate. */
const HELD_MAX = 1 << 14;
const HELD_TRIAL = 256;

/** Writes `s` as UTF-8 at `off`; returns the new offset (ASCII copied by hand: short strings, no call into C++). */
function writeText(buf: Buffer, off: number, s: string): number {
  const n = s.length;
  for (let j = 0; j < n; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0x80) return off + buf.write(s, off, 'utf8');
    buf[off + j] = c;
  }
  return off + n;
}

function hasHoles(v: unknown, renderer: Renderer): boolean {
  if (typeof v === 'string') return isTemplated(v, renderer);
  if (Array.isArray(v)) return v.some((x) => hasHoles(x, renderer));
  if (v !== null && typeof v === 'object') return Object.values(v as Record<string, unknown>).some((x) => hasHoles(x, renderer));
  return false;
}

/**
 * A generated Application held as its template and hole values. `application` builds the object
 * on first use (and keeps it); printers use `template` and `values` directly.
 */
export class CompiledApplication {
  private app: Application | undefined;
  private merged: ParamSet | undefined;

  constructor(
    readonly template: CompiledApplicationTemplate,
    readonly values: string[],
    /** The parameter set, or the first half of a goTemplate matrix pair. */
    private readonly first: ParamSet,
    /** The second half of the matrix pair, or undefined. */
    private readonly second: ParamSet | undefined,
    readonly generator: string,
    /** `metadata.name` ('' when the template has none). */
    readonly name: string,
  ) {}

  /** The parameter set the Application was rendered from (a matrix pair combined on first read, as the matrix combines it). */
  get params(): ParamSet {
    if (this.second === undefined) return this.first;
    return (this.merged ??= mergeFirstWins(this.first, this.second));
  }

  get application(): Application {
    return (this.app ??= this.template.materialize(this.values));
  }

  set application(app: Application) {
    this.app = app;
  }
}
