/**
 * `render --leaves` of the helmfile + Flux layout builds every Flux Kustomization as
 * kustomize-controller does (its path's kustomization.yaml amended with targetNamespace, patches
 * and components, or one Flux generates; then post-build substitution), and renders its
 * HelmReleases' charts, or says per release why not. Uses the real kubectl (kustomize) and Helm
 * from .tools/bin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';
import { fluxKustomization, localChart, withRenderedLeaves } from '../support/flux-fixture.js';

const ks = fluxKustomization;

function repo(): Record<string, string> {
  return {
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', 'kubernetes/apps').replace('  name: cluster-apps\n', '  name: cluster-apps\n  namespace: flux-system\n'),
    'kubernetes/apps/media/kustomization.yaml': 'namespace: media\nresources:\n  - ./web/ks.yaml\n  - ./plain/ks.yaml\n  - ./chart/ks.yaml\n  - ./remote/ks.yaml\n  - ./secretvars/ks.yaml\n',
    // components, targetNamespace, postBuild substitute + substituteFrom a ConfigMap of the repository.
    'kubernetes/apps/media/web/ks.yaml': ks('web', 'kubernetes/apps/media/web/app', `  targetNamespace: media
  components:
    - ../../../../components/scaler
  postBuild:
    substitute:
      APP: web
    substituteFrom:
      - kind: ConfigMap
        name: cluster-settings
      - kind: Secret
        name: optional-absent
        optional: true
`),
    'kubernetes/apps/media/web/app/kustomization.yaml': 'resources:\n  - ./deploy.yaml\n  - ./script.yaml\n',
    'kubernetes/apps/media/web/app/deploy.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${APP}\ndata:\n  domain: ${DOMAIN}\n  replicas: "${REPLICAS:=2}"\n  unset: "${NOT_SET}"\n  literal: $${KEEP}\n',
    'kubernetes/apps/media/web/app/script.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: script\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\ndata:\n  run.sh: echo ${HOME}\n',
    'kubernetes/components/scaler/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - ./hpa.yaml\n',
    'kubernetes/components/scaler/hpa.yaml': 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: ${APP}\nspec:\n  maxReplicas: 1\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: ${CONTROLLER:=Deployment}\n    name: ${APP}\n',
    'kubernetes/flux/vars/cluster-settings.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: media\ndata:\n  DOMAIN: example.org\n',
    // A path without kustomization.yaml: Flux generates one (every YAML file, subdirectories with a kustomization).
    'kubernetes/apps/media/plain/ks.yaml': ks('plain', 'kubernetes/apps/media/plain/app', '  targetNamespace: media\n'),
    'kubernetes/apps/media/plain/app/a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    'kubernetes/apps/media/plain/app/nested/b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    'kubernetes/apps/media/plain/app/sub/kustomization.yaml': 'resources:\n  - ./c.yaml\n',
    'kubernetes/apps/media/plain/app/sub/c.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    'kubernetes/apps/media/plain/app/sub/ignored.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: not-listed\n',
    // A HelmRelease whose chart is a directory of this repository (GitRepository flux-system), values from a ConfigMap.
    'kubernetes/apps/media/chart/ks.yaml': ks('chart', 'kubernetes/apps/media/chart/app', '  targetNamespace: media\n'),
    'kubernetes/apps/media/chart/app/kustomization.yaml': 'resources:\n  - ./helmrelease.yaml\n  - ./values.yaml\n',
    'kubernetes/apps/media/chart/app/helmrelease.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: hello
spec:
  interval: 1h
${localChart('./charts/hello')}  valuesFrom:
    - kind: ConfigMap
      name: hello-values
  values:
    greeting: hi
`,
    'kubernetes/apps/media/chart/app/values.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hello-values\ndata:\n  values.yaml: |\n    greeting: from-configmap\n    who: world\n',
    'charts/hello/Chart.yaml': 'apiVersion: v2\nname: hello\nversion: 0.1.0\n',
    'charts/hello/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n  namespace: {{ .Release.Namespace }}\ndata:\n  text: "{{ .Values.greeting }} {{ .Values.who }}"\n',
    // An OCI chart: not available offline.
    'kubernetes/apps/media/remote/ks.yaml': ks('remote', 'kubernetes/apps/media/remote/app', '  targetNamespace: media\n'),
    'kubernetes/apps/media/remote/app/kustomization.yaml': 'resources:\n  - ./hr.yaml\n',
    'kubernetes/apps/media/remote/app/hr.yaml': 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: podinfo\nspec:\n  interval: 1h\n  url: oci://ghcr.io/stefanprodan/charts/podinfo\n  ref:\n    tag: 6.7.0\n---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\nspec:\n  interval: 1h\n  chartRef:\n    kind: OCIRepository\n    name: podinfo\n',
    // substituteFrom a Secret that only exists in the cluster: this app fails, the others render.
    'kubernetes/apps/media/secretvars/ks.yaml': ks('secretvars', 'kubernetes/apps/media/secretvars/app', '  targetNamespace: media\n  postBuild:\n    substituteFrom:\n      - kind: Secret\n        name: cluster-secrets\n'),
    'kubernetes/apps/media/secretvars/app/kustomization.yaml': 'resources:\n  - ./cm.yaml\n',
    'kubernetes/apps/media/secretvars/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n  v: ${SECRET_DOMAIN}\n',
  };
}

function objects(dir: string): Record<string, Record<string, any>> {
  return Object.fromEntries(readdirSync(dir).map((f) => [f, jsYaml.load(readFileSync(join(dir, f), 'utf8')) as Record<string, any>]));
}

test('render --leaves builds each Flux Kustomization as Flux does, renders its HelmReleases\' charts, and says per app what it cannot render', async () => {
  requireTools();
  const dir = writeTree(repo());
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-flux-home-'));
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), toolEnv(home));
    // One app fails (its variables live only in the cluster): exit 1, the others written.
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /app flux:media\/secretvars: post-build substitution reads Secret\/cluster-secrets \(no Secret media\/cluster-secrets in the repository/);
    assert.match(r.stderr, /warning: cluster cluster, app flux:media\/remote: HelmRelease media\/podinfo not rendered: chart oci:\/\/ghcr\.io\/stefanprodan\/charts\/podinfo:6\.7\.0 is not available offline/);
    assert.match(r.stderr, /leaves: 5 of 6 apps rendered, .*HelmRelease charts: 1 rendered, 1 not rendered/);
    const m = join(out, 'cluster', 'manifests');
    assert.ok(!existsSync(join(m, 'flux_media_secretvars')));

    const web = objects(join(m, 'flux_media_web'));
    const cm = Object.values(web).find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'web')!;
    assert.equal(cm.metadata.namespace, 'media');
    // Flux substitutes in the YAML that kustomize prints, where "${REPLICAS:=2}" has lost its quotes:
    // the result is the number 2 and, for an unset variable, null, as in the cluster.
    assert.deepEqual(cm.data, { domain: 'example.org', replicas: 2, unset: null, literal: '${KEEP}' });
    const script = Object.values(web).find((o) => o.metadata.name === 'script')!;
    assert.equal(script.data['run.sh'], 'echo ${HOME}', 'substitution disabled by annotation');
    const hpa = Object.values(web).find((o) => o.kind === 'HorizontalPodAutoscaler')!;
    assert.deepEqual([hpa.metadata.name, hpa.metadata.namespace, hpa.spec.scaleTargetRef.kind], ['web', 'media', 'Deployment']);

    const plain = Object.values(objects(join(m, 'flux_media_plain'))).map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort();
    assert.deepEqual(plain, ['media/a', 'media/b', 'media/c']);

    const chart = objects(join(m, 'flux_media_chart'));
    const rendered = Object.entries(chart).find(([f]) => f.startsWith('helm_media_hello-'));
    assert.ok(rendered, Object.keys(chart).join(', '));
    // Release name: Flux's default <targetNamespace>-<name> is not used without spec.targetNamespace on the HelmRelease.
    assert.deepEqual([rendered[1].metadata.name, rendered[1].metadata.namespace, rendered[1].data.text], ['hello', 'media', 'hi world']);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});

/** Renders the fixture with `secret` as the cluster-secrets file and returns the secretvars app's files, with stdout and stderr. */
async function secretvarsRender(secretFile: string, secret: string): Promise<{ text: string; output: string }> {
  const files = repo();
  files[secretFile] = secret;
  return withRenderedLeaves(files, (out, r) => {
    const app = join(out, 'cluster', 'manifests', 'flux_media_secretvars');
    return { text: readdirSync(app).map((f) => readFileSync(join(app, f), 'utf8')).join(''), output: r.stdout + r.stderr };
  });
}

