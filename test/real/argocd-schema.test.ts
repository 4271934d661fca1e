/**
 * Real data (the `test:real` suite; reads the shared directory, never part of `npm test`): the
 * Argo CD schema fleetplan builds from @kubernetes-models/argo-cd against the one the upstream
 * CRDs give (shared/crds/argo-cd/*.yaml, reduced at test time by argoCdSchemasFromCrds, the
 * reduction of the former generator and of `validate --argocd-crds`). The field trees — property
 * names at every path, types, enums, required fields, int-or-string and open objects — must be
 * equal but for the differences listed below, each with its reason (ADR 0155). A listed
 * difference that is gone fails too, so the list stays true when the package or the CRDs move.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsYaml from 'js-yaml';
import { argoCdSchemasFromCrds } from '../../src/index.js';
import type { ArgoCdSchemaSet } from '../../src/index.js';
import { bundledArgoCdSchemas } from '../../src/validate/catalog/argocd-schema-source.js';
import type { JsonSchema } from '../../src/load/json-schema.js';

/** dist/test/real/ → the repository root. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SHARED = process.env.FLEETPLAN_SHARED ?? join(REPO, '..', 'shared');
const CRDS = join(SHARED, 'crds', 'argo-cd');

/**
 * Fields the upstream CRDs have and the package does not: Argo CD features newer than the v3.3
 * the package models. Each is a path suffix; every missing path must end in one of them. Objects
 * that use one are reported as unknown fields unless validated with `--argocd-crds`.
 */
const MISSING_IN_PACKAGE: { suffix: string; why: string }[] = [
  { suffix: '.tagPrefix', why: 'ApplicationSource.tagPrefix (semver tags with a prefix), after v3.3' },
  { suffix: '.directory.disableExtensionFilter', why: 'directory sources reading files of any extension, after v3.3' },
  { suffix: '.sourceHydrator.syncSource.repoURL', why: 'hydrated manifests pushed to another repository, after v3.3' },
  { suffix: 'AppProject.spec.sourceIntegrity', why: 'AppProject source integrity (signature) policies, after v3.3' },
  { suffix: 'AppProject.spec.syncWindows[].syncOverrun', why: 'sync windows that let a running sync finish, after v3.3' },
  { suffix: '.scmProvider.gitea.excludeArchivedRepos', why: 'SCM provider archived-repository filters, after v3.3' },
  { suffix: '.scmProvider.github.excludeArchivedRepos', why: 'the same filter for GitHub' },
  { suffix: '.scmProvider.gitlab.includeArchivedRepos', why: 'the same filter for GitLab' },
];

/** Paths whose attributes differ, and how. */
const DIFFERENT: { suffix: string; package: string; crd: string; why: string }[] = [
  {
    suffix: 'ApplicationSet.spec.syncPolicy.applicationsSync',
    package: '{"type":"string"}',
    crd: '{"type":"string","enum":"create-delete|create-only|create-update|sync"}',
    why: 'the package is generated from the Go types, whose string type ApplicationsSyncPolicy carries the enum only as a kubebuilder marker; without it any string passes (more lenient, no false error)',
  },
];

interface Node {
  type?: string;
  enum?: string;
  required?: string;
  nullable?: true;
  intOrString?: true;
  open?: true;
}

