/**
 * The shape of the older flux-cluster-template and the repositories made from it: no flux-system
 * folder; `kubernetes/<cluster>/flux/config/cluster.yaml` holds the GitRepository of this
 * repository and a Kustomization `cluster` of it whose path (`./kubernetes/<cluster>/flux`) holds
 * that file, applied by hand (`kubectl apply --kustomize kubernetes/<cluster>/flux/config`). Each
 * such Kustomization is the entry of a cluster (ADR 0411), read with its tree, its children's
 * `spec.patches` and `postBuild.substituteFrom`. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const sopsBlock = 'sops:\n  age:\n    - recipient: age1example\n      enc: |\n        -----BEGIN AGE ENCRYPTED FILE-----\n        -----END AGE ENCRYPTED FILE-----\n  lastmodified: "2026-01-01T00:00:00Z"\n  mac: ENC[AES256_GCM,data:abc,type:str]\n  encrypted_regex: ^(data|stringData)$\n  version: 3.9.0\n';

/** A Flux Kustomization `name` in flux-system of the GitRepository home-kubernetes at `path`; `extra` continues its spec. */
const homeKs = (name: string, path: string, extra = '') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 30m
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: home-kubernetes
${extra}`;

const clusterYaml = (c: string) => `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: home-kubernetes
  namespace: flux-system
spec:
  interval: 30m
  ref:
    branch: main
  url: https://example.org/home-ops.git
---
${homeKs('cluster', `./kubernetes/${c}/flux`, '  postBuild:\n    substituteFrom:\n      - kind: ConfigMap\n        name: cluster-settings\n      - kind: Secret\n        name: cluster-secrets\n')}`;

/** cluster-apps: every Kustomization it applies gets the cluster's variables through its patches. */
const appsYaml = (c: string) => homeKs('cluster-apps', `./kubernetes/${c}/apps`, `  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-settings
  patches:
    - patch: |-
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: not-used
        spec:
          postBuild:
            substituteFrom:
              - kind: ConfigMap
                name: cluster-settings
              - kind: Secret
                name: cluster-secrets
      target:
        group: kustomize.toolkit.fluxcd.io
        kind: Kustomization
`);

const webKs = (c: string) => homeKs('web', `./kubernetes/${c}/apps/default/web/app`, '  targetNamespace: default\n');

/** Two clusters of the older template's shape, main and storage. */
function repo(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const c of ['main', 'storage']) {
    files[`kubernetes/${c}/flux/config/kustomization.yaml`] = 'resources:\n  - ./cluster.yaml\n';
    files[`kubernetes/${c}/flux/config/cluster.yaml`] = clusterYaml(c);
    files[`kubernetes/${c}/flux/apps.yaml`] = appsYaml(c);
    files[`kubernetes/${c}/flux/vars/kustomization.yaml`] = 'resources:\n  - ./cluster-settings.yaml\n  - ./cluster-secrets.sops.yaml\n';
    files[`kubernetes/${c}/flux/vars/cluster-settings.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: flux-system\ndata:\n  CLUSTER_NAME: ${c}\n`;
    files[`kubernetes/${c}/flux/vars/cluster-secrets.sops.yaml`] = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-secrets\n  namespace: flux-system\nstringData:\n  SECRET_DOMAIN: ENC[AES256_GCM,data:abcd,iv:x,tag:y,type:str]\n${sopsBlock}`;
    files[`kubernetes/${c}/apps/kustomization.yaml`] = 'resources:\n  - ./default/web/ks.yaml\n';
    files[`kubernetes/${c}/apps/default/web/ks.yaml`] = webKs(c);
    files[`kubernetes/${c}/apps/default/web/app/kustomization.yaml`] = 'resources:\n  - ./cm.yaml\n';
    files[`kubernetes/${c}/apps/default/web/app/cm.yaml`] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels:\n    cluster: ${CLUSTER_NAME}\ndata:\n  host: web.${SECRET_DOMAIN}\n';
  }
  return files;
}

interface PlanJson {
  layout?: string;
  clusters: { name: string; apps: { name: string }[]; notes: string[] }[];
  findings: { severity: string; code: string; message: string }[];
}

test('flux entries: the older cluster-template shape (flux/config/cluster.yaml, no flux-system) gives one cluster per entry, not one merged cluster', async () => {
  const dir = writeTree(repo());
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const p = JSON.parse(r.stdout) as PlanJson;
    assert.deepEqual(p.clusters.map((c) => c.name), ['main', 'storage']);
    for (const c of p.clusters) {
      assert.deepEqual(c.apps.map((a) => a.name).sort(), ['flux:flux-system/cluster', 'flux:flux-system/cluster-apps', 'flux:flux-system/web']);
      assert.ok(c.notes.some((n) => n.includes(`kubernetes/${c.name}/flux/config/cluster.yaml`)), c.notes.join('\n'));
    }
    assert.deepEqual(p.findings.filter((f) => f.severity !== 'info').map((f) => f.code), []);
  } finally {
    removeTree(dir);
  }
});

