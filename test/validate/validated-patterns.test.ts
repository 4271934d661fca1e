/**
 * The validated-patterns rule (and missing-path on this layout): each code with a named failing
 * and passing case, on copies of the pattern fixture with one change each.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ruleCatalog } from '../../src/index.js';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const FIXTURE = 'test/fixtures/validated-patterns/pattern';

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir)) {
    const abs = join(dir, e);
    if (statSync(abs).isDirectory()) Object.assign(out, readTree(abs, `${prefix}${e}/`));
    else out[`${prefix}${e}`] = readFileSync(abs, 'utf8');
  }
  return out;
}

type Edit = Record<string, ((text: string) => string) | string | null>;

/** The fixture with edits: a function rewrites a file, a string replaces it, null removes it. */
function pattern(edit: Edit): string {
  const files = readTree(FIXTURE);
  for (const [file, e] of Object.entries(edit)) {
    if (e === null) delete files[file];
    else if (typeof e === 'string') files[file] = e;
    else {
      const before = files[file]!;
      files[file] = e(before);
      assert.notEqual(files[file], before, `the edit of ${file} changed nothing`);
    }
  }
  return writeTree(files);
}

interface F {
  severity: string;
  code: string;
  file: string;
  line?: number;
  path?: string;
  message: string;
  cluster?: string;
}

async function findings(edit: Edit): Promise<F[]> {
  const dir = pattern(edit);
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return (JSON.parse(r.stdout) as { findings: F[] }).findings;
  } finally {
    removeTree(dir);
  }
}

const brief = (fs: F[]) => fs.map((f) => `${f.code} ${f.file}:${f.line ?? '?'} ${f.path ?? ''}`);

test('the fixture pattern validates clean', async () => {
  assert.deepEqual(await findings({}), []);
});

test('every validated-patterns code is in the rule catalog', () => {
  const catalog = ruleCatalog();
  for (const c of ['vp-unknown-argo-project', 'vp-undeclared-namespace', 'vp-group-name-mismatch', 'vp-missing-group-values', 'vp-values-schema']) {
    assert.ok(catalog[c], c);
    assert.ok(catalog[c]!.help.length > 20, c);
  }
});

interface Case {
  name: string;
  edit: Edit;
  /** `code file:line path`, in finding order. */
  want: string[];
  message?: RegExp;
  /** The first finding's severity, where the case is about it. */
  severity?: string;
}

const replace = (from: string, to: string) => (t: string) => t.replace(from, to);

/** The repository's own clustergroup chart, which the operator's Application reads without main.multiSourceConfig. */
const OWN_CHART: Edit = {
  'common/clustergroup/Chart.yaml': 'apiVersion: v2\nname: clustergroup\nversion: 0.0.1\n',
  'common/clustergroup/templates/ns.yaml': '{{- range .Values.clusterGroup.namespaces }}\n# {{ . }}\n{{- end }}\n',
};
/** A values schema of an older own chart: no argoProjects, an externalClusters the published chart does not have. */
const OWN_SCHEMA = JSON.stringify({
  $schema: 'http://json-schema.org/draft-07/schema#',
  $ref: '#/definitions/ValidatedPatterns',
  definitions: {
    ValidatedPatterns: { type: 'object', properties: { clusterGroup: { $ref: '#/definitions/ClusterGroup' } } },
    ClusterGroup: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(['name', 'isHubCluster', 'namespaces', 'subscriptions', 'projects', 'sharedValueFiles', 'applications', 'managedClusterGroups', 'externalClusters'].map((k) => [k, {}])),
    },
  },
});