/** Every path of a schema set (`Kind.spec.sources[].helm.parameters[].name`, `{}` for map values) → its attributes. */
function fieldTree(set: ArgoCdSchemaSet): Map<string, string> {
  const out = new Map<string, string>();
  const deref = (s: JsonSchema | undefined): JsonSchema | undefined => {
    for (let i = 0; s?.$ref && i < 20; i++) s = set.$defs[s.$ref.replace('#/$defs/', '')];
    return s;
  };
  const walk = (schema: JsonSchema | undefined, path: string) => {
    const s = deref(schema);
    if (!s) return;
    const n: Node = {};
    if (s.type) n.type = String(s.type);
    if (s.enum) n.enum = s.enum.map(String).sort().join('|');
    if (s.required?.length) n.required = [...s.required].sort().join(',');
    if (s.nullable) n.nullable = true;
    if (s['x-kubernetes-int-or-string']) n.intOrString = true;
    if (s['x-kubernetes-preserve-unknown-fields']) n.open = true;
    out.set(path, JSON.stringify(n));
    for (const [name, child] of Object.entries(s.properties ?? {})) walk(child, `${path}.${name}`);
    if (s.items) walk(s.items, `${path}[]`);
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}{}`);
  };
  for (const [key, schema] of Object.entries(set.kinds)) walk(schema, key.split('/').pop()!);
  return out;
}

/** The outermost of the given paths (a missing object implies its missing fields). */
function outermost(paths: string[]): string[] {
  const all = new Set(paths);
  return paths.filter((p) => ![...all].some((q) => q !== p && (p.startsWith(`${q}.`) || p.startsWith(`${q}[`) || p.startsWith(`${q}{`))));
}

test('the Argo CD schema built from @kubernetes-models/argo-cd has the field tree of the upstream CRDs but for the listed differences', () => {
  assert.ok(existsSync(CRDS), `no Argo CD CRDs at ${CRDS}: set FLEETPLAN_SHARED to the shared directory`);
  const files = readdirSync(CRDS).filter((f) => /\.ya?ml$/.test(f)).sort();
  const upstream = argoCdSchemasFromCrds(files.flatMap((f) => jsYaml.loadAll(readFileSync(join(CRDS, f), 'utf8'))), CRDS);
  const bundled = bundledArgoCdSchemas();
  assert.deepEqual(Object.keys(bundled.kinds).sort(), Object.keys(upstream.kinds).sort(), 'the same kinds and versions');

  const ours = fieldTree(bundled);
  const theirs = fieldTree(upstream);
  const onlyOurs = [...ours.keys()].filter((p) => !theirs.has(p));
  const onlyTheirs = outermost([...theirs.keys()].filter((p) => !ours.has(p)));
  const differing = [...ours.keys()].filter((p) => theirs.has(p) && theirs.get(p) !== ours.get(p));

  // The package never has a field Argo CD does not: no unknown field goes unreported.
  assert.deepEqual(onlyOurs, [], 'fields the package has and the CRDs do not');

  const unexplained = onlyTheirs.filter((p) => !MISSING_IN_PACKAGE.some((m) => p.endsWith(m.suffix)));
  assert.deepEqual(unexplained, [], 'fields the CRDs have and the package lacks, not listed in MISSING_IN_PACKAGE');
  const gone = MISSING_IN_PACKAGE.filter((m) => !onlyTheirs.some((p) => p.endsWith(m.suffix))).map((m) => m.suffix);
  assert.deepEqual(gone, [], 'listed as missing but present now: remove from MISSING_IN_PACKAGE and ADR 0155');

  const unexplainedDiffs = differing
    .filter((p) => !DIFFERENT.some((d) => p.endsWith(d.suffix) && ours.get(p) === d.package && theirs.get(p) === d.crd))
    .map((p) => `${p}: package ${ours.get(p)}, CRD ${theirs.get(p)}`);
  assert.deepEqual(unexplainedDiffs, [], 'types, enums or required fields that differ, not listed in DIFFERENT');
  const goneDiffs = DIFFERENT.filter((d) => !differing.some((p) => p.endsWith(d.suffix))).map((d) => d.suffix);
  assert.deepEqual(goneDiffs, [], 'listed as different but equal now: remove from DIFFERENT and ADR 0155');

  // A measure of closeness for the report: nearly every path is shared.
  const shared = [...ours.keys()].filter((p) => theirs.has(p)).length;
  assert.ok(shared / theirs.size > 0.95, `${shared} of ${theirs.size} upstream paths`);
});
