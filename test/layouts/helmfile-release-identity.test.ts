/**
 * A release's name, namespace and needs are templates helmfile renders in every state file, not
 * only in a `.gotmpl` one (pkg/state/release.go ExecuteTemplateExpressions, run until the release no
 * longer changes): fleetplan renders them with the environment values, and when those values are
 * not known (sops `secrets:` of the environment) it says so at the field instead of showing the
 * template text as the release's name or namespace (ADR 0404). Small fixtures written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HelmfileRelease } from '../../src/model/graphs.js';
import { readHelmfileFixture as read } from '../support/helmfile-read.js';
import { readHelmfileEnvironments } from '../../src/load/helmfile-environments.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const ids = (rs: readonly HelmfileRelease[]) => rs.map((r) => `${r.namespace}/${r.name}`);

const STATE = (secrets: string) => `environments:
  default:
    values:
      - env.yaml
${secrets}---
releases:
  - name: app
    namespace: '{{ .Values.ns }}'
    chart: oci://ghcr.io/example/app
  - name: '{{ .Values.name }}'
    namespace: fixed
    chart: oci://ghcr.io/example/two
    needs:
      - '{{ .Values.ns }}/app'
  - name: own
    namespace: '{{ .Release.Name }}-system'
    chart: oci://ghcr.io/example/own
    needs:
      - '{{ .Values.ns }}/app'
`;
const ENV = 'ns: web\nname: two\n';

test('helmfile release name, namespace and needs are rendered in a plain helmfile.yaml, as helmfile renders them', () => {
  const { releases, findings } = read({ 'helmfile.yaml': STATE(''), 'env.yaml': ENV }, 'helmfile.yaml');
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(ids(releases), ['web/app', 'fixed/two', 'own-system/own']);
  assert.deepEqual(releases[1]!.needs.map((n) => `${n.namespace}/${n.name}`), ['web/app']);
  assert.equal(releases.some((r) => r.notRead?.length), false);
});

test('helmfile release name or namespace that reads environment values a sops secret hides: the release is said not read at the field, never named by its template', () => {
  const { releases, findings } = read({ 'helmfile.yaml': STATE('    secrets:\n      - secrets.sops.yaml\n'), 'env.yaml': ENV, 'secrets.sops.yaml': 'pw: ENC[AES256_GCM,data:x]\n' }, 'helmfile.yaml');
  const text = JSON.stringify(releases.map((r) => [r.name, r.namespace, r.needs]));
  assert.doesNotMatch(text, /\{\{/, 'no template text is output as a name, namespace or need');
  // `own` reads only .Release.Name for its namespace: it is read; its need reads the values: not known.
  assert.deepEqual(ids(releases), ['own-system/own']);
  assert.deepEqual(releases[0]!.needs, []);
  assert.match(releases[0]!.notRead?.join('\n') ?? '', /needs\[0\] \{\{ \.Values\.ns \}\}\/app \(helmfile\.yaml:21: it reads environment values that are not known/);
  const notRead = findings.filter((f) => f.code === 'helmfile-template-not-read');
  assert.deepEqual(
    notRead.map((f) => `${f.file}:${f.line} ${/releases\[\d\]\.\w+/.exec(f.message)?.[0]}`),
    ['helmfile.yaml:10 releases[0].namespace', 'helmfile.yaml:12 releases[1].name'],
  );
  assert.match(notRead[0]!.message, /release app is not read: releases\[0\]\.namespace \{\{ \.Values\.ns \}\} reads environment values that are not known \(see helmfile-value-not-read\)/);
});

test('helmfile release name rendered from .Release fields reaches a fixed point as helmfile\'s six passes do', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml': `releases:
  - name: '{{ .Release.Namespace }}-db'
    namespace: data
    chart: oci://ghcr.io/example/db
`,
    },
    'helmfile.yaml',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(ids(releases), ['data/data-db']);
});

test('helmfile state that is not YAML until rendered, in a file not named .gotmpl: rendered as helmfile before v1 renders it, with a warning that helmfile v1 fails on it', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml': `environments:
  default:
    values:
      - ns: web
---
releases:
{{- range list "a" "b" }}
  - name: {{ . }}
    namespace: {{ $.Values.ns }}
    chart: oci://ghcr.io/example/{{ . }}
{{- end }}
`,
    },
    'helmfile.yaml',
  );
  assert.deepEqual(ids(releases), ['web/a', 'web/b']);
  assert.deepEqual(findings.map((f) => `${f.severity} ${f.code} ${f.file}:${f.line}`), ['warning helmfile-state-not-yaml helmfile.yaml:1']);
  assert.match(findings[0]!.message, /helmfile v1 renders only \.gotmpl files \(unless HELMFILE_RENDER_YAML=true\) and fails on it as written/);
  // YAML reads an unquoted {{ … }} as a flow map: the namespace was no string, and the release landed in default.
  const flow = read({ 'helmfile.yaml': 'environments:\n  default:\n    values:\n      - ns: web\n---\nreleases:\n  - name: a\n    namespace: {{ .Values.ns }}\n    chart: oci://ghcr.io/example/a\n' }, 'helmfile.yaml');
  assert.deepEqual(ids(flow.releases), ['web/a']);
  assert.deepEqual(flow.findings.map((f) => f.code), ['helmfile-state-not-yaml']);
});

test('helmfile environments of a state that is not YAML until rendered are found where they are written, so -e NAME selects it', () => {
  const dir = writeTree({
    'helmfile.yaml': `releases:
{{ if eq .Environment.Name "gcp" }}
  - name: a
    chart: oci://ghcr.io/example/a
{{ end }}
environments:
  default:
  gcp:
    values:
      - env/gcp.yaml
    kubeContext: {{ requiredEnv "CTX" }}
`,
  });
  try {
    const envs = readHelmfileEnvironments(nodeFileSystem(dir), ['helmfile.yaml']);
    assert.deepEqual(envs[0]?.environments.map((e) => `${e.name}@${e.line} ${e.values.join(',')}`), ['default@7 ', 'gcp@8 env/gcp.yaml']);
  } finally {
    removeTree(dir);
  }
});

test('helmfile readDirEntries lists a folder\'s entries by name, with Name and IsDir as a template reads them', () => {
  const { releases, findings } = read(
    {
      'teams/beta/values.yaml': 'a: 1\n',
      'teams/alpha/values.yaml': 'a: 1\n',
      'teams/README.md': 'x\n',
      'helmfile.yaml.gotmpl': `releases:
{{- range $e := readDirEntries "teams" }}
{{- if $e.IsDir }}
  - name: team-{{ $e.Name }}
    namespace: {{ $e.Name }}
    chart: oci://ghcr.io/example/team
{{- end }}
{{- end }}
`,
    },
    'helmfile.yaml.gotmpl',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(ids(releases), ['alpha/team-alpha', 'beta/team-beta']);
});

test('helmfile state whose base cannot be loaded gives no releases, as helmfile fails it, named at the bases entry', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['a base that reads a variable of the shell', { 'env.gotmpl': 'environments:\n  default:\n    values:\n      - dir: {{ requiredEnv "ENV_DIR" }}\n' }, /bases\[0\] env\.gotmpl is not read \(see the helmfile-template-not-read at env\.gotmpl\)/],
    ['a base that is not in the repository', {}, /bases\[0\] env\.gotmpl is not a file of this repository/],
  ];
  for (const [name, files, want] of cases) {
    const { releases, findings } = read(
      {
        ...files,
        'helmfile.yaml.gotmpl': `bases:
  - env.gotmpl
---
releases:
  - name: web
    namespace: apps
    chart: oci://ghcr.io/example/web
`,
      },
      'helmfile.yaml.gotmpl',
    );
    assert.deepEqual(ids(releases), [], name);
    const at = findings.find((f) => want.test(f.message));
    assert.ok(at, `${name}: ${findings.map((f) => f.message).join('\n')}`);
    assert.equal(`${at.file}:${at.line}`, 'helmfile.yaml.gotmpl:2', name);
  }
});
