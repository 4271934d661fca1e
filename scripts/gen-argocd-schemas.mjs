#!/usr/bin/env node
// Writes dist/src/validate/catalog/argocd-schemas.json, the schema the argocd-schema rule checks
// Application, ApplicationSet and AppProject objects against (ADR 0155, which replaces the
// committed module of ADR 0104). Runs from `npm run build` (and so from `npm ci`'s `prepare`),
// after tsc; the file is build output, never committed, and ships in the package under dist/src.
//
//   node scripts/gen-argocd-schemas.mjs [--out FILE] [--force]
//
// Source: the TypeScript declarations of the exact-pinned devDependency @kubernetes-models/argo-cd
// (argoproj.io/v1alpha1/{Application,ApplicationSet,AppProject}.d.ts and the types they import),
// read with the compiler API of the `typescript` devDependency. The package's own runtime
// validators are not used: they accept unknown fields, and unknown fields are what the rule is for.
//
// Mapping from declarations to the reduced structural schema (the shape ADR 0104 describes):
//   interface / type literal   → type: object, properties (sorted), required (non-optional members)
//   { [key: string]: T }        → additionalProperties: T
//   Array<T>                    → type: array, items
//   string, boolean             → the same type
//   number                      → integer (Argo CD's API types have no floating-point field, and
//                                 the CRDs say integer for every number; test/real checks it)
//   union of string literals    → type: string with enum
//   number | string             → x-kubernetes-int-or-string
//   an empty interface          → an open object (x-kubernetes-preserve-unknown-fields), e.g. Helm
//                                 valuesObject (RawExtension); apiextensions JSON (list elements,
//                                 plugin parameters) is any JSON value, so it has no type either
//   ObjectMeta (apimachinery)   → type: object, as the CRDs give metadata
// At the root, apiVersion and kind are plain strings and not required (the declarations make them
// literal types to tell kinds apart), and status is an open object, as before: committed objects do
// not carry it. Repeated subschemas are shared under $defs, so the file stays small.
// Anything else in the declarations stops the build with its path: a new construct needs a rule.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = '@kubernetes-models/argo-cd';
const GROUP_VERSION = 'argoproj.io/v1alpha1';
const KINDS = ['Application', 'ApplicationSet', 'AppProject'];
/** Smallest subschema (JSON characters) worth a definition of its own. */
const MIN_SHARED = 120;
const MAX_DEPTH = 64;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let out = join(repoRoot, 'dist', 'src', 'validate', 'catalog', 'argocd-schemas.json');
let force = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = args[++i];
  else if (args[i] === '--force') force = true;
  else {
    console.error('usage: node scripts/gen-argocd-schemas.mjs [--out FILE] [--force]');
    process.exit(2);
  }
}

const require = createRequire(join(repoRoot, 'package.json'));
const pkgJsonPath = require.resolve(`${PACKAGE}/package.json`);
const pkgDir = dirname(pkgJsonPath);
const pkgVersion = JSON.parse(readFileSync(pkgJsonPath, 'utf8')).version;
const tsVersion = JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version;
const generator = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update(tsVersion).digest('hex').slice(0, 12);
const source = `${PACKAGE}@${pkgVersion}`;
const stamp = `${source} (generator ${generator})`;

// The conversion takes a few seconds; `npm run build` runs it every time, so it is skipped when the
// file on disk came from the same package version and the same generator.
if (!force && existsSync(out)) {
  try {
    if (JSON.parse(readFileSync(out, 'utf8')).source === stamp) process.exit(0);
  } catch {
    // unreadable: write it again
  }
}

// Loaded only now: importing the compiler takes about a second.
const { default: ts } = await import('typescript');
const files = KINDS.map((k) => join(pkgDir, 'argoproj.io', 'v1alpha1', `${k}.d.ts`));
const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
// An import that does not resolve would turn a type into `any`, i.e. an open object that hides
// unknown fields: such types are refused below (the checker's error type), and so are files the
// program could not read.
const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...files.flatMap((f) => program.getSyntacticDiagnostics(program.getSourceFile(f)))];
if (diagnostics.length > 0) {
  console.error(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => repoRoot, getNewLine: () => '\n' }));
  console.error(`gen-argocd-schemas: the declarations of ${source} do not type-check`);
  process.exit(1);
}
const checker = program.getTypeChecker();
const F = ts.TypeFlags;

function fail(path, what, hint = 'a construct this script does not map yet: extend it') {
  console.error(`gen-argocd-schemas: ${source} ${path.join('.')}: ${what} (${hint})`);
  process.exit(1);
}

