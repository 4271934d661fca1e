/**
 * The argocd-schema rule: committed Argo CD objects against the Argo CD CRD schemas (field names
 * and types), each code with a failing and a passing case, on small fleets whose apps apply
 * Applications and ApplicationSets (app-of-apps children).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError, argoCdSchemasFromCrds, loadFleet, validateFleet } from '../../src/index.js';
import type { ArgoCdSchemaSet, Finding } from '../../src/index.js';
import { validateSchema } from '../../src/load/json-schema.js';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { argoCdIssues, argoCdSchema, nearbyField } from '../../src/validate/rules/argocd-schema.js';
import { bundledArgoCdSchemas } from '../../src/validate/catalog/argocd-schema-source.js';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import jsYaml from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADER = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

/** A fleet whose `config` app (components/config) applies the given files. */
function withChildren(files: Record<string, string>): Record<string, string> {
  return baseFleet({
    'components/config/kustomization.yaml': `${HEADER}resources:\n${Object.keys(files).map((f) => `  - ${f}\n`).join('')}`,
    ...Object.fromEntries(Object.entries(files).map(([f, text]) => [`components/config/${f}`, text])),
  });
}

function argoFindings(files: Record<string, string>): Finding[] {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet).filter((f) => f.code.startsWith('argocd-'));
  } finally {
    removeTree(dir);
  }
}

const application = (syncPolicy: string, extra = '') => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: child
  namespace: openshift-gitops
spec:
  project: default
  source:
    repoURL: https://git.example.com/fleet.git
    path: components/operator
    targetRevision: main
  destination:
    server: https://kubernetes.default.svc
    namespace: op
  syncPolicy:
${syncPolicy}${extra}`;

const applicationSet = (templateSyncPolicy: string) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: children
  namespace: openshift-gitops
spec:
  generators:
    - list:
        elements:
          - component: a
            path: components/operator
            selfHeal: "true"
  template:
    metadata:
      name: '{{component}}'
      annotations:
        argocd.argoproj.io/sync-wave: '{{wave}}'
    spec:
      project: default
      source:
        repoURL: https://git.example.com/fleet.git
        path: '{{path}}'
        targetRevision: main
      destination:
        server: https://kubernetes.default.svc
        namespace: op
      syncPolicy:
${templateSyncPolicy}`;

test('argocd-unknown-field: prune directly under syncPolicy is reported at its line, with where it belongs', () => {
  const findings = argoFindings(withChildren({ 'app.yaml': application('    automated:\n      selfHeal: true\n    prune: false\n') }));
  assert.deepEqual(findings.map((f) => [f.severity, f.code, f.file, f.line, f.path]), [
    ['error', 'argocd-unknown-field', 'components/config/app.yaml', 18, 'spec.syncPolicy.prune'],
  ]);
  assert.match(findings[0]!.message, /Application "child": the Application CRD has no field spec\.syncPolicy\.prune/);
  assert.match(findings[0]!.hint!, /prune is a field of syncPolicy\.automated/);
});

test('argocd-unknown-field passes: prune under syncPolicy.automated', () => {
  assert.deepEqual(argoFindings(withChildren({ 'app.yaml': application('    automated:\n      prune: false\n      selfHeal: true\n') })), []);
});

test('argocd-unknown-field: a field the CRD does not have in an ApplicationSet template is reported, template strings are not', () => {
  const findings = argoFindings(withChildren({ 'appset.yaml': applicationSet("        automated:\n          selfHeal: '{{selfHeal}}'\n        prune: false\n") }));
  assert.deepEqual(findings.map((f) => [f.code, f.line, f.path]), [['argocd-unknown-field', 30, 'spec.template.spec.syncPolicy.prune']]);
  assert.match(findings[0]!.hint!, /prune is a field of syncPolicy\.automated/);
});

test('argocd-schema passes: an ApplicationSet template whose values are Go-template strings where the CRD wants a boolean', () => {
  assert.deepEqual(argoFindings(withChildren({ 'appset.yaml': applicationSet("        automated:\n          selfHeal: '{{selfHeal}}'\n          prune: true\n") })), []);
});

