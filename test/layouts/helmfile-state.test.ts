/**
 * A helmfile state read as helmfile reads it (ADR 0364): `bases:` merged in order before the
 * file's own content (releases and repositories appended, maps overridden), the `default`
 * environment's `values:` (files and inline maps, merged in order) as `.Values` /
 * `.Environment.Values` of templates, `_*.tpl` helpers of the helmfile's folder through `include`, and values
 * fleetplan cannot know — a vals `ref+…` secret reference — reported at their file, line and field,
 * never replaced. Small fixtures written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { releaseSource } from '../../src/layouts/helmfile-flux/reader.js';
import { readHelmfileFixture } from '../support/helmfile-read.js';

const read = (files: Record<string, string>, file = 'bootstrap/helmfile.yaml') => readHelmfileFixture(files, file);

test('helmfile state: bases are merged in order before the file: their releases come first, their repositories and helmDefaults apply', () => {
  const { releases } = read({
    'bootstrap/common.yaml': 'repositories:\n  - name: jetstack\n    url: https://charts.jetstack.io\nreleases:\n  - name: cert-manager\n    namespace: cert-manager\n    chart: jetstack/cert-manager\n    version: v1.0.0\n',
    'bootstrap/helmfile.yaml': 'bases:\n  - common.yaml\nreleases:\n  - name: issuers\n    namespace: cert-manager\n    chart: jetstack/cert-manager-issuers\n    version: 0.1.0\n    needs:\n      - cert-manager/cert-manager\n',
  });
  assert.deepEqual(releases.map((r) => `${r.namespace}/${r.name}`), ['cert-manager/cert-manager', 'cert-manager/issuers']);
  assert.equal(releases[0]!.file, 'bootstrap/common.yaml');
  assert.equal(releases[0]!.line, 5);
  // The file's own release uses the repository its base declares.
  assert.deepEqual(releaseSource(releases[1]!).repoURL, 'https://charts.jetstack.io');
});

test('helmfile state: the default environment values (files, then inline maps, bases first) are .Values of release fields and values templates', () => {
  const { releases, findings } = read({
    'bootstrap/env/common.yaml': 'registry: oci://ghcr.io/example\nreplicas: 1\n',
    'bootstrap/base.yaml': 'environments:\n  default:\n    values:\n      - env/common.yaml\n',
    'bootstrap/helmfile.yaml': `bases:
  - base.yaml
environments:
  default:
    values:
      - replicas: 3
---
releases:
  - name: web
    namespace: web
    chart: '{{ .Values.registry }}/web'
    version: 1.0.0
    values:
      - values.yaml.gotmpl
`,
    'bootstrap/values.yaml.gotmpl': 'replicaCount: {{ .Values.replicas }}\nenv: {{ .Environment.Name }}\n',
  });
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.equal(releases[0]!.chart, 'oci://ghcr.io/example/web');
  assert.deepEqual(releaseSource(releases[0]!).helm?.values, { replicaCount: 3, env: 'default' });
});

test('helmfile state: the _*.tpl helpers of the helmfile folder are loaded as helmfile loads them, and include gives the release its chart', () => {
  const { releases, findings } = read({
    'bootstrap/_helpers.tpl': '{{- define "chart" -}}oci://ghcr.io/example/{{ .Release.Name }}{{- end -}}',
    'bootstrap/helmfile.yaml': "releases:\n  - name: api\n    namespace: api\n    chart: '{{ include \"chart\" . }}'\n    version: 2.0.0\n",
  });
  assert.deepEqual(findings, []);
  assert.equal(releases[0]!.chart, 'oci://ghcr.io/example/api');
});

test('helmfile state: a vals ref+ secret reference is one finding at its file, line and field, and the release values are not made up', () => {
  const { releases, findings } = read({
    'bootstrap/helmfile.yaml': `environments:
  default:
    values:
      - token: ref+vault://secret/data/app#/token
releases:
  - name: app
    namespace: app
    chart: oci://ghcr.io/example/app
    version: 1.0.0
    values:
      - password: ref+awssecrets://app/password
`,
  });
  const refs = findings.filter((f) => f.code === 'helmfile-value-not-read');
  assert.deepEqual(refs.map((f) => [f.file, f.line]), [
    ['bootstrap/helmfile.yaml', 4],
    ['bootstrap/helmfile.yaml', 11],
  ]);
  assert.match(refs[0]!.message, /environments\.default\.values\[0\]\.token/);
  assert.match(refs[1]!.message, /releases\[0\]\.values\[0\]\.password.*ref\+awssecrets:\/\/app\/password/);
  assert.ok(releases[0]!.notRead?.length, 'the release says its values are not known');
  // render --leaves does not build it with a made-up value.
  assert.equal(releaseSource(releases[0]!).repoURL, 'helmfile');
});

test('helmfile state: plan says the default environment is the one read, with its values files, and prints the chart its values gave', async () => {
  const dir = writeTree({
    'bootstrap/env/common.yaml': 'registry: oci://ghcr.io/example\n',
    'bootstrap/helmfile.yaml': "environments:\n  default:\n    values:\n      - env/common.yaml\n---\nreleases:\n  - name: web\n    namespace: web\n    chart: '{{ .Values.registry }}/web'\n    version: 1.0.0\n",
  });
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /note: helmfile environment default: bootstrap\/helmfile\.yaml:2 \(values env\/common\.yaml: read into the helmfile templates\)/);
    assert.match(r.stdout, /oci:\/\/ghcr\.io\/example\/web/);
  } finally {
    removeTree(dir);
  }
});
