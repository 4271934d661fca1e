/**
 * The real gitops-standards repositories as a user meets them: `plan` and `validate` through the
 * CLI. Validation must report exactly the known defects of each repository's SOURCE.md (dangling
 * paths, paths that escape the repository), the paths the partial copy leaves out, and nothing else.
 */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, removeTree } from '../../support/fleet-fixture.js';
import { copyTree, removeDir, tempDir } from '../../helpers/tools.js';
import { realRepo } from '../../support/shared.js';

/** The real repositories (resolved inside each test). */
const svitnin = () => realRepo('svitnin-redhat__openshift-virtualization-gitops');
const redhatCop = () => realRepo('redhat-cop__gitops-standards-repo-template');

interface PlanJson {
  layout: string;
  clusters: { name: string; role: string; hub: string | null; revision: string; notes: string[]; apps: { name: string; wave: number; from: string; source: { targetRevision: string; repoURL: string } }[] }[];
}

test('plan on svitnin-redhat: hub gets 12 Applications, etl4 13, tracking the cluster-versions revision', async () => {
  const r = await cli(['plan', '--repo', svitnin(), '-o', 'json']);
  const plan = JSON.parse(r.stdout) as PlanJson;
  assert.equal(plan.layout, 'gitops-standards');
  const by = new Map(plan.clusters.map((c) => [c.name, c]));
  assert.deepEqual([...by.keys()], ['hub', 'etl4']);
  assert.equal(by.get('hub')!.apps.length, 12);
  assert.equal(by.get('etl4')!.apps.length, 13);
  for (const c of ['hub', 'etl4']) assert.ok(by.get(c)!.notes.includes('AppProjects: cluster-config (groups/all/values.yaml)'));
  assert.deepEqual([by.get('etl4')!.role, by.get('etl4')!.hub], ['spoke', 'hub']);
  for (const c of plan.clusters) {
    assert.equal(c.revision, 'main');
    assert.ok(c.apps.every((a) => a.source.targetRevision === 'main' && a.source.repoURL === '${gitops_repo}'));
    assert.match(c.notes.join('\n'), /targetRevision of every Application set to "main" by the replacements in clusters\/.*\/kustomization\.yaml/);
  }
  const etl4 = by.get('etl4')!.apps;
  assert.deepEqual(
    [...new Set(etl4.map((a) => a.from))].sort(),
    ['clusters/etl4/values.yaml', 'groups/all/values.yaml', 'groups/prod/values.yaml'],
  );
  assert.equal(etl4.find((a) => a.name === 'openshift-config')!.wave, 16);
});

test('plan on redhat-cop: five clusters, groups as kustomize Components', async () => {
  const r = await cli(['plan', '--repo', redhatCop(), '-o', 'json']);
  const plan = JSON.parse(r.stdout) as PlanJson;
  const counts = Object.fromEntries(plan.clusters.map((c) => [c.name, c.apps.length]));
  assert.deepEqual(counts, { hub: 3, 'non-prod-east': 4, 'non-prod-west': 3, 'prod-east': 3, 'prod-west': 3 });
  const prodEast = plan.clusters.find((c) => c.name === 'prod-east')!;
  assert.deepEqual(prodEast.apps.map((a) => `${a.name} ${a.from}`).sort(), [
    'aws-efs-csi-driver-operator groups/geo-east/values.yaml',
    'cert-manager-operator groups/all/values.yaml',
    'vault-config-operator groups/prod/values.yaml',
  ]);
});

interface FindingJson {
  findings: { severity: string; code: string; file: string; line: number; path?: string; message: string }[];
}

async function findings(repo: string): Promise<string[]> {
  const r = await cli(['validate', '--repo', repo, '-o', 'json']);
  assert.equal(r.code, 1);
  return (JSON.parse(r.stdout) as FindingJson).findings.map((f) => `${f.severity} ${f.code} ${f.file}:${f.line} ${f.path ?? ''}`);
}

