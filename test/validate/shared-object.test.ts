/**
 * One object applied by several apps of a cluster, judged as the tools apply it (ADR 0390):
 * the same content is a warning naming every owner and what flaps (Argo CD tracking and
 * SharedResourceWarning; Flux owner labels and commonMetadata labels) and what pruning does;
 * different content, content fleetplan cannot compute, or FailOnSharedResource=true is an error.
 * Argo CD through a native fleet, Flux through the flux layout; repositories written by the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { fluxKustomization, gotkSync } from '../support/flux-fixture.js';
import { loadFleet, validateFleet } from '../../src/index.js';

interface Finding { severity: string; code: string; message: string; hint?: string; file?: string; line?: number }

async function run(files: Record<string, string>, command = 'validate'): Promise<{ code: number; findings: Finding[]; stdout: string; stderr: string }> {
  const dir = writeTree(files);
  try {
    const r = await cli([command, '--repo', dir, ...(command === 'validate' ? ['-o', 'json'] : [])]);
    const findings = command === 'validate' ? (JSON.parse(r.stdout) as { findings: Finding[] }).findings : [];
    return { code: r.code, findings, stdout: r.stdout, stderr: r.stderr };
  } finally {
    removeTree(dir);
  }
}

const shared = (f: Finding[]) => f.filter((x) => x.code.startsWith('shared-object'));

const configMap = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: ${value}\n`;

/** The base fleet's apps operator and config (both in namespace op), with these kustomizations and files. */
function argo(files: Record<string, string>): Record<string, string> {
  return baseFleet(files);
}

/** operator applies components/operator/cm.yaml; config's kustomization is `config` (and `files` more). */
function operatorCm(config: string, files: Record<string, string> = {}): Record<string, string> {
  return argo({
    'components/operator/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    'components/operator/cm.yaml': configMap('fast'),
    'components/config/kustomization.yaml': config,
    ...files,
  });
}

test('argo cd: one document listed by two apps is the same content, a warning naming both apps and the document', async () => {
  const r = await run(operatorCm('resources:\n  - ../operator/cm.yaml\n'));
  const s = shared(r.findings);
  assert.equal(s.length, 1, JSON.stringify(r.findings));
  assert.equal(s[0]!.severity, 'warning');
  assert.equal(s[0]!.code, 'shared-object-identical');
  assert.match(s[0]!.message, /^ConfigMap op\/settings \(components\/operator\/cm\.yaml:1\) is applied with the same content by 2 apps: "config" \(groups\/base\/group\.yaml:\d+\), "operator" \(groups\/base\/group\.yaml:\d+\) on cluster one$/);
  assert.match(s[0]!.hint ?? '', /SharedResourceWarning/);
  assert.match(s[0]!.hint ?? '', /tracking/);
  assert.match(s[0]!.hint ?? '', /prun/);
  assert.equal(r.code, 0, 'a warning does not fail validate');
});

test('argo cd: two files of different content are an error that names the field and both values', async () => {
  const r = await run(operatorCm('resources:\n  - cm.yaml\n', {
    'components/config/cm.yaml': configMap('slow'),
  }));
  const s = shared(r.findings);
  assert.equal(s.length, 1, JSON.stringify(r.findings));
  assert.equal(s[0]!.severity, 'error');
  assert.equal(s[0]!.code, 'shared-object');
  assert.match(s[0]!.message, /ConfigMap op\/settings is applied with different content by 2 apps: "config" \([^)]*\) from components\/config\/cm\.yaml:1, "operator" \([^)]*\) from components\/operator\/cm\.yaml:1 on cluster one/);
  assert.match(s[0]!.hint ?? '', /data\.mode \("slow" in "config", "fast" in "operator"\)/);
  assert.equal(r.code, 1);
});

test('argo cd: two files of the same content are the same object content, a warning', async () => {
  const r = await run(operatorCm('resources:\n  - cm.yaml\n', {
    'components/config/cm.yaml': `# the same object, keys in another order\napiVersion: v1\nkind: ConfigMap\ndata:\n  mode: fast\nmetadata:\n  name: settings\n  namespace: op\n`,
  }));
  assert.deepEqual(shared(r.findings).map((f) => [f.severity, f.code]), [['warning', 'shared-object-identical']], JSON.stringify(r.findings));
});

