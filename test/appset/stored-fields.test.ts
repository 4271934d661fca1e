// The Application the ApplicationSet controller creates is its template rendered into Argo CD's
// Go struct and written back: a string field tagged `omitempty` that renders empty is absent from
// the stored Application (ADR 0410). A template like `chart: '{{ dig "chart" "name" "" . }}'`
// gives a path-based source with no `chart` key, not `chart: ""`; fields that are not
// `omitempty` (repoURL, kind, project) keep their empty string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateApplications } from '../../src/appset/applications.js';
import { formatApplications } from '../../src/appset/format.js';
import type { ApplicationSet, JsonObject } from '../../src/appset/types.js';
import { goEngine } from './go-engine.js';

function appSet(goTemplate: boolean, template: JsonObject, templatePatch?: string): ApplicationSet {
  const elements = [
    { name: 'a', chart: '', path: 'apps/a', ns: '', group: '' },
    { name: 'b', chart: 'redis', path: '', ns: 'b', group: 'apps' },
  ];
  return {
    metadata: { name: 's', namespace: 'argocd' },
    spec: { goTemplate, generators: [{ list: { elements } }], template, ...(templatePatch !== undefined ? { templatePatch } : {}) },
  } as unknown as ApplicationSet;
}

const ref = (goTemplate: boolean, k: string) => (goTemplate ? `{{ .${k} }}` : `{{${k}}}`);

function template(goTemplate: boolean): JsonObject {
  const r = (k: string) => ref(goTemplate, k);
  return {
    metadata: { name: r('name') },
    spec: {
      project: '',
      destination: { server: 'https://kubernetes.default.svc', namespace: r('ns'), name: '' },
      sources: [
        { repoURL: 'https://charts.example', chart: r('chart'), path: r('path'), targetRevision: '1.0.0' },
        { repoURL: '', ref: '', targetRevision: r('ns') },
      ],
      ignoreDifferences: [{ group: r('group'), kind: 'Deployment', name: '', namespace: r('ns'), jsonPointers: ['/spec/replicas'] }],
    },
  };
}

const expected = {
  a: {
    destination: { server: 'https://kubernetes.default.svc' },
    sources: [{ repoURL: 'https://charts.example', path: 'apps/a', targetRevision: '1.0.0' }, { repoURL: '' }],
    ignoreDifferences: [{ kind: 'Deployment', jsonPointers: ['/spec/replicas'] }],
  },
  b: {
    destination: { server: 'https://kubernetes.default.svc', namespace: 'b' },
    sources: [{ repoURL: 'https://charts.example', chart: 'redis', targetRevision: '1.0.0' }, { repoURL: '', targetRevision: 'b' }],
    ignoreDifferences: [{ group: 'apps', kind: 'Deployment', namespace: 'b', jsonPointers: ['/spec/replicas'] }],
  },
};

for (const goTemplate of [true, false]) {
  for (const compileTemplates of [true, false]) {
    test(`empty omitempty strings are left out (goTemplate ${goTemplate}, compiled ${compileTemplates})`, async () => {
      const { applications, invalid } = await generateApplications(appSet(goTemplate, template(goTemplate)), { ...goEngine, compileTemplates });
      assert.deepEqual(invalid, []);
      for (const g of applications) {
        const name = g.application.metadata.name as 'a' | 'b';
        const spec = g.application.spec as Record<string, unknown>;
        assert.deepEqual(spec.destination, expected[name].destination);
        assert.deepEqual(spec.sources, expected[name].sources);
        assert.deepEqual(spec.ignoreDifferences, expected[name].ignoreDifferences);
        assert.equal(spec.project, '', 'project is not omitempty: kept');
      }
      const text = formatApplications(applications);
      assert.doesNotMatch(text, /(chart|path|group|ref|namespace|name): (""|'')\n/);
      assert.match(text, /repoURL: (""|'')\n/);
    });
  }
}

test('an empty omitempty string a templatePatch writes is left out too', async () => {
  const t = template(true);
  const { applications } = await generateApplications(appSet(true, t, 'spec:\n  source:\n    repoURL: https://x.example\n    chart: "{{ .chart }}"\n    path: "{{ .path }}"\n'), goEngine);
  const a = applications.find((g) => g.application.metadata.name === 'a')!;
  assert.deepEqual((a.application.spec as Record<string, unknown>).source, { repoURL: 'https://x.example', path: 'apps/a' });
});

test('the template shared between Applications keeps its strings', async () => {
  const t = template(true);
  const before = JSON.stringify(t);
  await generateApplications(appSet(true, t), goEngine);
  assert.equal(JSON.stringify(t), before);
});