test('validate on redhat-cop reports the dangling hub paths, the escaping overlay references, the group overlays that name missing folders, the empty cluster values, the copied cert-manager destinations, and the namespace kustomize puts on a ConsoleLink', async () => {
  assert.deepEqual(await findings(redhatCop()), [
    // SOURCE.md: the folders clusters/hub/acm-* reference ../../../../components/..., which escapes from their depth.
    'error kustomize-path-escapes-repo clusters/hub/acm-configuration/kustomization.yaml:6 resources[0]',
    'error kustomize-path-escapes-repo clusters/hub/acm-operator/kustomization.yaml:5 resources[0]',
    // SOURCE.md: clusters/hub/values.yaml points at clusters/hub/overlays/acm-* (dangling).
    'error missing-path clusters/hub/values.yaml:10 applications.acm-operator.source.path',
    'error missing-path clusters/hub/values.yaml:19 applications.acm-configuration.source.path',
    // SOURCE.md: clusters/prod-east/values.yaml and prod-west are whitespace only, yet inflated; so is
    // clusters/non-prod-west/values.yaml (not in SOURCE.md, same defect).
    'warning empty-values-file clusters/non-prod-west/values.yaml:1 ',
    'warning empty-values-file clusters/prod-east/values.yaml:1 ',
    'warning empty-values-file clusters/prod-west/values.yaml:1 ',
    // Not in SOURCE.md, confirmed with kustomize: the component's namespace: lands on its ConsoleLink,
    // which kustomize takes for namespaced (a custom kind) and the API server stores without one.
    'warning namespace-on-cluster-scoped components/kube-ops-view/kustomization.yaml:3 namespace',
    // Not in SOURCE.md, confirmed with kustomize: ../../components/... from groups/<g>/overlays/<x> is
    // groups/<g>/components/..., which does not exist (and "aes-" is a typo of "aws-").
    'error kustomize-missing-path groups/geo-east/overlays/aws-efs-csi-driver-operator/kustomization.yaml:4 resources[0]',
    // SOURCE.md: groups/geo-*/values.yaml and groups/prod/values.yaml send operators to cert-manager
    // (copy/paste), the namespace groups/all's cert-manager-operator creates; groups/non-prod has the
    // same copied line (not in SOURCE.md, same defect).
    'warning foreign-destination-namespace groups/geo-east/values.yaml:8 applications.aws-efs-csi-driver-operator.destination.namespace',
    'error kustomize-missing-path groups/geo-west/overlays/aws-efs-csi-driver-operator/kustomization.yaml:4 resources[0]',
    'warning foreign-destination-namespace groups/geo-west/values.yaml:8 applications.aws-efs-csi-driver-operator.destination.namespace',
    'error kustomize-missing-path groups/non-prod/overlays/vault-config-operator/kustomization.yaml:4 resources[0]',
    'warning foreign-destination-namespace groups/non-prod/values.yaml:8 applications.vault-config-operator.destination.namespace',
    'error kustomize-missing-path groups/prod/overlays/vault-config-operator/kustomization.yaml:4 resources[0]',
    'warning foreign-destination-namespace groups/prod/values.yaml:8 applications.vault-config-operator.destination.namespace',
  ]);
});

test('validate on svitnin-redhat reports exactly the paths its partial copy leaves out, at the values line', async () => {
  assert.deepEqual(await findings(svitnin()), [
    'error kustomize-missing-path clusters/etl4/overlays/metallb-configuration/kustomization.yaml:5 resources[0]',
    'error missing-path clusters/hub/values.yaml:20 applications.reflector-operator.source.path',
    'error missing-path clusters/hub/values.yaml:30 applications.metallb-configuration.source.path',
    'error missing-path clusters/hub/values.yaml:38 applications.nmstate-configuration.source.path',
    'error missing-path clusters/hub/values.yaml:56 applications.acm-instance.source.path',
    'error missing-path clusters/hub/values.yaml:63 applications.acm-configuration.source.path',
    'error missing-path clusters/hub/values.yaml:77 applications.gitops-boostrap-policy.source.path',
    'error missing-path clusters/hub/values.yaml:154 applications.ocp3m0w-ic4s18.source.path',
    'error missing-path groups/all/values.yaml:42 applications.kube-ops-view.source.path',
    // Not in SOURCE.md: on the hub, groups/all's metallb-operator is an ACM OperatorPolicy at wave 5,
    // the wave of acm-operator, which installs that API (and before acm-instance at 15).
    'warning crd-order groups/all/values.yaml:76 applications.metallb-operator.annotations.argocd.argoproj.io/sync-wave',
    'error missing-path groups/all/values.yaml:84 applications.nmstate-operator.source.path',
    'error missing-path groups/all/values.yaml:92 applications.nmstate-instance.source.path',
    'error missing-path groups/prod/values.yaml:20 applications.hyperconverged-instance.source.path',
    'error missing-path groups/prod/values.yaml:26 applications.descheduler-operator.source.path',
    'error missing-path groups/prod/values.yaml:34 applications.descheduler-configuration.source.path',
    'error missing-path groups/prod/values.yaml:42 applications.node-health-check-operator.source.path',
    'error missing-path groups/prod/values.yaml:50 applications.node-health-check-configuration.source.path',
  ]);
});

test('the hint for a dangling hub path names the folder that does exist', async () => {
  const r = await cli(['validate', '--repo', redhatCop()]);
  assert.match(r.stdout, /there is a directory clusters\/hub\/acm-operator: fix the path to it/);
  assert.match(r.stdout, /did you mean "\.\.\/\.\.\/\.\.\/components\/acm-operator\/"\?/);
});