test('argo cd: the same document, labelled by one app\'s kustomization, is different content', async () => {
  const r = await run(operatorCm('resources:\n  - ../operator/cm.yaml\ncommonAnnotations:\n  team: config\n'));
  const s = shared(r.findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(r.findings));
  assert.match(s[0]!.hint ?? '', /metadata\.annotations\.team \("config" in "config", absent in "operator"\)/);
});

test('argo cd: a strategic-merge patch fleetplan does not apply leaves the content unknown: an error that names the patch', async () => {
  const r = await run(operatorCm('resources:\n  - ../operator/cm.yaml\npatches:\n  - patch: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: settings\n      data:\n        mode: fast\n'));
  const s = shared(r.findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(r.findings));
  assert.match(s[0]!.hint ?? '', /cannot tell whether they apply the same content: components\/config\/kustomization\.yaml patches\[0\] may change it/);
});

test('argo cd: the same content with FailOnSharedResource=true is an error: that app\'s sync fails', async () => {
  const files = operatorCm('resources:\n  - ../operator/cm.yaml\n');
  files['groups/base/group.yaml'] = files['groups/base/group.yaml']!.replace('      needs: [operator]\n', '      needs: [operator]\n      syncOptions:\n        - FailOnSharedResource=true\n');
  const s = shared((await run(files)).findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(s));
  assert.match(s[0]!.hint ?? '', /"config" syncs with FailOnSharedResource=true/);
});

test('argo cd: three apps with the same object make one finding naming all three', async () => {
  const files = operatorCm('resources:\n  - ../operator/cm.yaml\n', {
    'components/extra/kustomization.yaml': 'resources:\n  - ../operator/cm.yaml\n',
  });
  files['groups/base/group.yaml'] += '    extra:\n      path: components/extra\n      namespace: op\n';
  const s = shared((await run(files)).findings);
  assert.equal(s.length, 1, JSON.stringify(s));
  assert.match(s[0]!.message, /by 3 apps: "config" .*"extra" .*"operator" /);
});

const oci = (tag: string) => `apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: app-template\nspec:\n  interval: 12h\n  ref:\n    tag: ${tag}\n  url: oci://ghcr.io/bjw-s-labs/helm/app-template\n`;

/** Two app Kustomizations in namespace media (as home-ops repositories write them), each with its own OCIRepository file. */
function flux(a: string, b: string, spec: (app: string) => string = (app) => `  targetNamespace: media\n  commonMetadata:\n    labels:\n      app.kubernetes.io/name: ${app}\n`, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'clusters/one/flux-system/gotk-sync.yaml': gotkSync('one'),
    'clusters/one/apps.yaml': fluxKustomization('sonarr', 'apps/sonarr', spec('sonarr'), 'flux-system') + '---\n' + fluxKustomization('radarr', 'apps/radarr', spec('radarr'), 'flux-system'),
    'apps/sonarr/kustomization.yaml': 'resources:\n  - oci.yaml\n',
    'apps/sonarr/oci.yaml': a,
    'apps/radarr/kustomization.yaml': 'resources:\n  - oci.yaml\n',
    'apps/radarr/oci.yaml': b,
    ...extra,
  };
}

test('flux: the same OCIRepository in two Kustomizations is a warning naming both, the owner labels and the commonMetadata label that flip', async () => {
  const r = await run(flux(oci('5.0.0'), oci('5.0.0')));
  const s = shared(r.findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code, f.file, f.line]), [['warning', 'shared-object-identical', 'apps/radarr/oci.yaml', 1]], JSON.stringify(r.findings));
  assert.match(s[0]!.message, /^OCIRepository media\/app-template is applied with the same content by 2 Kustomizations: "flux:flux-system\/radarr" \(clusters\/one\/apps\.yaml:\d+\) from apps\/radarr\/oci\.yaml:1, "flux:flux-system\/sonarr" \(clusters\/one\/apps\.yaml:\d+\) from apps\/sonarr\/oci\.yaml:1 on cluster one$/);
  assert.match(s[0]!.hint ?? '', /kustomize\.toolkit\.fluxcd\.io\/name and \/namespace/);
  assert.match(s[0]!.hint ?? '', /app\.kubernetes\.io\/name: "radarr" \/ "sonarr"/);
  assert.match(s[0]!.hint ?? '', /garbage collection \(spec\.prune: true\) deletes it if it applied last/);
  assert.match(s[0]!.hint ?? '', /dependsOn/);
  assert.equal(r.code, 0);
});

