#!/usr/bin/env node
// Writes src/validate/catalog/argocd-schemas.json: the openAPIV3Schema of the Argo CD
// CustomResourceDefinitions (Application, ApplicationSet, AppProject), reduced to what the
// argocd-schema rule checks (field names, types, required fields, enums) — ADR 0104.
//
//   node scripts/gen-argocd-schemas.mjs [--source "<where the CRDs come from>"] [--out FILE] <crd files...>
//
// Reductions, so that the module stays small (the upstream files are about 1.8 MB):
//   - documentation and formats are dropped (description, format, pattern, length limits, examples,
//     x-kubernetes-list-type and friends): the rule reports unknown fields and wrong types only;
//   - `status` becomes an open object: committed objects do not carry it, and the API server
//     ignores it on create;
//   - a subschema that appears more than once (the Application spec inside every ApplicationSet
//     generator, selectors, sources) is written once under `$defs` and referred to by `$ref`.
// Output is deterministic: sorted keys, definitions named after the field where they first appear.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';

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
/** Smallest subschema (JSON characters) worth a definition of its own. */
const MIN_SHARED = 120;

const args = process.argv.slice(2);
let source = 'argoproj/argo-cd manifests/crds';
let out;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--source') source = args[++i] ?? source;
  else if (args[i] === '--out') out = args[++i];
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error('usage: node scripts/gen-argocd-schemas.mjs [--source TEXT] <application-crd.yaml> <applicationset-crd.yaml> <appproject-crd.yaml>');
  process.exit(2);
}

function strip(schema, path) {
  if (Array.isArray(schema)) return schema.map((s) => strip(s, path));
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const key of Object.keys(schema).sort()) {
    if (!KEEP.has(key)) continue;
    const v = schema[key];
    if (key === 'properties') {
      out.properties = {};
      for (const name of Object.keys(v).sort()) {
        out.properties[name] = path.length === 0 && name === 'status' ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } : strip(v[name], [...path, name]);
      }
    } else if (key === 'items' || (key === 'additionalProperties' && typeof v === 'object')) {
      out[key] = strip(v, path);
    } else if (key === 'anyOf') {
      out.anyOf = v.map((s) => strip(s, path));
    } else {
      out[key] = v;
    }
  }
  // anyOf [integer, string] next to x-kubernetes-int-or-string says the same thing twice.
  if (out['x-kubernetes-int-or-string']) delete out.anyOf;
  return out;
}

const kinds = {};
const crds = [];
for (const file of files) {
  for (const doc of yaml.loadAll(readFileSync(file, 'utf8'))) {
    if (!doc || doc.kind !== 'CustomResourceDefinition' || doc.spec?.group !== 'argoproj.io') continue;
    for (const v of doc.spec.versions) {
      if (!v.served || !v.schema?.openAPIV3Schema) continue;
      kinds[`${doc.spec.group}/${v.name}/${doc.spec.names.kind}`] = strip(v.schema.openAPIV3Schema, []);
      crds.push(`${doc.spec.names.kind} ${doc.spec.group}/${v.name}`);
    }
  }
}

// Count every object subschema by its canonical text, then hoist the repeated ones top-down.
const counts = new Map();
function count(node) {
  if (Array.isArray(node)) return node.forEach(count);
  if (!node || typeof node !== 'object') return;
  const text = JSON.stringify(node);
  counts.set(text, (counts.get(text) ?? 0) + 1);
  for (const v of Object.values(node)) count(v);
}
for (const k of Object.keys(kinds).sort()) count(kinds[k]);

const defs = {};
const defName = new Map();
function hoist(node, name, isDefRoot = false) {
  if (Array.isArray(node)) return node.map((n) => hoist(n, name));
  if (!node || typeof node !== 'object') return node;
  const text = JSON.stringify(node);
  if (!isDefRoot && text.length >= MIN_SHARED && (counts.get(text) ?? 0) > 1) {
    let ref = defName.get(text);
    if (!ref) {
      ref = name;
      for (let i = 2; Object.hasOwn(defs, ref); i++) ref = `${name}${i}`;
      defName.set(text, ref);
      defs[ref] = null; // reserve the name before descending
      defs[ref] = hoist(node, name, true);
    }
    return { $ref: `#/$defs/${ref}` };
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties') {
      out.properties = {};
      for (const [p, s] of Object.entries(v)) out.properties[p] = hoist(s, p);
    } else if (k === 'items') {
      out.items = hoist(v, `${name}Item`);
    } else {
      out[k] = hoist(v, name);
    }
  }
  return out;
}
const outKinds = {};
for (const k of Object.keys(kinds).sort()) outKinds[k] = hoist(kinds[k], k.split('/').pop(), true);

const sortedDefs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));
// The command line as it would be typed from a checkout of the CRD collection (`<crds>/argo-cd/...`).
const relFiles = files.map((f) => f.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '<crds>/'));
const result = {
  $comment: [
    `Generated by scripts/gen-argocd-schemas.mjs from the Argo CD CRDs of ${source} (${crds.join(', ')}); do not edit.`,
    `Regenerate: node scripts/gen-argocd-schemas.mjs --source '${source}' ${relFiles.join(' ')}`,
    'Descriptions, formats and patterns are dropped; repeated subschemas are shared under $defs (ADR 0104).',
  ],
  kinds: outKinds,
  $defs: sortedDefs,
};
const target = out ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'validate', 'catalog', 'argocd-schemas.json');
const text = JSON.stringify(result, null, 1) + '\n';
writeFileSync(target, text);
console.log(`wrote ${target} (${text.length} bytes, ${Object.keys(outKinds).length} kinds, ${Object.keys(sortedDefs).length} shared definitions)`);
