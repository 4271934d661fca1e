/**
 * Rule: Argo CD objects committed in the repository (Application, ApplicationSet, AppProject of
 * argoproj.io/v1alpha1) must match Argo CD's own CRD schemas. The API server prunes fields its
 * structural schema does not know, so `prune: false` written directly under `spec.syncPolicy`
 * (it belongs under `syncPolicy.automated`) is dropped without a word — or the apply fails where
 * strict field validation is on. Wrong types fail the apply.
 *
 * The schemas are Argo CD's, reduced to field names, types, required fields and enums (ADR 0104):
 * derived at build time from @kubernetes-models/argo-cd, or from the CRDs the user gives
 * (`validate --argocd-crds`), through ../catalog/argocd-schema-source.ts (ADR 0155).
 * ApplicationSet templates hold Go-template strings (`{{path}}`) in place of values: field names
 * are checked there, a value that is a template string is not type-checked.
 *
 * Objects checked: those in the files the layout reader took the fleet from (Fleet.manifestFiles:
 * hyperfleet's gitops-applications/, gitops-standards' .bootstrap/) and those every app applies
 * (app-of-apps children), each object once however many clusters apply it. Positions of nested
 * fields are looked up (by a second, position-keeping parse) only for files that have a finding.
 */
import { lineCounter, isMap, isPair, isScalar, isSeq, parseAllDocuments } from '../../yaml/index.js';
import type { LineCounter, YamlNode } from '../../yaml/index.js';
import type { Finding } from '../../model/finding.js';
import type { JsonSchema, SchemaIssue } from '../../load/json-schema.js';
import { validateSchema } from '../../load/json-schema.js';
import { formatPath } from '../../model/source.js';
import type { YamlPath } from '../../model/source.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { RuleContext } from '../context.js';
import type { RuleDefinition } from '../engine.js';
import type { ManifestObject } from '../../load/manifests.js';
import { bundledArgoCdSchemas } from '../catalog/argocd-schema-source.js';

/** The bundled schemas, read on first use. */
const SCHEMAS = () => bundledArgoCdSchemas();
/** The root the `$ref`s resolve against (schemas read from CRDs have no `$ref`). */
const ROOT = (): JsonSchema => ({ $defs: SCHEMAS().$defs });

/** `argoproj.io/v1alpha1/Application` → its schema; undefined for other objects. */
export function argoCdSchema(apiVersion: string, kind: string): JsonSchema | undefined {
  return Object.hasOwn(SCHEMAS().kinds, `${apiVersion}/${kind}`) ? SCHEMAS().kinds[`${apiVersion}/${kind}`] : undefined;
}

/** The schema of this run: a kind the CRDs given with `validate --argocd-crds` define, else the bundled one. */
function schemaFor(ctx: RuleContext, apiVersion: string, kind: string): JsonSchema | undefined {
  const given = ctx.argoCdSchemas?.kinds;
  return given && Object.hasOwn(given, `${apiVersion}/${kind}`) ? given[`${apiVersion}/${kind}`] : argoCdSchema(apiVersion, kind);
}