test('flux: OCIRepositories of different tags are an error naming spec.ref.tag', async () => {
  const s = shared((await run(flux(oci('5.0.0'), oci('4.6.2')))).findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(s));
  assert.match(s[0]!.hint ?? '', /spec\.ref\.tag \("4\.6\.2" in "flux:flux-system\/radarr", "5\.0\.0" in "flux:flux-system\/sonarr"\)/);
});

test('flux: a component both app kustomizations list is the same content, and a spec.components patch of one Kustomization makes it different', async () => {
  const spec = (extra: string) => (app: string) => `  targetNamespace: media\n  components:\n    - ../../components/${app === 'sonarr' ? extra : 'alerts'}\n`;
  const files = (extra: string) => flux('', '', spec(extra), {
    'apps/sonarr/kustomization.yaml': 'components:\n  - ../../components/repos\n',
    'apps/radarr/kustomization.yaml': 'components:\n  - ../../components/repos\n',
    'apps/sonarr/oci.yaml': undefined as unknown as string,
    'components/repos/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - oci.yaml\n',
    'components/repos/oci.yaml': oci('5.0.0'),
    'components/alerts/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - provider.yaml\n',
    'components/alerts/provider.yaml': 'apiVersion: notification.toolkit.fluxcd.io/v1beta3\nkind: Provider\nmetadata:\n  name: ${APP}\nspec:\n  type: generic\n',
    'components/pin/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - target:\n      kind: OCIRepository\n    patch: |\n      - op: replace\n        path: /spec/ref/tag\n        value: 4.6.2\n',
  });
  const clean = (f: Record<string, string>) => Object.fromEntries(Object.entries(f).filter(([k, v]) => v !== undefined && k !== 'apps/radarr/oci.yaml'));
  const same = shared((await run(clean(files('alerts')))).findings);
  assert.deepEqual(same.map((f) => [f.severity, f.code, f.file]), [['warning', 'shared-object-identical', 'components/repos/oci.yaml']], JSON.stringify(same));
  assert.match(same[0]!.message, /OCIRepository media\/app-template \(components\/repos\/oci\.yaml:1\) is applied with the same content by 2 Kustomizations: "flux:flux-system\/radarr" \(clusters\/one\/apps\.yaml:\d+\), "flux:flux-system\/sonarr" \(clusters\/one\/apps\.yaml:\d+\) on cluster one/);
  const pinned = shared((await run(clean(files('pin')))).findings);
  assert.deepEqual(pinned.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(pinned));
  assert.match(pinned[0]!.hint ?? '', /spec\.ref\.tag \("5\.0\.0" in "flux:flux-system\/radarr", "4\.6\.2" in "flux:flux-system\/sonarr"\)/);
});

test('flux: the same file with a post-build variable substituted differently by each Kustomization is an error (unknown content)', async () => {
  const spec = (app: string) => `  targetNamespace: media\n  postBuild:\n    substitute:\n      TAG: ${app === 'sonarr' ? '5.0.0' : '4.6.2'}\n`;
  const s = shared((await run(flux(oci('${TAG}'), oci('${TAG}'), spec))).findings);
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(s));
  assert.match(s[0]!.hint ?? '', /spec\.postBuild/);
});

test('flux: the same name in two targetNamespaces is two objects', async () => {
  const spec = (app: string) => `  targetNamespace: ${app}\n`;
  const withNs = oci('5.0.0').replace('  name: app-template\n', '  name: app-template\n  namespace: media\n');
  assert.deepEqual(shared((await run(flux(withNs, withNs, spec))).findings), []);
});

const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n          envFrom:\n            - configMapRef:\n                name: web-env\n';

for (const c of [
  { name: 'images', extra: 'images:\n  - name: nginx\n    newTag: "1.28"\n', what: /components\/config\/kustomization\.yaml images may change it/ },
  { name: 'a configMapGenerator whose hashed name the object references', extra: 'configMapGenerator:\n  - name: web-env\n    literals:\n      - A=1\n', what: /components\/config\/kustomization\.yaml configMapGenerator\/secretGenerator \(hashed names\) may change it/ },
  { name: 'commonLabels (written into selectors too)', extra: 'commonLabels:\n  team: config\n', what: /components\/config\/kustomization\.yaml commonLabels may change it/ },
]) {
  test(`argo cd: ${c.name} in one app's kustomization, which fleetplan does not apply, leaves the content unknown: an error naming it`, async () => {
    const s = shared((await run(argo({
      'components/operator/kustomization.yaml': 'resources:\n  - web.yaml\n',
      'components/operator/web.yaml': deployment,
      'components/config/kustomization.yaml': `resources:\n  - ../operator/web.yaml\n${c.extra}`,
    }))).findings);
    assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(s));
    assert.match(s[0]!.hint ?? '', c.what);
  });
}