test('argocd-schema: a value of the wrong type is reported at its line', () => {
  const findings = argoFindings(withChildren({ 'app.yaml': application('    automated:\n      prune: true\n', '    retry:\n      limit: five\n') }));
  assert.deepEqual(findings.map((f) => [f.severity, f.code, f.file, f.line, f.path]), [
    ['error', 'argocd-schema', 'components/config/app.yaml', 19, 'spec.syncPolicy.retry.limit'],
  ]);
  assert.match(findings[0]!.message, /expected an integer, got "five"/);
});

test('argocd-schema passes: the same retry limit as an integer', () => {
  assert.deepEqual(argoFindings(withChildren({ 'app.yaml': application('    automated:\n      prune: true\n', '    retry:\n      limit: 5\n') })), []);
});

test('argocd-schema: an AppProject with a list where the CRD wants a string', () => {
  const project = 'apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: p\nspec:\n  description: [a, b]\n  sourceRepos: ["*"]\n';
  const findings = argoFindings(withChildren({ 'project.yaml': project }));
  assert.deepEqual(findings.map((f) => [f.code, f.line, f.path]), [['argocd-schema', 6, 'spec.description']]);
});

test('an object applied on two clusters is reported once', () => {
  const files = withChildren({ 'app.yaml': application('    prune: true\n') });
  files['clusters/two/cluster.yaml'] = files['clusters/one/cluster.yaml']!.replace('name: one', 'name: two').replace('role: hub', 'role: standalone');
  assert.equal(argoFindings(files).length, 1);
});

test('a file two kustomizations pull in with different namespaces is reported once', () => {
  const files = baseFleet({
    'components/operator/kustomization.yaml': `${HEADER}namespace: a\nresources:\n  - ../shared/app.yaml\n`,
    'components/config/kustomization.yaml': `${HEADER}namespace: b\nresources:\n  - ../shared/app.yaml\n`,
    'components/shared/app.yaml': application('    prune: true\n'),
  });
  assert.deepEqual(argoFindings(files).map((f) => `${f.file}:${f.line}`), ['components/shared/app.yaml:16']);
});

test('objects of other groups and other versions are not checked', () => {
  const other = 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: a\nspec:\n  prune: false\n';
  assert.deepEqual(argoFindings(withChildren({ 'argocd.yaml': other })), []);
  assert.equal(argoCdSchema('argoproj.io/v1beta1', 'ArgoCD'), undefined);
  assert.notEqual(argoCdSchema('argoproj.io/v1alpha1', 'ApplicationSet'), undefined);
});

test('the bundled schemas are small, come from the pinned @kubernetes-models/argo-cd and resolve every reference', () => {
  const generated = bundledArgoCdSchemas();
  const text = JSON.stringify(generated);
  assert.ok(text.length < 250_000, `argocd-schemas.json is ${text.length} bytes`);
  const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@kubernetes-models/argo-cd'];
  assert.match(pinned!, /^\d+\.\d+\.\d+$/, 'pinned exactly');
  assert.ok(generated.source.startsWith(`@kubernetes-models/argo-cd@${pinned} `), generated.source);
  assert.deepEqual(Object.keys(generated.kinds), ['argoproj.io/v1alpha1/AppProject', 'argoproj.io/v1alpha1/Application', 'argoproj.io/v1alpha1/ApplicationSet']);
  const defs = generated.$defs;
  for (const [, name] of text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) assert.ok(Object.hasOwn(defs, name!), `missing definition ${name}`);
});

test('template strings skip type checks but not field names', () => {
  const schema = argoCdSchema('argoproj.io/v1alpha1', 'Application')!;
  const body = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: {}, spec: { project: 'p', destination: {}, syncPolicy: { automated: '{{auto}}', '{{key}}': 1, bogus: 1 } } };
  assert.deepEqual(argoCdIssues(body, schema).map((i) => [i.path.join('.'), i.unknownField ?? false]), [['spec.syncPolicy.bogus', true]]);
});