test('flux entries: an older cluster-template entry builds its children with the parent\'s spec.patches and each cluster\'s substituteFrom; a SOPS Secret\'s values are redacted', async () => {
  const dir = writeTree(repo());
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    for (const c of ['main', 'storage']) {
      const folder = join(out, c);
      const files = readdirSync(folder, { recursive: true }).map(String).filter((f) => f.endsWith('.yaml'));
      const web = files.map((f) => readFileSync(join(folder, f), 'utf8')).find((t) => /^kind: ConfigMap$/m.test(t) && /^ {2}name: web$/m.test(t));
      assert.ok(web, `${c}: ${files.join(', ')}`);
      assert.match(web, new RegExp(`cluster: ${c}\\b`));
      assert.match(web, /host: web\.REDACTED_SECRET_SECRET_DOMAIN/);
      assert.match(web, /namespace: default/);
    }
  } finally {
    removeTree(dir);
  }
});

/** Cluster main of `repo()` with a helmfile bootstrap (kubernetes/bootstrap/helmfile.yaml), and `extra` files. */
function mainWithHelmfile(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(repo()).filter(([f]) => f.startsWith('kubernetes/main/'))),
    'kubernetes/bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/example/cilium\n    version: 1.0.0\n',
    ...extra,
  };
}

/** helmfile-flux reads `apps` with no file of Flux Kustomizations left unread, and render gives web cluster-apps' patches. */
async function readByHelmfileFlux(files: Record<string, string>, apps: string[]): Promise<void> {
  const dir = writeTree(files);
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const p = JSON.parse(r.stdout) as PlanJson;
    assert.equal(p.layout, 'helmfile-flux');
    assert.deepEqual(p.findings.filter((f) => f.code === 'flux-kustomization-not-read'), []);
    const names = p.clusters[0]!.apps.map((a) => a.name);
    for (const n of apps) assert.ok(names.includes(n), `${n} not in ${names.join(' ')}`);
    const out = join(dir, 'out');
    const rr = await cli(['render', '--repo', dir, '--out', out]);
    assert.equal(rr.code, 0, rr.stderr);
    const web = readdirSync(out, { recursive: true }).map(String).find((f) => f.endsWith('flux_flux-system_web.yaml'));
    assert.ok(web);
    assert.match(readFileSync(join(out, web), 'utf8'), /name: cluster-secrets/);
  } finally {
    removeTree(dir);
  }
}

test('helmfile-flux: the folder that the flux-instance values sync (instance.sync.path: kubernetes/main/flux/config) is read for its Kustomizations, whatever its name', async () => {
  const files = mainWithHelmfile({
    'kubernetes/main/bootstrap/helmfile.yaml': 'releases:\n  - name: flux-instance\n    namespace: flux-system\n    chart: oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance\n    version: 0.13.0\n    values:\n      - ../apps/flux-system/flux-operator/instance/helm-values.yaml\n',
    'kubernetes/main/apps/flux-system/flux-operator/instance/helm-values.yaml': 'instance:\n  sync:\n    kind: GitRepository\n    name: flux-system\n    url: https://example.org/home-ops.git\n    ref: refs/heads/main\n    path: kubernetes/main/flux/config\n',
    // The entry is the flux-instance's sync: cluster-apps is in the synced folder, and no Kustomization applies itself.
    'kubernetes/main/flux/config/cluster.yaml': appsYaml('main'),
  });
  delete files['kubernetes/bootstrap/helmfile.yaml'];
  delete files['kubernetes/main/flux/apps.yaml'];
  await readByHelmfileFlux(files, ['flux:flux-system/cluster-apps', 'flux:flux-system/web']);
});

test('helmfile-flux: one cluster of the older template with a helmfile bootstrap reads the entry file and its path folder, so the children get cluster-apps\' patches and variables', async () => {
  await readByHelmfileFlux(mainWithHelmfile(), ['flux:flux-system/cluster', 'flux:flux-system/cluster-apps', 'flux:flux-system/web']);
});

test('helmfile-flux: a Flux Kustomization in a file of another name that a kustomization lists beside the ks.yaml files (grafana-ks.yaml) is read', async () => {
  await readByHelmfileFlux(
    mainWithHelmfile({
      'kubernetes/main/apps/kustomization.yaml': 'resources:\n  - ./default/web/ks.yaml\n  - ./default/web/grafana-ks.yaml\n',
      'kubernetes/main/apps/default/web/grafana-ks.yaml': webKs('main').replace('name: web\n', 'name: web-grafana\n'),
    }),
    ['flux:flux-system/web', 'flux:flux-system/web-grafana'],
  );
});