/** The file a type is declared in, relative to node_modules, for the few named special cases. */
function declaredIn(type) {
  const decl = (type.aliasSymbol ?? type.symbol)?.declarations?.[0];
  return decl ? decl.getSourceFile().fileName.replace(/^.*node_modules\//, '') : '';
}

function toSchema(type, path) {
  if (path.length > MAX_DEPTH) fail(path, 'nested too deeply (a recursive type?)');
  let parts = type.isUnion() ? type.types : [type];
  const nullable = parts.some((t) => t.flags & F.Null);
  parts = parts.filter((t) => !(t.flags & (F.Null | F.Undefined)));
  const schema = fromParts(parts, path);
  if (nullable) schema.nullable = true;
  return schema;
}

function fromParts(parts, path) {
  if (parts.length === 0) fail(path, 'no type');
  if (parts.every((t) => t.flags & F.BooleanLike)) return { type: 'boolean' };
  if (parts.every((t) => t.flags & F.StringLiteral)) return { type: 'string', enum: parts.map((t) => t.value).sort() };
  if (parts.length === 2 && parts.some((t) => t.flags & F.Number) && parts.some((t) => t.flags & F.String)) return { 'x-kubernetes-int-or-string': true };
  if (parts.length > 1) fail(path, `union ${parts.map((t) => checker.typeToString(t)).join(' | ')}`);
  const t = parts[0];
  if (t.flags & F.Any && t.intrinsicName === 'error') fail(path, 'a type that does not resolve', 'a dependency of the package is missing: run npm ci');
  if (t.flags & (F.Any | F.Unknown)) return { 'x-kubernetes-preserve-unknown-fields': true };
  if (t.flags & F.String) return { type: 'string' };
  if (t.flags & F.Number) return { type: 'integer' };
  if (checker.isArrayType(t)) return { type: 'array', items: toSchema(checker.getTypeArguments(t)[0], [...path, '[]']) };
  if (!(t.flags & F.Object)) fail(path, `type ${checker.typeToString(t)}`);
  const file = declaredIn(t);
  if (/^@kubernetes-models\/apimachinery\/apis\/meta\/v1\/ObjectMeta\.d\.ts$/.test(file)) return { type: 'object' };
  if (/^kubernetes-models\/apiextensions\.k8s\.io\/v1\/JSON\.d\.ts$/.test(file)) return { 'x-kubernetes-preserve-unknown-fields': true };
  const props = [...checker.getPropertiesOfType(t)].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index = checker.getIndexInfoOfType(t, ts.IndexKind.String);
  if (checker.getSignaturesOfType(t, ts.SignatureKind.Call).length > 0) fail(path, 'a function type');
  const schema = { type: 'object' };
  if (props.length > 0) {
    schema.properties = {};
    const required = [];
    for (const p of props) {
      schema.properties[p.name] = toSchema(checker.getTypeOfSymbol(p), [...path, p.name]);
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
    }
    if (required.length > 0) schema.required = required;
  }
  if (index) schema.additionalProperties = toSchema(index.type, [...path, '{}']);
  if (props.length === 0 && !index) schema['x-kubernetes-preserve-unknown-fields'] = true;
  return schema;
}

const kinds = {};
for (const [i, kind] of KINDS.entries()) {
  const sf = program.getSourceFile(files[i]);
  const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === `I${kind}`);
  if (!symbol) fail([kind], `no interface I${kind} in ${relative(repoRoot, files[i])}`);
  const schema = toSchema(checker.getDeclaredTypeOfSymbol(symbol), [kind]);
  schema.properties.apiVersion = { type: 'string' };
  schema.properties.kind = { type: 'string' };
  schema.properties.status = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  schema.required = (schema.required ?? []).filter((r) => r !== 'apiVersion' && r !== 'kind');
  if (schema.required.length === 0) delete schema.required;
  kinds[`${GROUP_VERSION}/${kind}`] = schema;
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
  const result = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties') {
      result.properties = {};
      for (const [p, s] of Object.entries(v)) result.properties[p] = hoist(s, p);
    } else if (k === 'items') {
      result.items = hoist(v, `${name}Item`);
    } else {
      result[k] = hoist(v, name);
    }
  }
  return result;
}
const outKinds = {};
for (const k of Object.keys(kinds).sort()) outKinds[k] = hoist(kinds[k], k.split('/').pop(), true);
const sortedDefs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));

const result = {
  $comment: [
    `Generated by scripts/gen-argocd-schemas.mjs from the TypeScript declarations of ${source} (${KINDS.map((k) => `${k} ${GROUP_VERSION}`).join(', ')}) at build time; not committed (ADR 0155).`,
    'Field names, types, required fields and enums only; repeated subschemas are shared under $defs.',
  ],
  source: stamp,
  kinds: outKinds,
  $defs: sortedDefs,
};
const text = JSON.stringify(result) + '\n';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, text);
console.log(`gen-argocd-schemas: wrote ${relative(process.cwd(), out)} from ${source} (${text.length} bytes, ${Object.keys(outKinds).length} kinds, ${Object.keys(sortedDefs).length} shared definitions)`);
