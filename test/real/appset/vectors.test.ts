// Every vector of conformance/appset-vectors.json in the shared data (transcribed from Argo CD's
// own tests) runs here as one subtest. Exclusions are listed in EXCLUDED with the reason; the goal
// is none. The file is read when the test runs, not at import (ADR 0150).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FileGlobbing, GitRepo } from '../../../src/ports/git-repo.js';
import type { Generator, GeneratorContext, GeneratorRegistry } from '../../../src/appset/generators/generator.js';
import { createGeneratorRegistry } from '../../../src/appset/generators/registry.js';
import { transform } from '../../../src/appset/generators/transform.js';
import { interpolateGenerator } from '../../../src/appset/generators/interpolate.js';
import { paramSetsByMergeKey } from '../../../src/appset/generators/merge.js';
import { paramsFromGitFile } from '../../../src/appset/generators/git.js';
import { appendTemplatedValues } from '../../../src/appset/values.js';
import { Renderer, compileObject, fillMissing } from '../../../src/appset/render.js';
import type { GoTemplateCompiler } from '../../../src/appset/render.js';
import { normalizeName } from '../../../src/appset/normalize.js';
import { applyFinalizerRule, applyTemplatePatch, templateApplication, validateApplications } from '../../../src/appset/applications.js';
import type { Application, ApplicationSet, ApplicationSetTemplate, ClusterSecret, JsonObject, ParamSet } from '../../../src/appset/types.js';
import { splitPath } from '../../../src/appset/load.js';
import { goEngine } from '../../appset/go-engine.js';
import { sharedPath } from '../../support/shared.js';

interface Vector {
  source: string;
  category: string;
  goTemplate?: boolean;
  goTemplateOptions?: string[];
  generator?: JsonObject | null;
  inputs: Record<string, any>;
  expected: Record<string, any>;
  notes?: string;
}

function loadVectors(): Vector[] {
  return JSON.parse(readFileSync(sharedPath('conformance', 'appset-vectors.json'), 'utf8')) as Vector[];
}

/** Vectors not run, each with the reason. None: every vector passes. */
const EXCLUDED: Record<string, string> = {};

const compileGo: GoTemplateCompiler | undefined = goEngine.compileGoTemplate;

function renderer(v: Vector): Renderer {
  return new Renderer({
    goTemplate: v.goTemplate === true,
    goTemplateOptions: v.goTemplateOptions ?? [],
    compileGoTemplate: compileGo,
    toGoData: goEngine.toGoData,
  });
}

function appSetOf(v: Vector, name = 'test'): ApplicationSet {
  return {
    metadata: { name, namespace: v.inputs['argocdNamespace'] ?? 'argocd' },
    spec: { goTemplate: v.goTemplate === true, goTemplateOptions: v.goTemplateOptions ?? [], generators: [], template: {} },
  };
}

function clusterSecrets(v: Vector): () => Promise<readonly ClusterSecret[]> {
  const err = v.inputs['clusterListError'] as string | undefined;
  const list = ((v.inputs['clusterSecrets'] ?? []) as any[]).map(
    (s): ClusterSecret => ({ name: s.name, namespace: s.namespace, labels: s.labels ?? {}, annotations: s.annotations ?? {}, data: s.data ?? {} }),
  );
  return () => (err ? Promise.reject(new Error(err)) : Promise.resolve(list));
}

/** The repo server as the vector mocks it. */
function mockRepo(v: Vector): GitRepo {
  const inp = v.inputs;
  const repoError = inp['repoError'] as string | undefined;
  const toMap = (o: Record<string, string> | undefined): Map<string, string> => new Map(Object.entries(o ?? {}));
  return {
    getDirectories: () => (repoError !== undefined ? Promise.reject(new Error(repoError)) : Promise.resolve([...(inp['repoDirectories'] ?? [])])),
    getFiles: (repoURL: string, _rev: string, pattern: string) => {
      if (repoError !== undefined) return Promise.reject(new Error(repoError));
      if (inp['filesByRepoAndPattern']) return Promise.resolve(toMap(inp['filesByRepoAndPattern'][repoURL]?.[pattern]));
      if (inp['filesByPattern']) return Promise.resolve(toMap(inp['filesByPattern'][pattern]));
      return Promise.resolve(toMap(inp['filesReturnedForAnyPattern']));
    },
  };
}

function registryOf(v: Vector): GeneratorRegistry {
  const mock = v.inputs['mockGenerators']?.git as ParamSet[] | undefined;
  if (!mock) return createGeneratorRegistry();
  const stub: Generator = { generate: () => Promise.resolve(structuredClone(mock)) };
  return createGeneratorRegistry({ git: stub });
}

function contextOf(v: Vector): GeneratorContext {
  const globbing: FileGlobbing = String(v.inputs['globbing'] ?? '').startsWith('new') ? 'doublestar' : 'pathspec';
  return {
    appSet: appSetOf(v),
    renderer: renderer(v),
    clusterSecrets: clusterSecrets(v),
    git: mockRepo(v),
    fileGlobbing: globbing,
    path: 'spec.generators[0]',
  };
}

