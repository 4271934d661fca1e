/**
 * The argocd-schema rule: committed Argo CD objects against the Argo CD CRD schemas (field names
 * and types), each code with a failing and a passing case, on small fleets whose apps apply
 * Applications and ApplicationSets (app-of-apps children).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, validateFleet } from '../../src/index.js';
import type { Finding } from '../../src/index.js';
import { validateSchema } from '../../src/load/json-schema.js';
import type { JsonSchema } from '../../src/load/json-schema.js';
import { argoCdIssues, argoCdSchema, nearbyField } from '../../src/validate/rules/argocd-schema.js';
import generated from '../../src/validate/catalog/argocd-schemas.json' with { type: 'json' };
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';
import { renderFleet } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import jsYaml from 'js-yaml';

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

test('the generated schemas are small, name their source and resolve every reference', () => {
  const text = JSON.stringify(generated);
  assert.ok(text.length < 250_000, `argocd-schemas.json is ${text.length} bytes`);
  assert.match((generated as { $comment: string[] }).$comment.join('\n'), /argoproj\/argo-cd commit [0-9a-f]{40}[\s\S]*scripts\/gen-argocd-schemas\.mjs/);
  const defs = (generated as unknown as { $defs: Record<string, unknown> }).$defs;
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