test('flux: a Kustomization namePrefix makes its own object, not a shared one', async () => {
  const spec = (app: string) => `  targetNamespace: media\n  namePrefix: ${app}-\n`;
  assert.deepEqual(shared((await run(flux(oci('5.0.0'), oci('5.0.0'), spec))).findings), []);
});

test('flux: a document of a SOPS file is compared without its sops block; encrypted values are content fleetplan cannot compare', async () => {
  const sops = 'sops:\n  age:\n    - recipient: age1example\n      enc: x\n  encrypted_regex: ^(data|stringData)$\n  version: 3.9.0\n';
  const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: media\n';
  const plainAndSops = shared((await run(flux(ns, ns + sops, (app) => `  commonMetadata:\n    labels:\n      app.kubernetes.io/name: ${app}\n`))).findings);
  assert.deepEqual(plainAndSops.map((f) => [f.severity, f.code]), [['warning', 'shared-object-identical']], JSON.stringify(plainAndSops));
  const secret = (enc: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\n  namespace: media\ndata:\n  token: ENC[AES256_GCM,data:${enc},type:str]\n${sops}`;
  const encrypted = shared((await run(flux(secret('abc'), secret('xyz'), () => ''))).findings);
  assert.deepEqual(encrypted.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(encrypted));
  assert.match(encrypted[0]!.hint ?? '', /the SOPS-encrypted values of apps\/(radarr|sonarr)\/oci\.yaml \(fleetplan does not decrypt them\)/);
  const sameCiphertext = shared((await run(flux(secret('abc'), secret('abc'), () => ''))).findings);
  assert.deepEqual(sameCiphertext.map((f) => [f.severity, f.code]), [['warning', 'shared-object-identical']], JSON.stringify(sameCiphertext));
});

test('with leaves the rendered objects are the content: the same is a warning, a difference an error', () => {
  const dir = writeTree(baseFleet());
  try {
    const { fleet } = loadFleet(dir);
    const cm = (mode: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'op' }, data: { mode } });
    const judged = (modes: Record<string, string>) => validateFleet(fleet, {
      leaves: { objects: (_cluster, app) => (modes[app] !== undefined ? [cm(modes[app])] : undefined) },
    }).filter((f) => f.code.startsWith('shared-object'));
    const same = judged({ operator: 'fast', config: 'fast' });
    assert.deepEqual(same.map((f) => [f.severity, f.code]), [['warning', 'shared-object-identical']], JSON.stringify(same));
    assert.match(same[0]!.message, /ConfigMap op\/shared is applied with the same content by 2 apps: "config" \([^)]*\) from components\/config, "operator" \([^)]*\) from components\/operator on cluster one/);
    const different = judged({ operator: 'fast', config: 'slow' });
    assert.deepEqual(different.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(different));
    assert.match(different[0]!.hint ?? '', /data\.mode \("slow" in "config", "fast" in "operator"\)/);
  } finally {
    removeTree(dir);
  }
});

test('argo cd: apps that sync with FailOnSharedResource=true (the lab fleet\'s defaults) make the same content an error', () => {
  const { fleet } = loadFleet('examples/lab');
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: 'tools' }, data: { mode: 'fast' } };
  const s = validateFleet(fleet, {
    clusters: ['etl4'],
    leaves: { objects: (cluster, app) => (cluster === 'etl4' && (app === 'metallb-operator' || app === 'nmstate-operator') ? [cm] : undefined) },
  }).filter((f) => f.code.startsWith('shared-object'));
  assert.deepEqual(s.map((f) => [f.severity, f.code]), [['error', 'shared-object']], JSON.stringify(s));
  assert.match(s[0]!.hint ?? '', /"metallb-operator", "nmstate-operator" sync with FailOnSharedResource=true/);
});
