// fleetplan diff on helmfile repositories (docs/adr/0395-diff-helmfile-releases.md): each helmfile
// release a cluster's bootstrap lists is an entry compared field by field — chart, version,
// values merged as helm merges them, set, needs, installed, labels — keyed `helmfile:<ns>/<name>`
// as plan names it. Real git repositories made here: a base commit on main, then a change in the
// working tree. The `version` case's text, JSON and Markdown reports are golden files under
// test/golden/diff/helmfile-version/ (UPDATE_GOLDEN=1 rewrites them; review the diff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';
import { diffGolden as golden, edit } from '../support/diff-repo.js';


const HELMFILE = `repositories:
  - name: cilium
    url: https://helm.cilium.io
environments:
  default:
    values:
      - environments/default.yaml
  prod:
    values:
      - environments/prod.yaml
---
releases:
  - name: cilium
    namespace: kube-system
    chart: cilium/cilium
    version: 1.15.0
    labels:
      tier: network
    values:
      - values/cilium.yaml
    set:
      - name: ipam.mode
        value: kubernetes
  - name: coredns
    namespace: kube-system
    chart: oci://ghcr.io/coredns/charts/coredns
    version: 1.30.0
    needs: [kube-system/cilium]
    values:
      - replicaCount: {{ .Values.dnsReplicas }}
  - name: spegel
    namespace: kube-system
    chart: oci://ghcr.io/spegel-org/helm-charts/spegel
    version: 0.0.30
    needs: [kube-system/cilium]
`;

const FILES = {
  'helmfile.yaml.gotmpl': HELMFILE,
  'environments/default.yaml': 'dnsReplicas: 2\n',
  'environments/prod.yaml': 'dnsReplicas: 3\n',
  'values/cilium.yaml': 'hubble:\n  enabled: false\noperator:\n  replicas: 1\n',
};