test('nearbyField finds where a misplaced field belongs, breadth-first', () => {
  const syncPolicy: JsonSchema = { properties: { automated: { properties: { prune: { type: 'boolean' } } }, retry: { properties: { backoff: { properties: { prune: {} } } } } } };
  assert.deepEqual(nearbyField(syncPolicy, 'prune'), ['automated']);
  assert.equal(nearbyField(syncPolicy, 'nothing'), undefined);
});

test('structuralUnknownFields: an object schema with properties and no additionalProperties allows no other field', () => {
  const schema: JsonSchema = { type: 'object', properties: { a: { type: 'string' }, open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: {} } } };
  const value = { a: 'x', b: 1, open: { anything: true } };
  assert.deepEqual(validateSchema(value, schema), []);
  assert.deepEqual(validateSchema(value, schema, schema, { structuralUnknownFields: true }).map((i) => [i.path.join('.'), i.unknownField]), [['b', true]]);
});

for (const repo of ['examples/lab', 'test/fixtures/seed-004']) {
  test(`the Argo CD objects fleetplan renders for ${repo} match the Argo CD CRD schemas`, () => {
    const { fleet } = loadFleet(repo);
    let checked = 0;
    const issues: string[] = [];
    for (const file of renderFleet(resolveFleet(fleet)).files) {
      if (!/\.ya?ml$/.test(file.path)) continue;
      for (const doc of jsYaml.loadAll(file.content)) {
        if (typeof doc !== 'object' || doc === null) continue;
        const o = doc as Record<string, unknown>;
        const schema = argoCdSchema(String(o.apiVersion), String(o.kind));
        if (!schema) continue;
        checked++;
        for (const i of argoCdIssues(o, schema)) issues.push(`${file.path} ${i.path.join('.')}: ${i.message}`);
      }
    }
    assert.ok(checked > 0);
    assert.deepEqual(issues, []);
  });
}

/**
 * A small Application CRD written for these tests (not Argo CD's): it has a field the built-in
 * schema lacks (`spec.source.nextVersionField`, as a newer Argo CD would) and keeps
 * syncPolicy.automated.prune, so the hint still finds where prune belongs.
 */
const APPLICATION_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: applications.argoproj.io
spec:
  group: argoproj.io
  names: { kind: Application, plural: applications }
  scope: Namespaced
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          description: Application is a definition of Application resource.
          required: [metadata, spec]
          properties:
            apiVersion: { type: string }
            kind: { type: string }
            metadata: { type: object }
            spec:
              type: object
              required: [destination, project]
              properties:
                project: { type: string }
                destination: { type: object, properties: { server: { type: string }, namespace: { type: string } } }
                source:
                  type: object
                  required: [repoURL]
                  properties:
                    repoURL: { type: string, pattern: '^.+$' }
                    path: { type: string }
                    targetRevision: { type: string }
                    nextVersionField: { type: boolean }
                syncPolicy:
                  type: object
                  properties:
                    automated: { type: object, properties: { prune: { type: boolean }, selfHeal: { type: boolean } } }
                    retry: { type: object, properties: { limit: { type: integer, format: int64 } } }
            status: { type: object, properties: { health: { type: object, properties: { status: { type: string } } } } }