const cases: Case[] = [
  // vp-unknown-argo-project
  {
    name: 'vp-unknown-argo-project: an application names a project argoProjects does not declare',
    edit: { 'values-hub.yaml': replace('argoProject: web', 'argoProject: webs') },
    want: ['vp-unknown-argo-project values-hub.yaml:27 clusterGroup.applications.web.argoProject'],
    message: /application "web" uses Argo CD project "webs", which clusterGroup\.argoProjects does not declare/,
  },
  {
    name: 'vp-unknown-argo-project: passes for the default project, which always exists',
    edit: { 'values-hub.yaml': replace('argoProject: web', 'argoProject: default') },
    want: [],
  },
  {
    name: 'vp-unknown-argo-project: passes for a project declared in the deprecated projects list',
    edit: { 'values-edge.yaml': replace('argoProjects:', 'projects:') },
    want: [],
  },
  // vp-undeclared-namespace
  {
    name: 'vp-undeclared-namespace: an application namespace the group does not declare',
    edit: { 'values-edge.yaml': replace('      namespace: web', '      namespace: shop') },
    want: ['vp-undeclared-namespace values-edge.yaml:9 clusterGroup.applications[0].namespace'],
    message: /application "web" uses namespace "shop", which clusterGroup\.namespaces does not declare/,
  },
  {
    name: 'vp-undeclared-namespace: a subscription namespace the group does not declare',
    edit: { 'values-hub.yaml': replace('namespace: open-cluster-management\n      channel', 'namespace: acm-operators\n      channel') },
    want: ['vp-undeclared-namespace values-hub.yaml:9 clusterGroup.subscriptions.acm.namespace'],
  },
  {
    name: 'vp-undeclared-namespace: passes for openshift-operators, which every cluster has',
    edit: { 'values-hub.yaml': replace('namespace: open-cluster-management\n      channel', 'namespace: openshift-operators\n      channel') },
    want: [],
  },
  {
    name: 'vp-undeclared-namespace: passes for openshift-console, which every OpenShift cluster with the console has (ansible-edge-gitops\' console plugins app)',
    edit: { 'values-edge.yaml': replace('      namespace: web', '      namespace: openshift-console') },
    want: [],
  },
  {
    name: 'vp-undeclared-namespace: passes for openshift-machine-api, a namespace of every OpenShift 4 cluster (hypershift\'s cluster-autoscaler app)',
    edit: { 'values-edge.yaml': replace('      namespace: web', '      namespace: openshift-machine-api') },
    want: [],
  },
  {
    name: 'vp-values-schema: a subscription\'s sequenceJob without annotations (the chart\'s get on them fails, so the clustergroup Application does not render)',
    edit: { 'values-hub.yaml': replace('      channel: release-2.16', '      channel: release-2.16\n      sequenceJob:\n        resourceType: sc\n        resourceName: fast') },
    want: ['vp-values-schema values-hub.yaml:12 clusterGroup.subscriptions.acm.sequenceJob'],
    message: /subscription "advanced-cluster-management" has a sequenceJob but no annotations/,
  },
  {
    name: 'vp-values-schema: passes for a sequenceJob whose subscription has annotations',
    edit: { 'values-hub.yaml': replace('      channel: release-2.16', '      channel: release-2.16\n      annotations:\n        argocd.argoproj.io/sync-wave: "5"\n      sequenceJob:\n        resourceType: sc\n        resourceName: fast') },
    want: [],
  },
  // vp-group-name-mismatch
  {
    name: 'vp-group-name-mismatch: the hub\'s clusterGroup.name differs from its values file\'s group',
    edit: { 'values-hub.yaml': replace('name: hub', 'name: hubs') },
    want: ['vp-group-name-mismatch values-hub.yaml:2 clusterGroup.name'],
    message: /the chart's Applications read \/values-hubs\.yaml, not values-hub\.yaml/,
  },
  {
    name: 'vp-group-name-mismatch: the hub\'s clusterGroup.name missing (the chart default "example" applies)',
    edit: { 'values-hub.yaml': replace('  name: hub\n', '') },
    want: ['vp-group-name-mismatch values-hub.yaml:2 clusterGroup'],
  },
  {
    // The acm chart's clustergroup Application for a managed group passes the parameter
    // clusterGroup.name=<group> over the value files (application-policies.yaml), as multicluster-devsecops'
    // values-development.yaml with name: devel relies on.
    name: 'vp-group-name-mismatch: passes for a managed group whose file names it otherwise: the acm chart passes clusterGroup.name',
    edit: { 'values-edge.yaml': replace('name: edge', 'name: edges') },
    want: [],
  },
  {
    name: 'vp-group-name-mismatch: passes for a managed group whose file leaves clusterGroup.name out',
    edit: { 'values-edge.yaml': replace('  name: edge\n', '') },
    want: [],
  },
  // vp-missing-group-values
  {
    name: 'vp-missing-group-values: a managed cluster group without its values file',
    edit: { 'values-edge.yaml': null },
    want: ['vp-missing-group-values values-hub.yaml:31 clusterGroup.managedClusterGroups.edge.name'],
    message: /managed cluster group "edge" has no values-edge\.yaml: .*the chart ignores the missing value file, so nothing fails/,
    // The chart's Applications set ignoreMissingValueFiles: nothing fails, so it is not an error.
    severity: 'warning',
  },
  // vp-values-schema
  {
    name: 'vp-values-schema: an unknown clusterGroup key (a typo of applications)',
    edit: { 'values-edge.yaml': replace('  applications:', '  application:') },
    want: ['vp-values-schema values-edge.yaml:8 clusterGroup.application'],
  },
  // The operator's Application reads the repository's own common/clustergroup (no multiSourceConfig):
  // its keys are that chart's, not the published chart's (vessel-id's managedSites, 0.0.1; ADR 0415).
  {
    name: 'vp-values-schema: passes for a key the repository\'s own chart reads (common/clustergroup without a values schema)',
    edit: { ...OWN_CHART, 'common/clustergroup/templates/sites.yaml': '{{- range .Values.clusterGroup.managedSites }}\n# {{ .name }}\n{{- end }}\n', 'values-hub.yaml': replace('  argoProjects:', '  managedSites:\n    - name: edge\n  argoProjects:') },
    want: [],
  },
  {
    name: 'vp-values-unused: a key neither the published chart knows nor the repository\'s own chart (without a values schema) reads is a warning, not the published schema\'s error',
    edit: { ...OWN_CHART, 'values-hub.yaml': replace('  argoProjects:', '  managedSites:\n    - name: edge\n  argoProjects:') },
    want: ['vp-values-unused values-hub.yaml:12 clusterGroup.managedSites'],
    message: /clusterGroup\.managedSites is read by no chart template of the repository: the repository's own chart common\/clustergroup \(version 0\.0\.1\), which the operator's Application reads, has no values\.schema\.json, so helm template does not refuse it and the setting does nothing/,
    severity: 'warning',
  },
  {
    name: 'vp-values-schema: the repository\'s own chart\'s schema decides: a key it allows passes, one it does not is an error',
    edit: { ...OWN_CHART, 'common/clustergroup/values.schema.json': OWN_SCHEMA, 'values-hub.yaml': replace('  argoProjects:', '  externalClusters:\n    - other\n  argoProjects:') },
    want: ['vp-values-schema values-edge.yaml:6 clusterGroup.argoProjects', 'vp-values-schema values-hub.yaml:14 clusterGroup.argoProjects'],
    message: /clusterGroup\.argoProjects is not a clusterGroup setting of the repository's own chart common\/clustergroup \(version 0\.0\.1\): its values\.schema\.json refuses it/,
  },
  {
    name: 'vp-values-schema: an unquoted chartVersion is a number, not a string',
    edit: { 'values-hub.yaml': replace('chartVersion: 0.2.*', 'chartVersion: 0.2') },
    want: ['vp-values-schema values-hub.yaml:23 clusterGroup.applications.acm.chartVersion'],
    message: /chartVersion is number 0\.2, not a string/,
  },
  {
    name: 'vp-values-schema: project together with argoProject',
    edit: { 'values-hub.yaml': replace('      argoProject: web\n', '      argoProject: web\n      project: web\n') },
    want: ['vp-values-schema values-hub.yaml:28 clusterGroup.applications.web.project'],
  },
  {
    name: 'vp-values-schema: an application without a name',
    edit: { 'values-hub.yaml': replace('      name: web\n', '') },
    want: ['vp-values-schema values-hub.yaml:25 clusterGroup.applications.web'],
  },
  {
    name: 'vp-values-schema: a subscription without a name (the chart skips it)',
    edit: { 'values-hub.yaml': replace('      name: advanced-cluster-management\n', '') },
    want: ['vp-values-schema values-hub.yaml:8 clusterGroup.subscriptions.acm'],
  },
  {
    name: 'vp-values-schema: installPlanApproval other than Manual or Automatic',
    edit: { 'values-hub.yaml': replace('      channel: release-2.16\n', '      channel: release-2.16\n      installPlanApproval: auto\n') },
    want: ['vp-values-schema values-hub.yaml:11 clusterGroup.subscriptions.acm.installPlanApproval'],
  },
  {
    name: 'vp-values-schema: an unknown setting of a managed cluster group',
    edit: { 'values-hub.yaml': replace('      name: edge\n', '      name: edge\n      labels: {}\n') },
    want: ['vp-values-schema values-hub.yaml:32 clusterGroup.managedClusterGroups.edge.labels'],
  },
  {
    name: 'vp-values-schema: an ACM label value that is not a string',
    edit: { 'values-hub.yaml': replace('value: edge', 'value: 1') },
    want: ['vp-values-schema values-hub.yaml:33 clusterGroup.managedClusterGroups.edge.acmlabels[0]'],
  },
  {
    name: 'vp-values-schema: argoProjects and the deprecated projects both set',
    edit: { 'values-edge.yaml': replace('  argoProjects:\n    - web\n', '  argoProjects:\n    - web\n  projects:\n    - web\n') },
    want: ['vp-values-schema values-edge.yaml:8 clusterGroup.projects'],
  },
  {
    name: 'vp-values-schema: an imperative job without a playbook',
    edit: { 'values-edge.yaml': (t) => `${t}  imperative:\n    jobs:\n      - name: hello\n` },
    want: ['vp-values-schema values-edge.yaml:16 clusterGroup.imperative.jobs[0]'],
  },
  {
    name: 'vp-values-schema: passes for a quoted chartVersion, lists and maps alike, and a disabled application without fields',
    edit: { 'values-hub.yaml': (t) => t.replace('chartVersion: 0.2.*', 'chartVersion: "0.2"').replace('  managedClusterGroups:', '    old:\n      disabled: true\n  managedClusterGroups:') },
    want: [],
  },
  {
    name: 'a values file that does not parse gives its syntax error only, no guesses about its content',
    edit: { 'values-edge.yaml': (t) => `${t}  broken: [\n` },
    want: ['yaml-syntax values-edge.yaml:15 '],
  },
  // missing-path (repository hygiene) on this layout
  {
    name: 'missing-path: a local chart path that does not exist, placed at the application\'s path',
    edit: { 'values-hub.yaml': replace('path: charts/all/web', 'path: charts/all/webs') },
    want: ['missing-path values-hub.yaml:28 clusterGroup.applications.web.path'],
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const fs = await findings(c.edit);
    assert.deepEqual(brief(fs), c.want);
    if (c.message) assert.match(fs[0]!.message, c.message);
    if (c.severity) assert.equal(fs[0]!.severity, c.severity);
  });
}

