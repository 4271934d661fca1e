// Behaviour of the generators beyond the conformance vectors: the decisions of ADR 0070.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGeneratorRegistry } from '../../src/appset/generators/registry.js';
import { transform } from '../../src/appset/generators/transform.js';
import type { GeneratorContext } from '../../src/appset/generators/generator.js';
import { Renderer } from '../../src/appset/render.js';
import { createMemoryTree, createRepoServer } from '../../src/appset/repo-server.js';
import { generateApplications } from '../../src/appset/applications.js';
import { ApplicationSetError } from '../../src/appset/types.js';
import type { ApplicationSet, JsonObject } from '../../src/appset/types.js';

const noEngine = (): never => {
  throw new Error('not used');
};

function ctx(goTemplate: boolean, applyNestedSelectors = false): GeneratorContext {
  const appSet: ApplicationSet = { metadata: { name: 't', namespace: 'argocd' }, spec: { goTemplate, applyNestedSelectors, generators: [], template: {} } };
  return {
    appSet,
    renderer: new Renderer({ goTemplate, compileGoTemplate: noEngine }),
    clusterSecrets: () => Promise.resolve([]),
    git: createRepoServer(createMemoryTree({ 'apps/a/x': '', 'apps/b/x': '', 'apps/.hidden/x': '' })),
    fileGlobbing: 'pathspec',
    path: 'spec.generators[0]',
  };
}

const params = async (entry: JsonObject, c: GeneratorContext) => (await transform(entry, createGeneratorRegistry(), c)).flatMap((r) => r.params);

test('merge (goTemplate): a later generator overrides values but not with empty ones', async () => {
  const entry = {
    merge: {
      mergeKeys: ['k'],
      generators: [
        { list: { elements: [{ k: 'a', x: 'base', y: 'base', nested: { p: 1, q: 1 } }] } },
        { list: { elements: [{ k: 'a', x: 'over', y: '', nested: { q: 2 } }] } },
      ],
    },
  };
  assert.deepEqual(await params(entry, ctx(true)), [{ k: 'a', x: 'over', y: 'base', nested: { p: 1, q: 2 } }]);
});

test('matrix: selectors inside a nested matrix are dropped unless applyNestedSelectors', async () => {
  const nested = {
    matrix: {
      generators: [
        { list: { elements: [{ a: '1' }, { a: '2' }] } },
        {
          matrix: {
            generators: [{ list: { elements: [{ b: '1' }, { b: '2' }] }, selector: { matchLabels: { b: '1' } } }, { list: { elements: [{ c: '1' }] } }],
          },
        },
      ],
    },
  };
  assert.equal((await params(nested, ctx(false))).length, 4);
  assert.equal((await params(nested, ctx(false, true))).length, 2);
});

test('matrix: a third level of nesting is rejected with the field named', async () => {
  const deep = {
    matrix: {
      generators: [
        { list: { elements: [{ a: '1' }] } },
        { matrix: { generators: [{ list: { elements: [{ b: '1' }] } }, { matrix: { generators: [] } }] } },
      ],
    },
  };
  await assert.rejects(params(deep, ctx(false)), (e: unknown) => e instanceof ApplicationSetError && /the matrix generator is not supported here/.test(e.message));
});

test('matrix (flat): the same key with different values is an error', async () => {
  const entry = { matrix: { generators: [{ list: { elements: [{ a: '1' }] } }, { list: { elements: [{ a: '2' }] } }] } };
  await assert.rejects(params(entry, ctx(false)), /found duplicate key a with different value, a: 1 ,b: 2/);
});

test('git directories: hidden directories are skipped', async () => {
  const entry = { git: { repoURL: 'x', directories: [{ path: 'apps/*' }] } };
  assert.deepEqual(
    (await params(entry, ctx(false))).map((p) => p['path']),
    ['apps/a', 'apps/b'],
  );
});

test('an empty param set renders the template untouched (no finalizer), in the ApplicationSet namespace', async () => {
  const appSet: ApplicationSet = {
    metadata: { name: 't', namespace: 'team' },
    spec: { generators: [{ list: { elements: [{}] } }], template: { metadata: { name: 'literal-{{x}}', namespace: 'ignored' }, spec: { project: 'p' } } },
  };
  const res = await generateApplications(appSet);
  assert.deepEqual(res.applications[0]!.application.metadata, { name: 'literal-{{x}}', namespace: 'team' });
});

test('generator template fields win over spec.template, which fills the rest', async () => {
  const appSet: ApplicationSet = {
    metadata: { name: 't', namespace: 'argocd' },
    spec: {
      generators: [{ list: { elements: [{ n: 'a' }], template: { metadata: { name: 'gen-{{n}}' }, spec: {} } } }],
      template: { metadata: { name: 'base-{{n}}', labels: { l: '{{n}}' } }, spec: { project: 'default' } },
    },
  };
  const app = (await generateApplications(appSet)).applications[0]!.application;
  assert.equal(app.metadata.name, 'gen-a');
  assert.deepEqual(app.metadata.labels, { l: 'a' });
  assert.equal(app.spec['project'], 'default');
});

test('preserveResourcesOnDeletion leaves the finalizers empty', async () => {
  const appSet: ApplicationSet = {
    metadata: { name: 't', namespace: 'argocd' },
    spec: { syncPolicy: { preserveResourcesOnDeletion: true }, generators: [{ list: { elements: [{ n: 'a' }] } }], template: { metadata: { name: '{{n}}' }, spec: {} } },
  };
  assert.equal((await generateApplications(appSet)).applications[0]!.application.metadata.finalizers, undefined);
});