test('the hints for the group overlays name the component they most likely mean, typo included', async () => {
  const r = await cli(['validate', '--repo', redhatCop(), '-o', 'json']);
  const hints = (JSON.parse(r.stdout) as { findings: { code: string; file: string; hint: string }[] }).findings
    .filter((f) => f.code === 'kustomize-missing-path')
    .map((f) => `${f.file.split('/')[1]!}: ${f.hint}`);
  assert.deepEqual(hints, [
    'geo-east: did you mean "../../../../components/aws-efs-csi-driver-operator/"? it names components/aws-efs-csi-driver-operator; kustomize build fails here',
    'geo-west: did you mean "../../../../components/aws-efs-csi-driver-operator/"? it names components/aws-efs-csi-driver-operator; kustomize build fails here',
    'non-prod: did you mean "../../../../components/vault-config-operator/"? it names components/vault-config-operator; kustomize build fails here',
    'prod: did you mean "../../../../components/vault-config-operator/"? it names components/vault-config-operator; kustomize build fails here',
  ]);
});

test('the copied cert-manager destinations name both apps, the namespaces the operators use, and every cluster', async () => {
  const r = await cli(['validate', '--repo', redhatCop(), '-o', 'json']);
  const found = (JSON.parse(r.stdout) as { findings: { code: string; file: string; message: string; hint: string }[] }).findings.filter((f) => f.code === 'foreign-destination-namespace');
  const byFile = new Map(found.map((f) => [f.file, f]));
  assert.match(byFile.get('groups/geo-east/values.yaml')!.message, /^app "aws-efs-csi-driver-operator" has destination namespace "cert-manager", which belongs to app "cert-manager-operator" \(it creates that Namespace\), while the objects of "aws-efs-csi-driver-operator" .* live in openshift-cloud-credential-operator, openshift-cluster-csi-drivers on clusters non-prod-east, prod-east$/);
  assert.match(byFile.get('groups/geo-east/values.yaml')!.hint, /^set destination\.namespace to "openshift-cluster-csi-drivers"/);
  assert.match(byFile.get('groups/prod/values.yaml')!.message, /"vault-config-operator" .* live in vault-config-operator on clusters prod-east, prod-west$/);
  assert.match(byFile.get('groups/prod/values.yaml')!.hint, /^set destination\.namespace to "vault-config-operator"/);
});

test('redhat-cop with the group overlays pointed at the real components: their patch paths exist, the StorageClass patch selects nothing', async () => {
  // Today the overlays name missing folders, so nothing can be matched; with ../../../../components/aws-*
  // the Subscription patches (replace /spec/channel, /spec/config/env/0/value) find their paths — as
  // kustomize 5 confirms — and the StorageClass patch finds no StorageClass: the component does not list
  // storage-class.yaml, so kustomize applies that patch to nothing.
  const dir = tempDir('redhat-cop-fixed');
  try {
    copyTree(redhatCop(), dir);
    for (const o of ['geo-east/overlays/aws-efs-csi-driver-operator', 'geo-west/overlays/aws-efs-csi-driver-operator', 'non-prod/overlays/vault-config-operator', 'prod/overlays/vault-config-operator']) {
      const file = `${dir}/groups/${o}/kustomization.yaml`;
      writeFileSync(file, readFileSync(file, 'utf8').replace('../../components/aes-', '../../components/aws-').replace('../../components/', '../../../../components/'));
    }
    const patchFindings = (await findings(dir)).filter((f) => /patch/.test(f));
    assert.deepEqual(patchFindings, [
      'warning patch-target-unmatched groups/geo-east/overlays/aws-efs-csi-driver-operator/kustomization.yaml:12 patches[0].target',
      'warning patch-target-unmatched groups/geo-west/overlays/aws-efs-csi-driver-operator/kustomization.yaml:12 patches[0].target',
    ]);
  } finally {
    removeDir(dir);
  }
});

test('the bootstrap root Application of .bootstrap/ is checked against the Argo CD CRD schema', async () => {
  // The committed root-application.yaml is valid (no finding above); misplace its prune in a copy.
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-svitnin-'));
  try {
    cpSync(svitnin(), dir, { recursive: true });
    // The stored copy is read-only; make the temporary one writable (and removable).
    for (const p of ['', ...readdirSync(dir, { recursive: true, encoding: 'utf8' })]) chmodSync(join(dir, p), statSync(join(dir, p)).isDirectory() ? 0o755 : 0o644);
    const file = join(dir, '.bootstrap', 'root-application.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^ {4}automated:/m, '    prune: true\n    automated:'));
    const found = (await findings(dir)).filter((f) => f.includes('argocd-'));
    assert.deepEqual(found, ['error argocd-unknown-field .bootstrap/root-application.yaml:40 spec.syncPolicy.prune']);
  } finally {
    removeTree(dir);
  }
});
