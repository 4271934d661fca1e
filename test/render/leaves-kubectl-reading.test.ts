/**
 * Issue #12: a leaf manifest must mean to kubectl (and Argo CD, Helm, Flux: all read YAML with
 * go-yaml v2 through sigs.k8s.io/yaml) what the tool's own output meant. `helm template` writes a
 * template's `defaultMode: 0755` as it stands, which kubectl reads as the octal 493, `tty: on` as
 * true and `1_000` as 1000; the leaves were read as YAML 1.2 and written back as 755, "on" and
 * 1000-as-a-string. The real kubectl reads both sides here: the tool's raw output, and the files
 * `render --leaves` wrote. kustomize's output is normalized by kustomize itself (kyaml reads with
 * YAML 1.2 rules, then writes through sigs.k8s.io/yaml), so there the raw output is the reference
 * too; an Argo CD directory source is the file itself.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';
import { startKubectlReader } from '../support/kubectl-read.js';
import type { KubectlReader } from '../support/kubectl-read.js';

/** YAML 1.1 scalars as a chart's templates and a user's manifests hold them. */
const MANIFESTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    built: 2024-01-01
spec:
  replicas: 0x2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx
          tty: on
          stdin: yes
      volumes:
        - name: cfg
          configMap:
            name: cfg
            defaultMode: 0755
        - name: scripts
          secret:
            secretName: scripts
            defaultMode: 0o644
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  duration: 1:20
  count: 1_000
  ratio: -.5
  nothing: ~
  huge: 1e999
  quoted: "0755"
  flag: off
  letter: n
`;

function repo(): string {
  const src = (path: string) => `    repoURL: https://github.com/acme/platform\n    targetRevision: main\n    path: ${path}\n`;
  const dir = writeTree({
    'apps/chart.yaml': argoApplication('chart', src('chart')),
    'apps/kus.yaml': argoApplication('kus', src('kus')),
    'apps/plain.yaml': argoApplication('plain', src('plain')),
    'chart/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'chart/templates/web.yaml': MANIFESTS,
    'kus/kustomization.yaml': 'resources:\n  - web.yaml\n',
    'kus/web.yaml': MANIFESTS,
    'plain/web.yaml': MANIFESTS,
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
  return dir;
}

let kubectl: KubectlReader;
before(async () => {
  kubectl = await startKubectlReader();
});
after(async () => {
  await kubectl?.close();
});

/** kubectl's objects, by kind and name, without the namespace (the leaves add the destination's). */
async function read(text: string): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const o of (await kubectl.read(text)) as { kind: string; metadata: { name: string; namespace?: string } }[]) {
    delete o.metadata.namespace;
    out.set(`${o.kind}/${o.metadata.name}`, o);
  }
  return out;
}

const leaves = (out: string, app: string) => {
  const dir = join(out, 'in-cluster', 'manifests', app);
  return readdirSync(dir).sort().map((f) => readFileSync(join(dir, f), 'utf8')).join('---\n');
};

test('render --leaves writes what kubectl reads from helm template, kustomize build and a directory source: 0755 is 493, on is true, 1:20 a string', async () => {
  const { helm, kubectl: kubectlBin } = requireTools();
  const dir = repo();
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    assert.equal(r.code, 0, r.stderr);
    const env = toolEnv(out);
    const raw = {
      chart: execFileSync(helm, ['template', 'chart', join(dir, 'chart')], { env, encoding: 'utf8' }),
      kus: execFileSync(kubectlBin, ['kustomize', join(dir, 'kus')], { env, encoding: 'utf8' }),
      plain: MANIFESTS,
    };
    for (const [app, text] of Object.entries(raw)) {
      const expected = await read(text);
      assert.equal(expected.size, 2, app);
      assert.deepEqual(await read(leaves(out, app)), expected, app);
    }
    // What kubectl reads from the chart: the YAML 1.1 meaning.
    const web = (await read(raw.chart)).get('Deployment/web') as { spec: { replicas: number; template: { spec: { containers: { tty: unknown; stdin: unknown }[]; volumes: { configMap?: { defaultMode: number }; secret?: { defaultMode: number } }[] } } } };
    assert.equal(web.spec.replicas, 2);
    assert.equal(web.spec.template.spec.volumes[0]!.configMap!.defaultMode, 493);
    assert.equal(web.spec.template.spec.volumes[1]!.secret!.defaultMode, 420);
    assert.deepEqual([web.spec.template.spec.containers[0]!.tty, web.spec.template.spec.containers[0]!.stdin], [true, true]);
    // And the leaf says so in its own text.
    assert.match(leaves(out, 'chart'), /defaultMode: 493\n/);
    assert.match(leaves(out, 'plain'), /tty: true\n/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