const canon = (x: unknown): string =>
  JSON.stringify(x, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : val,
  );

function sortSets(sets: unknown[], innerClusters: boolean): unknown[] {
  const norm = (s: any): unknown => (innerClusters && Array.isArray(s?.clusters) ? { ...s, clusters: [...s.clusters].sort((a, b) => canon(a).localeCompare(canon(b))) } : s);
  return sets.map(norm).sort((a, b) => canon(a).localeCompare(canon(b)));
}

/** Plain JSON copy (drops undefined, makes params comparable with the vector's JSON). */
const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x)) as unknown;

function assertParams(actual: ParamSet[], expected: Record<string, any>): void {
  const compare = String(expected['compare'] ?? 'ordered');
  const got = plain(actual) as unknown[];
  if (expected['paramsSubset']) {
    assert.equal(got.length, expected['count']);
    for (const sub of expected['paramsSubset'] as unknown[]) assert.ok(got.some((g) => isSubset(sub, g)), `no param set contains ${canon(sub)}; got ${canon(got)}`);
    return;
  }
  if (compare === 'ordered') assert.deepEqual(got, expected['params']);
  else assert.deepEqual(sortSets(got, compare.includes('clusters')), sortSets(expected['params'] as unknown[], compare.includes('clusters')));
}

function isSubset(sub: unknown, whole: unknown): boolean {
  if (sub && typeof sub === 'object' && !Array.isArray(sub)) {
    if (!whole || typeof whole !== 'object') return false;
    return Object.entries(sub).every(([k, v]) => isSubset(v, (whole as Record<string, unknown>)[k]));
  }
  return canon(sub) === canon(whole);
}

async function assertOutcome<T>(expected: Record<string, any>, run: () => Promise<T> | T, check: (r: T) => void): Promise<void> {
  const wantsError = expected['error'] !== undefined || expected['errorContains'] !== undefined;
  if (!wantsError) {
    check(await run());
    return;
  }
  let failed: Error | undefined;
  try {
    await run();
  } catch (e) {
    failed = e as Error;
  }
  assert.ok(failed, 'expected an error');
  if (typeof expected['error'] === 'string') assert.equal(failed.message, expected['error']);
  const contains = expected['errorContains'];
  for (const c of Array.isArray(contains) ? contains : contains === undefined ? [] : [contains]) {
    assert.ok(failed.message.includes(String(c)), `"${failed.message}" should contain "${String(c)}"`);
  }
}

/** The vector's Go struct dumps (`applicationSetTemplateMeta`, `objectMeta`, `typeMeta`) as YAML-shaped objects. */
function fromGoTemplate(t: any): ApplicationSetTemplate {
  if (!t) return {};
  const out: any = { ...t };
  if ('applicationSetTemplateMeta' in out) {
    out.metadata = out.applicationSetTemplateMeta;
    delete out.applicationSetTemplateMeta;
  }
  return out as ApplicationSetTemplate;
}

function fromGoApplication(a: any): Application {
  const out: any = {};
  if (a.typeMeta) {
    out.apiVersion = a.typeMeta.aPIVersion;
    out.kind = a.typeMeta.kind;
  }
  out.metadata = a.objectMeta ?? {};
  out.spec = a.spec ?? {};
  return out as Application;
}

function getPath(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const k of splitPath(path)) cur = cur?.[k];
  return cur;
}