const TEMPLATE = /\{\{/;

/** Schema issues of one object; values (and keys) that are Go-template strings are not type-checked. */
export function argoCdIssues(body: Record<string, unknown>, schema: JsonSchema): SchemaIssue[] {
  return validateSchema(body, schema, ROOT(), { structuralUnknownFields: true }).filter((i) => {
    if (i.unknownField) return !TEMPLATE.test(String(i.path[i.path.length - 1]));
    const v = valueAt(body, i.path);
    return !(typeof v === 'string' && TEMPLATE.test(v));
  });
}

function valueAt(v: unknown, path: YamlPath): unknown {
  for (const seg of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

/** Follows `$ref`s. */
function deref(s: JsonSchema | undefined): JsonSchema | undefined {
  let cur = s;
  for (let i = 0; cur?.$ref && i < 20; i++) cur = SCHEMAS().$defs[cur.$ref.replace('#/$defs/', '')];
  return cur;
}

/** The schema at an instance path (properties, items, additionalProperties). */
function schemaAt(schema: JsonSchema, path: YamlPath): JsonSchema | undefined {
  let s: JsonSchema | undefined = deref(schema);
  for (const seg of path) {
    if (!s) return undefined;
    if (typeof seg === 'number') s = deref(s.items);
    else s = deref(s.properties?.[seg] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
  }
  return s;
}

/**
 * Where an unknown field belongs, when a field of that name exists a little deeper under the same
 * parent: `prune` under syncPolicy → ["automated"]. Breadth-first, so the nearest place wins.
 */
export function nearbyField(parent: JsonSchema, key: string, maxDepth = 3): string[] | undefined {
  let level: { s: JsonSchema; path: string[] }[] = [{ s: parent, path: [] }];
  for (let depth = 0; depth < maxDepth && level.length; depth++) {
    const next: { s: JsonSchema; path: string[] }[] = [];
    for (const { s, path } of level) {
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        let c = deref(child);
        if (c?.items) c = deref(c.items);
        if (!c) continue;
        if (c.properties && Object.hasOwn(c.properties, key)) return [...path, name];
        next.push({ s: c, path: [...path, name] });
      }
    }
    level = next;
  }
  return undefined;
}

/** Lines of nested keys in a multi-document file, parsed once per file and only when asked. */
class Positions {
  private readonly docs = new Map<string, { lc: LineCounter; docs: { start: number; end: number; contents: YamlNode | null }[] } | null>();

  constructor(private readonly fs: RepoFileSystem) {}

  /** Line and column of the key at `path` in the document that starts at `line` (or its deepest existing ancestor). */
  locate(file: string, line: number, path: YamlPath): { line: number; column?: number } {
    const parsed = this.parse(file);
    if (!parsed || line <= 0) return { line };
    const doc = parsed.docs.find((d) => d.start <= line && line <= d.end);
    if (!doc) return { line };
    let node = doc.contents;
    let pos: { line: number; column?: number } = { line };
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
        const key = pair?.key as YamlNode | undefined;
        if (!pair || !key?.range) break;
        const lp = parsed.lc.linePos(key.range[0]);
        pos = { line: lp.line, column: lp.col };
        node = pair.value as YamlNode | null;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as YamlNode | undefined;
        if (!item?.range) break;
        const lp = parsed.lc.linePos(item.range[0]);
        pos = { line: lp.line, column: lp.col };
        node = item;
      } else {
        break;
      }
    }
    return pos;
  }

  private parse(file: string) {
    if (!this.docs.has(file)) {
      let value: { lc: LineCounter; docs: { start: number; end: number; contents: YamlNode | null }[] } | null = null;
      try {
        const lc = lineCounter();
        const all = parseAllDocuments(this.fs.readText(file), { lineCounter: lc, uniqueKeys: false });
        const list = Array.isArray(all) ? all : [all];
        value = {
          lc,
          docs: list.map((d) => {
            const contents = d.contents as YamlNode | null;
            const range = contents?.range ?? d.range;
            return { start: lc.linePos(range[0]).line, end: lc.linePos(Math.max(range[0], range[2] - 1)).line, contents };
          }),
        };
      } catch {
        value = null;
      }
      this.docs.set(file, value);
    }
    return this.docs.get(file) ?? null;
  }
}

/** The Argo CD objects the rule checks, once each, in a stable order. */
function objectsToCheck(ctx: RuleContext): ManifestObject[] {
  const seen = new Set<string>();
  const lists = new Set<readonly ManifestObject[]>();
  const out: ManifestObject[] = [];
  const add = (objs: readonly ManifestObject[]) => {
    if (lists.has(objs)) return;
    lists.add(objs);
    for (const o of objs) {
      if (o.group !== 'argoproj.io' || !schemaFor(ctx, o.apiVersion, o.kind)) continue;
      // A document is one object wherever it is applied (a kustomization's namespace makes copies,
      // so the namespace is left out); the items of a List share a line, leaf objects have none.
      const key = `${o.file}\0${o.line}\0${o.kind}\0${o.name ?? ''}${o.line > 0 ? '' : `\0${o.namespace ?? ''}`}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(o);
    }
  };
  for (const file of ctx.fleet.manifestFiles ?? []) add(ctx.manifests.file(file));
  for (const c of ctx.clusters) {
    for (const app of c.apps) {
      const objs = ctx.objectsOf(c, app);
      if (objs) add(objs);
    }
  }
  return out;
}

function describeObject(o: ManifestObject): string {
  return `${o.kind} ${o.name ? `"${o.name}"` : '(unnamed)'}`;
}

function hintFor(schema: JsonSchema, issue: SchemaIssue): string | undefined {
  if (!issue.unknownField) return issue.hint;
  const key = String(issue.path[issue.path.length - 1]);
  const parentPath = issue.path.slice(0, -1);
  const parent = schemaAt(schema, parentPath);
  const where = parent ? nearbyField(parent, key) : undefined;
  if (where) {
    const parentName = [...parentPath].reverse().find((s): s is string => typeof s === 'string');
    const place = [...(parentName ? [parentName] : []), ...where].join('.');
    return `${key} is a field of ${place}: move it there (Argo CD drops it here)`;
  }
  return issue.hint ? `${issue.hint} (Argo CD drops unknown fields)` : 'remove it: Argo CD drops unknown fields';
}

export const argoCdSchemaRule: RuleDefinition = {
  name: 'argocd-schema',
  codes: {
    'argocd-unknown-field': {
      severity: 'error',
      summary: 'Argo CD object with a field its CRD does not have',
      help: "Argo CD's CRDs are structural: the API server drops a field the schema does not list (or rejects the object under strict field validation), so the setting silently does nothing. A common case: `prune`/`selfHeal` directly under spec.syncPolicy instead of spec.syncPolicy.automated. The hint names where the field belongs when it exists nearby. A field newer than the built-in schema (Argo CD v3.3) is reported too: `validate --argocd-crds PATH` checks against the CRDs of the Argo CD you run.",
    },
    'argocd-schema': {
      severity: 'error',
      summary: 'Argo CD object that does not match its CRD schema',
      help: 'A value of the wrong type, or a required field that is missing, in an Application, ApplicationSet or AppProject: the apply fails. Schemas are those of Argo CD v3.3 as @kubernetes-models/argo-cd models it, or of the CRDs given with `validate --argocd-crds` (ADR 0155).',
    },
  },
  run(ctx) {
    const out: Finding[] = [];
    const positions = new Positions(ctx.fs);
    for (const o of objectsToCheck(ctx)) {
      const schema = schemaFor(ctx, o.apiVersion, o.kind)!;
      for (const issue of argoCdIssues(o.body, schema)) {
        const path = formatPath(issue.path);
        const pos = o.line > 0 ? positions.locate(o.file, o.line, issue.path) : undefined;
        const hint = hintFor(schema, issue);
        out.push({
          severity: 'error',
          code: issue.unknownField ? 'argocd-unknown-field' : 'argocd-schema',
          message: `${describeObject(o)}: ${issue.unknownField ? `the ${o.kind} CRD has no field ${path}` : issue.message}`,
          file: o.file,
          ...(pos ? { line: pos.line } : {}),
          ...(pos?.column ? { column: pos.column } : {}),
          ...(path ? { path } : {}),
          ...(hint ? { hint } : {}),
        });
      }
    }
    return out;
  },
};