`;
const OTHER_CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: rollouts.argoproj.io\nspec:\n  group: argoproj.io\n  names: { kind: Rollout, plural: rollouts }\n  scope: Namespaced\n  versions:\n    - name: v1alpha1\n      served: true\n      schema: { openAPIV3Schema: { type: object } }\n';
const newerApplication = application('    automated:\n      prune: true\n').replace('    targetRevision: main\n', '    targetRevision: main\n    nextVersionField: true\n');

function findingsWith(files: Record<string, string>, argoCdSchemas?: ArgoCdSchemaSet): Finding[] {
  const dir = writeTree(files);
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet, argoCdSchemas ? { argoCdSchemas } : {}).filter((f) => f.code.startsWith('argocd-'));
  } finally {
    removeTree(dir);
  }
}

test('argoCdSchemasFromCrds reduces the Application CRD and leaves out other kinds and other documents', () => {
  const set = argoCdSchemasFromCrds(jsYaml.loadAll(`${OTHER_CRD}---\n${APPLICATION_CRD}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: argocd\n`), 'crds.yaml');
  assert.deepEqual(Object.keys(set.kinds), ['argoproj.io/v1alpha1/Application']);
  assert.deepEqual(set.$defs, {});
  assert.equal(set.source, 'crds.yaml (Application argoproj.io/v1alpha1)');
  const schema = set.kinds['argoproj.io/v1alpha1/Application']!;
  assert.equal(schema.description, undefined);
  assert.deepEqual(schema.properties!.status, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  assert.deepEqual(schema.properties!.spec!.properties!.source!.properties!.repoURL, { type: 'string' });
  assert.deepEqual(schema.properties!.spec!.properties!.syncPolicy!.properties!.retry!.properties!.limit, { type: 'integer' });
});

test('argoCdSchemasFromCrds refuses manifests without an Argo CD CRD, and a kind given twice', () => {
  const cases: { name: string; text: string; message: RegExp }[] = [
    { name: 'no CRD', text: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: argocd\n', message: /^no CustomResourceDefinition of Application, ApplicationSet, AppProject/ },
    { name: 'only other argoproj.io kinds', text: OTHER_CRD, message: /no CustomResourceDefinition/ },
    { name: 'Application twice', text: `${APPLICATION_CRD}---\n${APPLICATION_CRD}`, message: /two CustomResourceDefinitions for Application argoproj\.io\/v1alpha1/ },
  ];
  for (const c of cases) {
    assert.throws(() => argoCdSchemasFromCrds(jsYaml.loadAll(c.text), 'crds.yaml'), (e: unknown) => e instanceof InputError && e.code === 'argocd-crds-invalid' && e.location?.file === 'crds.yaml' && c.message.test(e.message), c.name);
  }
});

test('given CRDs replace the bundled schema of their kinds: a newer field passes, prune under syncPolicy is still reported with its hint', () => {
  const given = argoCdSchemasFromCrds(jsYaml.loadAll(APPLICATION_CRD), 'crds.yaml');
  assert.deepEqual(findingsWith(withChildren({ 'app.yaml': newerApplication })).map((f) => [f.code, f.path]), [['argocd-unknown-field', 'spec.source.nextVersionField']]);
  assert.deepEqual(findingsWith(withChildren({ 'app.yaml': newerApplication }), given), []);
  const misplaced = findingsWith(withChildren({ 'app.yaml': application('    automated:\n      selfHeal: true\n    prune: false\n') }), given);
  assert.deepEqual(misplaced.map((f) => [f.code, f.line, f.path]), [['argocd-unknown-field', 18, 'spec.syncPolicy.prune']]);
  assert.match(misplaced[0]!.hint!, /prune is a field of syncPolicy\.automated/);
});

test('given CRDs without an ApplicationSet leave ApplicationSets to the bundled schema', () => {
  const given = argoCdSchemasFromCrds(jsYaml.loadAll(APPLICATION_CRD), 'crds.yaml');
  const findings = findingsWith(withChildren({ 'appset.yaml': applicationSet("        automated:\n          selfHeal: '{{selfHeal}}'\n        prune: false\n") }), given);
  assert.deepEqual(findings.map((f) => [f.code, f.path]), [['argocd-unknown-field', 'spec.template.spec.syncPolicy.prune']]);
});

test('validate --argocd-crds PATH checks against the CRDs in PATH; a file without them is a usage error naming it', async () => {
  const dir = writeTree({ ...withChildren({ 'app.yaml': newerApplication }), 'argocd/crds.yaml': APPLICATION_CRD, 'argocd/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: argocd\n' });
  try {
    const builtIn = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.equal(builtIn.code, 1);
    assert.match(builtIn.stdout, /argocd-unknown-field/);
    const given = await cli(['validate', '--repo', dir, '-o', 'json', '--argocd-crds', join(dir, 'argocd')]);
    assert.equal(given.code, 0, given.stdout + given.stderr);
    assert.doesNotMatch(given.stdout, /argocd-/);
    const none = await cli(['validate', '--repo', dir, '--argocd-crds', 'namespace.yaml'], join(dir, 'argocd'));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /: namespace\.yaml: no CustomResourceDefinition of Application, ApplicationSet, AppProject/);
  } finally {
    removeTree(dir);
  }
});