const run: Record<string, (v: Vector) => Promise<void>> = {
  async generator(v) {
    const ctx = contextOf(v);
    await assertOutcome(
      v.expected,
      async () => (await transform(v.generator as JsonObject, registryOf(v), ctx)).flatMap((r) => r.params),
      (params) => assertParams(params, v.expected),
    );
  },
  async normalize(v) {
    assert.equal(normalizeName(v.inputs['name']), v.expected['value']);
  },
  async validate(v) {
    const apps = (v.inputs['applications'] as Application[]).map((application) => ({ application, params: {}, generator: '' }));
    const res = validateApplications(appSetOf(v, ''), apps);
    assert.deepEqual(Object.fromEntries(res.invalid.map((i) => [i.name, i.message])), v.expected['validationErrors']);
  },
  async 'template-merge'(v) {
    const merged = fillMissing(fromGoTemplate(v.inputs['generatorTemplate']), fromGoTemplate(v.inputs['applicationSetTemplate']));
    assert.deepEqual(merged, fromGoTemplate(v.expected['mergedTemplate']));
  },
  async 'git-file-params'(v) {
    const git = (v.generator as any).git;
    await assertOutcome(
      v.expected['error'] === true ? { errorContains: '' } : v.expected,
      () => paramsFromGitFile(v.inputs['filePath'], v.inputs['fileContent'], git.values, git.pathParamPrefix ?? '', { renderer: renderer(v) }),
      (params) => assertParams(params, v.expected),
    );
  },
  async values(v) {
    const params = appendTemplatedValues(v.inputs['values'], structuredClone(v.inputs['params'] ?? {}), renderer(v));
    assert.deepEqual(plain(params), v.expected['params']);
  },
  async 'merge-keys'(v) {
    await assertOutcome(
      v.expected,
      () => paramSetsByMergeKey(v.inputs['mergeKeys'], v.inputs['paramSets']),
      (m) => assert.deepEqual(Object.fromEntries(m), v.expected['paramSetsByMergeKey']),
    );
  },
  async 'interpolate-generator'(v) {
    await assertOutcome(
      v.expected,
      () => interpolateGenerator(v.generator, v.inputs['params'] ?? {}, renderer(v)),
      (g) => {
        if (v.expected['generatorUnchanged']) assert.deepEqual(g, v.generator);
        for (const [path, want] of Object.entries(v.expected['generatorFields'] ?? {})) {
          const got = getPath(g, path);
          // Go's zero value: an absent list equals an empty one.
          if (Array.isArray(want) && want.length === 0 && got === undefined) continue;
          assert.deepEqual(got, want, path);
        }
      },
    );
  },
  async 'render-field'(v) {
    const r = renderer(v);
    const field = v.inputs['fieldValue'] as string;
    const params = v.inputs['params'] as ParamSet | null;
    const expected = v.expected['error'] === true ? { errorContains: '' } : v.expected;
    if (params === null) {
      // Argo's Replace called directly.
      await assertOutcome(expected, () => r.render(field, {}), (out) => assert.equal(out, v.expected['value']));
      return;
    }
    // Through the Application renderer: the same field in several places of the template.
    const tmpl = templateApplication({ metadata: { name: field, annotations: { a: field } }, spec: { source: { path: field }, info: [{ value: field }] } });
    await assertOutcome(
      expected,
      () => (Object.keys(params).length === 0 ? tmpl : (compileObject(tmpl, r)(r.prepare(params)) as Application)),
      (app) => {
        for (const p of ['metadata.name', 'metadata.annotations.a', 'spec.source.path', 'spec.info[0].value']) assert.equal(getPath(app, p), v.expected['value'], p);
      },
    );
  },
  async finalizers(v) {
    const r = renderer(v);
    const tmpl = templateApplication({ metadata: { name: 'app', ...(v.inputs['templateFinalizers'] ? { finalizers: v.inputs['templateFinalizers'] } : {}) }, spec: {} });
    const app = compileObject(tmpl, r)(r.prepare(v.inputs['params'])) as Application;
    applyFinalizerRule(app, v.inputs['syncPolicy']?.preserveResourcesOnDeletion === true);
    assert.deepEqual(app.metadata.finalizers ?? null, v.expected['finalizers']);
  },
  async 'template-patch'(v) {
    await assertOutcome(
      v.expected['error'] === true ? { errorContains: '' } : v.expected,
      () => applyTemplatePatch(fromGoApplication(v.inputs['application']), v.inputs['renderedTemplatePatch']),
      (app) => assert.deepEqual(app, fromGoApplication(v.expected['application'])),
    );
  },
  async 'render-app'(v) {
    const r = renderer(v);
    const tmpl = templateApplication(fromGoTemplate(v.inputs['template']));
    const app = compileObject(tmpl, r)(r.prepare(v.inputs['params']));
    for (const [path, want] of Object.entries(v.expected['fields'] ?? {})) assert.deepEqual(getPath(app, path), want, path);
  },
};

const GENERATOR_CATEGORIES = new Set(['list', 'cluster', 'git-directories', 'git-files', 'git-files-exclude', 'matrix', 'matrix-interpolation', 'merge', 'post-selector']);

test('appset-vectors.json: every vector', async (t) => {
  const vectors = loadVectors();
  const seen = new Map<string, number>();
  for (const v of vectors) {
    const n = (seen.get(v.source) ?? 0) + 1;
    seen.set(v.source, n);
    const name = `${v.category}: ${v.source.replace(/^.*#/, '')}${n > 1 ? ` (${n})` : ''}`;
    const runner = GENERATOR_CATEGORIES.has(v.category) ? run['generator'] : run[v.category];
    if (EXCLUDED[v.source]) continue;
    await t.test(name, async () => {
      assert.ok(runner, `no runner for category ${v.category}`);
      await runner(v);
    });
  }
});

test('every vector category has a runner and every exclusion names a vector', () => {
  const vectors = loadVectors();
  for (const v of vectors) assert.ok(GENERATOR_CATEGORIES.has(v.category) || run[v.category], v.category);
  for (const source of Object.keys(EXCLUDED)) assert.ok(vectors.some((v) => v.source === source), source);
  assert.equal(vectors.length, 207);
});