/** The base commit on main, in a folder named `lab` (the layout names the fleet after its folder, and the golden files name the fleet). */
function makeRepo(files: Record<string, string> = FILES): { dir: string; parent: string } {
  const parent = mkdtempSync(join(tmpdir(), 'fleetplan-hfdiff-'));
  const dir = writeTree(files, join(parent, 'lab'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return { dir, parent };
}



interface JsonObject {
  change: string;
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  file: string;
  fields: { path: string; from?: unknown; to?: unknown }[];
}
interface JsonDiff {
  clusters: { name: string; status: string; objects: JsonObject[]; notes: string[]; order: { what: string; app?: string }[]; counts: { added: number; changed: number; removed: number } }[];
  summary: { changes: boolean };
}

/** `diff --repo DIR ARGS -o json` parsed, and the exit code of the same diff with --exit-code. */
async function diffJson(dir: string, args: string[] = []): Promise<{ json: JsonDiff; exit: number; stdout: string }> {
  const r = await cli(['diff', '--repo', dir, ...args, '-o', 'json'], process.cwd(), { NO_COLOR: '1' });
  assert.equal(r.code, 0, r.stderr);
  const e = await cli(['diff', '--repo', dir, ...args, '--exit-code'], process.cwd(), { NO_COLOR: '1' });
  return { json: JSON.parse(r.stdout) as JsonDiff, exit: e.code, stdout: r.stdout };
}

const entries = (j: JsonDiff) => j.clusters.flatMap((c) => c.objects.map((o) => [o.change, o.kind, `${o.namespace}/${o.name}`, o.fields.map((f) => [f.path, f.from, f.to])]));

interface Case {
  name: string;
  change(dir: string): string[] | void;
  exit: 0 | 1;
  check(j: JsonDiff): void;
}

const cases: Case[] = [
  {
    name: 'a chart version bump is the version field of the release',
    change: (dir) => edit(dir, 'helmfile.yaml.gotmpl', 'version: 1.15.0', 'version: 1.16.0'),
    exit: 1,
    check: (j) => assert.deepEqual(entries(j), [['changed', 'HelmfileRelease', 'kube-system/cilium', [['version', '1.15.0', '1.16.0']]]]),
  },
  {
    name: 'a value changed in a values file is the merged value that changed',
    change: (dir) => edit(dir, 'values/cilium.yaml', 'enabled: false', 'enabled: true'),
    exit: 1,
    check: (j) => assert.deepEqual(entries(j), [['changed', 'HelmfileRelease', 'kube-system/cilium', [['values.hubble.enabled', false, true]]]]),
  },
  {
    name: 'an added release is added',
    change: (dir) => edit(dir, 'helmfile.yaml.gotmpl', /$/, '  - name: metrics-server\n    namespace: kube-system\n    chart: oci://ghcr.io/example/metrics-server\n    version: 3.12.0\n'),
    exit: 1,
    check: (j) => assert.deepEqual(entries(j), [['added', 'HelmfileRelease', 'kube-system/metrics-server', []]]),
  },
  {
    name: 'a removed release is removed, and the note says helmfile leaves it installed',
    change: (dir) => edit(dir, 'helmfile.yaml.gotmpl', / {2}- name: spegel\n(.*\n){4}/, ''),
    exit: 1,
    check: (j) => {
      assert.deepEqual(entries(j), [['removed', 'HelmfileRelease', 'kube-system/spegel', []]]);
      assert.deepEqual(j.clusters[0]!.notes, ['helmfile:kube-system/spegel is no longer listed: helmfile leaves the installed release in the cluster (write installed: false to have it uninstalled)']);
    },
  },
  {
    name: 'installed: false is the installed field, not a removal',
    change: (dir) => edit(dir, 'helmfile.yaml.gotmpl', '  - name: spegel\n', '  - name: spegel\n    installed: false\n'),
    exit: 1,
    check: (j) => {
      assert.deepEqual(entries(j), [['changed', 'HelmfileRelease', 'kube-system/spegel', [['installed', true, false]]]]);
      assert.deepEqual(j.clusters[0]!.notes, []);
    },
  },
  {
    name: 'an environment values file that a templated release reads changes that release\'s values',
    change: (dir) => edit(dir, 'environments/default.yaml', 'dnsReplicas: 2', 'dnsReplicas: 4'),
    exit: 1,
    check: (j) => assert.deepEqual(entries(j), [['changed', 'HelmfileRelease', 'kube-system/coredns', [['values.replicaCount', 2, 4]]]]),
  },
  {
    name: 'set, needs and labels are fields of the release',
    change: (dir) => {
      edit(dir, 'helmfile.yaml.gotmpl', 'value: kubernetes', 'value: cluster-pool');
      edit(dir, 'helmfile.yaml.gotmpl', 'tier: network', 'tier: core');
      edit(dir, 'helmfile.yaml.gotmpl', /(name: spegel\n(.*\n){3}) {4}needs: \[kube-system\/cilium\]\n/, '$1    needs: [kube-system/cilium, kube-system/coredns]\n');
    },
    exit: 1,
    check: (j) =>
      assert.deepEqual(entries(j), [
        ['changed', 'HelmfileRelease', 'kube-system/cilium', [['labels.tier', 'network', 'core'], ['set[name=ipam.mode].value', 'kubernetes', 'cluster-pool']]],
        ['changed', 'HelmfileRelease', 'kube-system/spegel', [['needs', ['kube-system/cilium'], ['kube-system/cilium', 'kube-system/coredns']]]],
      ]),
  },
  {
    name: 'no change: every release is equal and nothing is reported',
    change: () => undefined,
    exit: 0,
    check: (j) => {
      assert.deepEqual(entries(j), []);
      assert.equal(j.clusters[0]!.status, 'unchanged');
      assert.deepEqual(j.clusters[0]!.notes, []);
      assert.equal(j.summary.changes, false);
    },
  },
];

for (const c of cases) {
  test(`diff, helmfile: ${c.name}`, async () => {
    const { dir, parent } = makeRepo();
    try {
      const extra = c.change(dir) ?? [];
      const { json, exit } = await diffJson(dir, extra);
      c.check(json);
      assert.equal(exit, c.exit);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
}

test('diff, helmfile: a version bump and a values change — text, JSON and Markdown as the golden files', async () => {
  const { dir, parent } = makeRepo();
  try {
    edit(dir, 'helmfile.yaml.gotmpl', 'version: 1.15.0', 'version: 1.16.0');
    edit(dir, 'values/cilium.yaml', 'replicas: 1', 'replicas: 2');
    for (const [format, file] of [['text', 'text.txt'], ['json', 'diff.json'], ['markdown', 'comment.md']] as const) {
      const r = await cli(['diff', '--repo', dir, '-o', format], process.cwd(), { NO_COLOR: '1' });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes(parent), 'no temporary path in the report');
      golden('helmfile-version', file, r.stdout);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff -e NAME: both sides read in that environment', async () => {
  const { dir, parent } = makeRepo();
  try {
    edit(dir, 'environments/prod.yaml', 'dnsReplicas: 3', 'dnsReplicas: 5');
    const prod = await diffJson(dir, ['-e', 'prod']);
    assert.deepEqual(entries(prod.json), [['changed', 'HelmfileRelease', 'kube-system/coredns', [['values.replicaCount', 3, 5]]]]);
    // The default environment does not read prod's values: nothing changes there.
    const byDefault = await diffJson(dir);
    assert.deepEqual(entries(byDefault.json), []);
    assert.equal(byDefault.exit, 0);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff, helmfile: a sops-encrypted secrets file is named, its change told, its text never shown', async () => {
  const sops = (v: string) => `hubble:\n  password: ENC[AES256_GCM,data:${v},type:str]\nsops:\n  version: 3.8.1\n`;
  const { dir, parent } = makeRepo({ ...FILES, 'helmfile.yaml.gotmpl': HELMFILE.replace('    set:\n', '    secrets:\n      - secrets/cilium.yaml\n    set:\n'), 'secrets/cilium.yaml': sops('first') });
  try {
    writeFileSync(join(dir, 'secrets/cilium.yaml'), sops('second'));
    const { json, exit, stdout } = await diffJson(dir);
    assert.deepEqual(entries(json), [['changed', 'HelmfileRelease', 'kube-system/cilium', [['secrets["secrets/cilium.yaml"]', '<redacted>', '<redacted: changed>']]]]);
    assert.equal(exit, 1);
    assert.ok(!stdout.includes('first') && !stdout.includes('second') && !stdout.includes('ENC['), 'neither the encrypted text nor a digest of it is shown');
    assert.match(json.clusters[0]!.notes.join('\n'), /helmfile:kube-system\/cilium: not read, so what a change there does to the release is not shown: secrets \(1 sops-encrypted values file: see helmfile-value-not-read\)/);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff, flux layout: the helmfile bootstrap releases of each cluster are compared per cluster', async () => {
  const gotkSync = (cluster: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m
  path: ./clusters/${cluster}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;
  const { dir, parent } = makeRepo({
    'clusters/alpha/flux-system/gotk-sync.yaml': gotkSync('alpha'),
    'clusters/beta/flux-system/gotk-sync.yaml': gotkSync('beta'),
    'bootstrap/helmfile.yaml.gotmpl': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/example/cilium\n    version: 1.15.0\n    values:\n      - cluster: {{ requiredEnv "CLUSTER" }}\n        mtu: 1500\n',
  });
  try {
    edit(dir, 'bootstrap/helmfile.yaml.gotmpl', 'mtu: 1500', 'mtu: 9000');
    const { json, exit } = await diffJson(dir);
    assert.deepEqual(
      json.clusters.map((c) => [c.name, c.status, c.objects.map((o) => [o.change, o.kind, o.name, o.fields.map((f) => [f.path, f.from, f.to])])]),
      [
        ['alpha', 'changed', [['changed', 'HelmfileRelease', 'cilium', [['values.mtu', 1500, 9000]]]]],
        ['beta', 'changed', [['changed', 'HelmfileRelease', 'cilium', [['values.mtu', 1500, 9000]]]]],
      ],
    );
    assert.equal(exit, 1);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff, helmfile: a values file with no map of values is said not read; once it has values, they are the change', async () => {
  const { dir, parent } = makeRepo({ ...FILES, 'values/cilium.yaml': '' });
  try {
    writeFileSync(join(dir, 'values/cilium.yaml'), 'hubble:\n  enabled: true\n');
    const { json, exit } = await diffJson(dir);
    assert.deepEqual(entries(json), [
      ['changed', 'HelmfileRelease', 'kube-system/cilium', [['notRead', ['values values/cilium.yaml (not a file of the repository, or not a map of values)'], undefined], ['values.hubble', undefined, { enabled: true }], ['valuesNotRead', { 'values/cilium.yaml': '<not read>' }, undefined]]],
    ]);
    assert.equal(exit, 1);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff, helmfile: a values template that could not be read is compared by a digest of its text: a change is told, its text never shown', async () => {
  // The template fails the same way on both sides; only a comment differs.
  const failing = (v: string) => `replicas: {{ required "needed" .Values.nothere }} # ${v}\n`;
  const { dir, parent } = makeRepo({ ...FILES, 'helmfile.yaml.gotmpl': HELMFILE.replace('      - values/cilium.yaml\n', '      - values/cilium.yaml\n      - values/extra.yaml.gotmpl\n'), 'values/extra.yaml.gotmpl': failing('first') });
  try {
    const same = await diffJson(dir);
    assert.deepEqual(entries(same.json), [], 'the same text: no change');
    writeFileSync(join(dir, 'values/extra.yaml.gotmpl'), failing('second'));
    const { json, exit, stdout } = await diffJson(dir);
    assert.deepEqual(entries(json), [['changed', 'HelmfileRelease', 'kube-system/cilium', [['valuesNotRead["values/extra.yaml.gotmpl"]', '<not read>', '<not read: changed>']]]]);
    assert.equal(exit, 1);
    assert.ok(!stdout.includes('first') && !stdout.includes('second'), 'the text of the file is not shown');
    assert.match(json.clusters[0]!.notes.join('\n'), /helmfile:kube-system\/cilium: values file values\/extra\.yaml\.gotmpl changed \(not read: values\/extra\.yaml\.gotmpl:1: .*\)/);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('diff, helmfile: a local chart is compared by a digest of its files, so a template or values.yaml change is told without --leaves', async () => {
  const chart = {
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/values.yaml': 'replicas: 1\n',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
  };
  const helmfile = `releases:\n  - name: web\n    namespace: apps\n    chart: ./charts/web\n`;
  for (const [file, text] of [['charts/web/values.yaml', 'replicas: 2\n'], ['charts/web/templates/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web2\n'], ['charts/web/templates/new.yaml', 'kind: x\n'], ['charts/web/Chart.yaml', 'apiVersion: v2\nname: web\nversion: 0.2.0\n']] as const) {
    const { dir, parent } = makeRepo({ 'helmfile.yaml': helmfile, ...chart });
    try {
      assert.deepEqual(entries((await diffJson(dir)).json), [], 'no change: nothing');
      writeFileSync(join(dir, file), text);
      const { json, exit } = await diffJson(dir);
      assert.deepEqual(entries(json), [['changed', 'HelmfileRelease', 'apps/web', [['chartFiles["charts/web"]', '<files>', '<files: changed>']]]], file);
      assert.equal(exit, 1);
      assert.match(json.clusters[0]!.notes.join('\n'), /helmfile:apps\/web: chart files changed \(charts\/web: --leaves shows what they render\)/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  }
});

test('diff, helmfile: a needs change is shown once, as the release\'s field, not again as the order change of its app', async () => {
  const { dir, parent } = makeRepo();
  try {
    edit(dir, 'helmfile.yaml.gotmpl', '    needs: [kube-system/cilium]\n    values:', '    needs: [kube-system/cilium, kube-system/spegel]\n    values:');
    const r = await cli(['diff', '--repo', dir, '-o', 'json'], process.cwd(), { NO_COLOR: '1' });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as JsonDiff;
    assert.deepEqual(entries(json), [['changed', 'HelmfileRelease', 'kube-system/coredns', [['needs', ['kube-system/cilium'], ['kube-system/cilium', 'kube-system/spegel']]]]]);
    // The wave the plan derives from the needs still shows: it is not the field written.
    assert.deepEqual(json.clusters.flatMap((c) => c.order.map((o) => [o.what, o.app])), [['wave', 'helmfile:kube-system/coredns']]);
    const text = await cli(['diff', '--repo', dir], process.cwd(), { NO_COLOR: '1' });
    assert.equal(text.stdout.match(/spegel/g)?.length, 1, text.stdout);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
