import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applicationPatchSchema, strategicMergePatch } from '../../src/appset/smp.js';

const app = {
  metadata: { name: 'a', finalizers: ['resources-finalizer.argocd.argoproj.io'], labels: { x: '1' } },
  spec: {
    project: 'default',
    sources: [{ repoURL: 'r1', path: 'p1' }, { repoURL: 'r2', ref: 'values' }],
    syncPolicy: { automated: { prune: true }, syncOptions: ['CreateNamespace=true'] },
  },
};

const cases: { name: string; patch: Record<string, unknown>; expect: (r: any) => void }[] = [
  { name: 'merges maps recursively', patch: { metadata: { labels: { y: '2' } } }, expect: (r) => assert.deepEqual(r.metadata.labels, { x: '1', y: '2' }) },
  { name: 'null deletes a key', patch: { metadata: { labels: { x: null } } }, expect: (r) => assert.deepEqual(r.metadata.labels, {}) },
  { name: 'finalizers (patchStrategy merge) are unioned', patch: { metadata: { finalizers: ['f2', 'resources-finalizer.argocd.argoproj.io'] } }, expect: (r) => assert.deepEqual(r.metadata.finalizers, ['resources-finalizer.argocd.argoproj.io', 'f2']) },
  { name: 'spec.sources (no patch strategy) is replaced', patch: { spec: { sources: [{ repoURL: 'r3' }] } }, expect: (r) => assert.deepEqual(r.spec.sources, [{ repoURL: 'r3' }]) },
  { name: 'syncOptions (no patch strategy) is replaced', patch: { spec: { syncPolicy: { syncOptions: ['ServerSideApply=true'] } } }, expect: (r) => assert.deepEqual(r.spec.syncPolicy, { automated: { prune: true }, syncOptions: ['ServerSideApply=true'] }) },
  { name: '$patch: replace replaces a map', patch: { spec: { syncPolicy: { $patch: 'replace', automated: { selfHeal: true } } } }, expect: (r) => assert.deepEqual(r.spec.syncPolicy, { automated: { selfHeal: true } }) },
  { name: '$patch: delete removes a map', patch: { spec: { syncPolicy: { $patch: 'delete' } } }, expect: (r) => assert.equal(r.spec.syncPolicy, undefined) },
  { name: '$deleteFromPrimitiveList removes finalizers', patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['resources-finalizer.argocd.argoproj.io'] } }, expect: (r) => assert.deepEqual(r.metadata.finalizers, []) },
  {
    name: 'ownerReferences merge by uid',
    patch: { metadata: { ownerReferences: [{ uid: 'u1', name: 'changed' }, { uid: 'u2', name: 'new' }] } },
    expect: (r) => assert.deepEqual(r.metadata.ownerReferences, [{ uid: 'u1', name: 'changed', kind: 'K' }, { uid: 'u2', name: 'new' }]),
  },
];

for (const c of cases) {
  test(`strategic merge patch: ${c.name}`, () => {
    const original = structuredClone(app) as Record<string, any>;
    if (c.name.startsWith('ownerReferences')) original['metadata'].ownerReferences = [{ uid: 'u1', name: 'old', kind: 'K' }];
    const before = structuredClone(original);
    c.expect(strategicMergePatch(original, c.patch, applicationPatchSchema));
    assert.deepEqual(original, before, 'the original is not modified');
  });
}
