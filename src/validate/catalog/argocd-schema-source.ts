/**
 * Where the argocd-schema rule's schemas come from (ADR 0155).
 *
 * - Bundled: `argocd-schemas.json` beside this module in the build output. scripts/gen-argocd-schemas.mjs
 *   writes it at build time (`npm run build`, `npm ci`) from the TypeScript declarations of the
 *   exact-pinned devDependency @kubernetes-models/argo-cd; it is never committed and ships in the
 *   package under dist/src. Loaded on first use, so commands that do not validate never read it.
 * - Given at run time: the CustomResourceDefinitions of the Argo CD a fleet runs (`fleetplan validate
 *   --argocd-crds PATH`: the CRD files, or the install manifests that contain them), reduced here to
 *   the same shape. The kinds they define replace the bundled ones for that run.
 *
 * The shape, shared by both: per kind (`argoproj.io/v1alpha1/Application`) a structural schema
 * reduced to field names (`properties`), `type`, `items`, `additionalProperties`, `required`, `enum`,
 * `nullable` and the `x-kubernetes-int-or-string` / `x-kubernetes-preserve-unknown-fields` markers;
 * `status` is an open object. The bundled set shares repeated subschemas under `$defs`; a set read
 * from CRDs has none (`$ref` never occurs in it), so its schemas can be checked beside the bundled
 * `$defs` without renaming anything.
 */
import { createRequire } from 'node:module';
import { FleetplanError, InputError } from '../../errors/index.js';
import type { JsonSchema } from '../../load/json-schema.js';

export interface ArgoCdSchemaSet {
  /** `<group>/<version>/<kind>` → the kind's schema. */
  kinds: Record<string, JsonSchema>;
  /** Subschemas that `$ref: '#/$defs/<name>'` in `kinds` point to. */
  $defs: Record<string, JsonSchema>;
  /** What the schemas were derived from, e.g. `@kubernetes-models/argo-cd@4.0.0 (generator …)`. */
  source: string;
}

/** The kinds the rule checks; other argoproj.io CRDs in the same manifests are left out. */
export const ARGOCD_KINDS: readonly string[] = ['Application', 'ApplicationSet', 'AppProject'];

let bundled: ArgoCdSchemaSet | undefined;

/** The schemas derived at build time from @kubernetes-models/argo-cd. */
export function bundledArgoCdSchemas(): ArgoCdSchemaSet {
  if (!bundled) {
    try {
      // A file of the package itself, like a JSON import; read through the module loader because
      // it exists only in the build output, where tsc cannot see it.
      bundled = createRequire(import.meta.url)('./argocd-schemas.json') as ArgoCdSchemaSet;
    } catch (cause) {
      throw new FleetplanError('the built-in Argo CD schema (argocd-schemas.json) is missing from this build of fleetplan', {
        code: 'argocd-schemas-missing',
        hint: 'run `npm run build`: it writes the schema from @kubernetes-models/argo-cd after tsc',
        cause,
      });
    }
  }
  return bundled;
}

/** The schema keywords the rule uses; everything else (descriptions, formats, patterns, limits) is dropped. */
const KEEP = new Set([
  'type',
  'properties',
  'items',
  'additionalProperties',
  'required',
  'enum',
  'anyOf',
  'nullable',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
]);

function reduce(schema: unknown, root: boolean): JsonSchema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const src = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(src).sort()) {
    if (!KEEP.has(key)) continue;
    const v = src[key];
    if (key === 'properties' && v && typeof v === 'object') {
      const props: Record<string, JsonSchema> = {};
      for (const name of Object.keys(v).sort()) {
        // Committed objects do not carry status, and the API server ignores it on create.
        props[name] = root && name === 'status' ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } : reduce((v as Record<string, unknown>)[name], false);
      }
      out.properties = props;
    } else if (key === 'items' || (key === 'additionalProperties' && typeof v === 'object')) {
      out[key] = reduce(v, false);
    } else if (key === 'anyOf' && Array.isArray(v)) {
      out.anyOf = v.map((s) => reduce(s, false));
    } else {
      out[key] = v;
    }
  }
  // anyOf [integer, string] next to x-kubernetes-int-or-string says the same thing twice.
  if (out['x-kubernetes-int-or-string']) delete out.anyOf;
  return out as JsonSchema;
}

/**
 * The schemas of the Argo CD CRDs among `objects` (any other object is skipped): one per served
 * version of Application, ApplicationSet and AppProject. `from` names where the objects were read,
 * for errors. Throws InputError when there is no such CRD, or when a kind and version comes twice.
 */
export function argoCdSchemasFromCrds(objects: readonly unknown[], from: string): ArgoCdSchemaSet {
  const kinds: Record<string, JsonSchema> = {};
  const found: string[] = [];
  for (const o of objects) {
    const crd = o as { kind?: unknown; spec?: { group?: unknown; names?: { kind?: unknown }; versions?: unknown } } | null;
    if (crd?.kind !== 'CustomResourceDefinition' || crd.spec?.group !== 'argoproj.io') continue;
    const kind = crd.spec.names?.kind;
    if (typeof kind !== 'string' || !ARGOCD_KINDS.includes(kind) || !Array.isArray(crd.spec.versions)) continue;
    for (const v of crd.spec.versions as { name?: unknown; served?: unknown; schema?: { openAPIV3Schema?: unknown } }[]) {
      if (!v.served || typeof v.name !== 'string' || !v.schema?.openAPIV3Schema) continue;
      const key = `argoproj.io/${v.name}/${kind}`;
      if (Object.hasOwn(kinds, key)) {
        throw new InputError(`two CustomResourceDefinitions for ${kind} argoproj.io/${v.name}`, {
          code: 'argocd-crds-invalid',
          location: { file: from },
          hint: 'give the CRDs of one Argo CD version',
        });
      }
      kinds[key] = reduce(v.schema.openAPIV3Schema, true);
      found.push(`${kind} argoproj.io/${v.name}`);
    }
  }
  if (found.length === 0) {
    throw new InputError(`no CustomResourceDefinition of ${ARGOCD_KINDS.join(', ')} (argoproj.io) with a schema`, {
      code: 'argocd-crds-invalid',
      location: { file: from },
      hint: "give Argo CD's CRD files (manifests/crds) or its install manifests",
    });
  }
  return { kinds, $defs: {}, source: `${from} (${found.sort().join(', ')})` };
}
