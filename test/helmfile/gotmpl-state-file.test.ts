/**
 * A `.gotmpl` helmfile state file is a Go template that helmfile renders as a whole before it reads
 * the YAML (ADR 0340): `{{ $x := readFile … | fromYaml }}` lines at the top are not YAML. fleetplan
 * renders such a file first; when the template needs what only the shell has (`requiredEnv`), it
 * says so once at the template's line instead of one YAML error per line. Small repositories
 * written by the test in the shape of a real one (a bootstrap helmfile reading its chart versions
 * from the repository's own HelmRelease files).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

interface Out {
  clusters: { apps: { name: string; source?: { targetRevision?: string } }[] }[];
  findings: { severity: string; code: string; message: string; file?: string; line?: number }[];
}

const ks = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/apps
  sourceRef:
    kind: GitRepository
    name: flux-system
`;

const helmrelease = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: cilium
  namespace: kube-system
spec:
  chart:
    spec:
      chart: cilium
      version: 1.17.2
`;

function repo(top: string): Record<string, string> {
  return {
    'kubernetes/flux/cluster/ks.yaml': ks,
    'kubernetes/apps/cilium/helmrelease.yaml': helmrelease,
    'kubernetes/bootstrap/helmfile.yaml.gotmpl': `---
${top}
{{- $cilium := readFile "../apps/cilium/helmrelease.yaml" | fromYaml }}

helmDefaults:
  wait: true

releases:
  - name: cilium
    namespace: kube-system
    chart: oci://quay.io/cilium/charts/cilium
    version: {{ $cilium.spec.chart.spec.version }}
`,
  };
}

async function run(files: Record<string, string>, args: string[]): Promise<Out> {
  const dir = writeTree(files);
  try {
    const r = await cli([...args, '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return JSON.parse(r.stdout) as Out;
  } finally {
    removeTree(dir);
  }
}

test('helmfile .gotmpl state file: rendered as a whole before it is read, so a version read from the repository is the release\'s', async () => {
  const p = await run(repo(''), ['plan']);
  assert.equal(p.findings.filter((f) => f.code === 'unreadable-file').length, 0, JSON.stringify(p.findings));
  const cilium = p.clusters[0]!.apps.find((a) => a.name === 'helmfile:kube-system/cilium');
  assert.ok(cilium, JSON.stringify(p.clusters[0]!.apps.map((a) => a.name)));
  assert.equal(cilium.source?.targetRevision, '1.17.2');
});

test('helmfile .gotmpl state file: a requiredEnv only the shell has is one helmfile-template-not-read at its line, not a YAML error per line', async () => {
  const v = await run(repo('{{- $root := requiredEnv "ROOT_DIR" }}'), ['validate']);
  assert.equal(v.findings.filter((f) => f.code === 'unreadable-file').length, 0, JSON.stringify(v.findings));
  const f = v.findings.filter((x) => x.code === 'helmfile-template-not-read');
  assert.equal(f.length, 1, JSON.stringify(v.findings));
  assert.equal(f[0]!.file, 'kubernetes/bootstrap/helmfile.yaml.gotmpl');
  assert.equal(f[0]!.line, 2);
  assert.match(f[0]!.message, /ROOT_DIR/);
});