/** An app whose manifests use the External Secrets API, next to the subscription that installs it. */
const withSecretsApp = (wave: string): Edit => ({
  'values-hub.yaml': (t) => t
    .replace('    web:\n  subscriptions:', '    web:\n    external-secrets-operator:\n    secrets:\n  subscriptions:')
    .replace('  argoProjects:', '    eso:\n      name: openshift-external-secrets-operator\n      namespace: external-secrets-operator\n      channel: stable-v1\n  argoProjects:')
    .replace('  managedClusterGroups:', `    secrets:\n      name: secrets\n      namespace: secrets\n      path: manifests/secrets\n      kustomize: true\n${wave ? `      annotations:\n        argocd.argoproj.io/sync-wave: "${wave}"\n` : ''}  managedClusterGroups:`),
  'manifests/secrets/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - store.yaml\n  - secret.yaml\n',
  'manifests/secrets/store.yaml': 'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault-backend\nspec:\n  provider: {}\n',
  'manifests/secrets/secret.yaml': 'apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: demo\n  namespace: secrets\nspec:\n  secretStoreRef:\n    name: vault-backend\n    kind: ClusterSecretStore\n',
});

test('crd-order: a subscription app provides its operator\'s APIs; an application annotated into its wave is an error', async () => {
  const fs = await findings(withSecretsApp('-1'));
  assert.deepEqual(brief(fs), ['crd-order values-hub.yaml:41 clusterGroup.applications.secrets.annotations.argocd.argoproj.io/sync-wave']);
  assert.match(fs[0]!.message, /app "secrets" at wave -1 applies external-secrets\.io \(ClusterSecretStore, ExternalSecret\) before "openshift-external-secrets-operator" \(wave -1\)/);
});

test('crd-order: passes when the application keeps the default wave, after the subscriptions', async () => {
  assert.deepEqual(brief(await findings(withSecretsApp(''))), []);
});

