/**
 * Applications Argo CD refuses (ADR 0407): a guessed chart root rendered with its default values
 * can give Applications with `repoURL: null`, an empty destination or no project. Argo CD's CRD
 * requires `spec.project` and `spec.source.repoURL` (a null is dropped before validation, so
 * kubectl apply rejects both), and its controller marks an Application with an empty repoURL or
 * no destination server/name InvalidSpecError and never syncs it. validate says so, naming the
 * root and the values it was rendered with; a warning, as the chart of a guessed root may be
 * installed with values the repository does not hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

/** A chart whose one template is an Application, every field Argo CD needs taken from values. */
const TEMPLATE = `{{- range .Values.apps }}
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: {{ .name }}
  namespace: argocd
spec:
  {{- with .project }}
  project: {{ . }}
  {{- end }}
  destination:
    {{- with .server }}
    server: {{ . }}
    {{- end }}
    namespace: {{ .name }}
  source:
    repoURL: {{ if hasKey . "repoURL" }}{{ .repoURL | quote }}{{ else }}null{{ end }}
    targetRevision: HEAD
    path: {{ .name }}
{{- end }}
`;

function chartRepo(values: string): string {
  return writeTree({
    'apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 0.1.0\n',
    'apps/values.yaml': values,
    'apps/templates/apps.yaml': TEMPLATE,
    'a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'b/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    'c/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    'd/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n',
  });
}

test('validate: Applications of a guessed chart root with null or empty repoURL, no destination or no project are reported naming the chart and its values (warnings: a guessed root may be installed with other values)', async () => {
  const dir = chartRepo(`apps:
  - name: a
    project: default
    server: https://kubernetes.default.svc
  - name: b
    project: default
    server: https://kubernetes.default.svc
    repoURL: ""
  - name: c
    repoURL: https://github.com/acme/platform
    server: https://kubernetes.default.svc
  - name: d
    project: default
    repoURL: https://github.com/acme/platform
`);
  try {
    const out = await cli(['validate', '--repo', dir, '-o', 'json'], process.cwd(), {});
    const findings = (JSON.parse(out.stdout) as { findings: { severity: string; code: string; message: string; file?: string }[] }).findings.filter((f) => f.code === 'application-invalid');
    const by = (name: string) => findings.filter((f) => f.message.includes(`Application ${name} `));
    assert.equal(findings.length, 4, JSON.stringify(findings, null, 1));
    for (const f of findings) {
      assert.equal(f.severity, 'warning');
      assert.equal(f.file, 'apps/values.yaml');
      assert.match(f.message, /helm template apps/);
    }
    assert.match(by('a')[0]!.message, /spec\.source\.repoURL is null.*kubectl apply rejects it \(spec\.source\.repoURL: Required value/);
    assert.match(by('b')[0]!.message, /InvalidSpecError: spec\.source\.repoURL and either spec\.source\.path or spec\.source\.chart are required/);
    assert.match(by('c')[0]!.message, /spec\.project is missing.*spec\.project: Required value/);
    assert.match(by('d')[0]!.message, /InvalidSpecError: Destination server missing from app spec/);
  } finally {
    removeTree(dir);
  }
});

test('validate: the same chart with complete values gives no application-invalid finding', async () => {
  const dir = chartRepo(`apps:
  - name: a
    project: default
    server: https://kubernetes.default.svc
    repoURL: https://github.com/acme/platform
`);
  try {
    const out = await cli(['validate', '--repo', dir, '-o', 'json'], process.cwd(), {});
    assert.doesNotMatch(out.stdout, /application-invalid/);
  } finally {
    removeTree(dir);
  }
});

test('validate: a committed Application with an empty repoURL and an empty destination gets two errors in its file, each said once', async () => {
  const dir = writeTree({
    'gitops/a.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: a
  namespace: argocd
spec:
  project: default
  destination: {}
  source:
    repoURL: ""
    targetRevision: HEAD
    path: a
`,
    'a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  });
  try {
    const out = await cli(['validate', '--repo', dir, '-o', 'json'], process.cwd(), {});
    const findings = (JSON.parse(out.stdout) as { findings: { severity: string; code: string; message: string; file?: string }[] }).findings.filter((f) => f.code === 'application-invalid');
    assert.deepEqual(findings.map((f) => [f.severity, f.file, /InvalidSpecError: (\S+ \S+)/.exec(f.message)?.[1]]).sort(), [
      ['error', 'gitops/a.yaml', 'Destination server'],
      ['error', 'gitops/a.yaml', 'spec.source.repoURL and'],
    ]);
    assert.equal(out.code, 1);
  } finally {
    removeTree(dir);
  }
});