test('render --leaves never writes a Secret\'s value that post-build substitution reads', async () => {
  const { text, output } = await secretvarsRender('kubernetes/flux/vars/secret.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-secrets\n  namespace: media\nstringData:\n  SECRET_DOMAIN: hunter2.example\n');
  assert.doesNotMatch(text + output, /hunter2/);
  assert.match(text, /v: REDACTED_SECRET_SECRET_DOMAIN\n/);
});

test('render --leaves substitutes from a SOPS-encrypted Secret of the repository: its keys are known, each value is written redacted, as a plaintext Secret\'s is', async () => {
  // SOPS encrypts values, never keys: the variables the Secret defines are known, their values are not.
  const { text } = await secretvarsRender('kubernetes/flux/vars/secret.sops.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: cluster-secrets\n  namespace: media\nstringData:\n  SECRET_DOMAIN: ENC[AES256_GCM,data:oobQP6mZ,iv:tOUq,tag:hzNt,type:str]\nsops:\n  age:\n    - recipient: age1example\n  version: 3.9.0\n');
  assert.doesNotMatch(text, /ENC\[/);
  assert.match(text, /v: REDACTED_SECRET_SECRET_DOMAIN\n/);
});

test("render --leaves sets a Flux Kustomization's commonMetadata on every object it applies, in metadata only, over the object's own keys; its charts' objects do not get it", async () => {
  requireTools();
  const dir = writeTree({
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', 'kubernetes/apps').replace('  name: cluster-apps\n', '  name: cluster-apps\n  namespace: flux-system\n'),
    'kubernetes/apps/kustomization.yaml': 'namespace: team\nresources:\n  - ./web/ks.yaml\n',
    'kubernetes/apps/web/ks.yaml': ks('web', 'kubernetes/apps/web/app', `  targetNamespace: team
  commonMetadata:
    labels:
      team: platform
      app.kubernetes.io/part-of: web
    annotations:
      owner: platform@example.org
`),
    'kubernetes/apps/web/app/kustomization.yaml': 'resources:\n  - ./deploy.yaml\n  - ./helmrelease.yaml\n',
    'kubernetes/apps/web/app/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    team: old\n    keep: yes-kept\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n',
    'kubernetes/apps/web/app/helmrelease.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: hello
spec:
  interval: 1h
${localChart('./charts/hello')}  values:
    greeting: hi
`,
    'charts/hello/Chart.yaml': 'apiVersion: v2\nname: hello\nversion: 0.1.0\n',
    'charts/hello/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  text: "{{ .Values.greeting }}"\n',
  });
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-flux-home-'));
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), toolEnv(home));
    assert.equal(r.code, 0, r.stderr);
    const files = objects(join(out, 'cluster', 'manifests', 'flux_team_web'));
    const deploy = Object.values(files).find((o) => o.kind === 'Deployment')!;
    assert.deepEqual(deploy.metadata.labels, { team: 'platform', keep: 'yes-kept', 'app.kubernetes.io/part-of': 'web' });
    assert.deepEqual(deploy.metadata.annotations, { owner: 'platform@example.org' });
    assert.deepEqual(deploy.spec.selector.matchLabels, { app: 'web' }, 'selectors are not touched');
    assert.deepEqual(deploy.spec.template.metadata.labels, { app: 'web' }, 'pod templates are not touched');
    const release = Object.values(files).find((o) => o.kind === 'HelmRelease')!;
    assert.equal(release.metadata.labels.team, 'platform', 'the HelmRelease is an object the Kustomization applies');
    const chart = Object.entries(files).find(([f]) => f.startsWith('helm_'));
    assert.ok(chart, Object.keys(files).join(', '));
    // helm-controller applies the chart's objects without the Kustomization's commonMetadata, with its origin labels.
    assert.deepEqual(chart[1].metadata.labels, { 'helm.toolkit.fluxcd.io/name': 'hello', 'helm.toolkit.fluxcd.io/namespace': 'team' });
    assert.equal(chart[1].metadata.annotations, undefined);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
});
