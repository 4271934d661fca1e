/**
 * The config-management plugin's environment given inline, on the repo-server sidecar of the
 * bootstrap's ArgoCD (`spec.repo.sidecarContainers[].env`), as raffaelespazzoli/acm-virt-dr's
 * `.bootstrap/argocd.yaml` does, instead of in the environment-variables ConfigMap that later
 * copies of the template use. The plugin runs `kustomize build | envsub` in that container, so
 * those are the variables it substitutes. fleetplan read the ConfigMap only: every
 * `${INFRA_GITOPS_REPO}` of the values files was an undefined-variable error and render wrote
 * nothing. The sidecar's env is now read as the ConfigMap is (bootstrap-time `${x}` kept literally,
 * `${cluster_name}` the cluster), and an env entry wins over the ConfigMap's, as in Kubernetes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { sidecarArgocd } from '../support/gitops-standards-argocd.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/gitops-standards', import.meta.url));

const ARGOCD = sidecarArgocd({
  CLUSTER_NAME: '${cluster_name}',
  APPS_DOMAIN: 'apps.${cluster_name}.example.org',
  LOG_ENDPOINT: '${log_endpoint}',
  INFRA_GITOPS_REPO: '${gitops_repo}',
});

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-gs-env-'));
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, '.bootstrap/argocd.yaml'), ARGOCD);
  const hub = join(dir, 'clusters/hub/values.yaml');
  writeFileSync(hub, readFileSync(hub, 'utf8').replace('      - https://git.example.org/platform/standards-fleet.git', '      - ${INFRA_GITOPS_REPO}'));
  return dir;
}

test('the plugin environment written on the repo-server sidecar gives the variables: no undefined-variable, shown literally until bootstrap', async () => {
  const dir = repo();
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; message: string }[] }).findings;
    assert.deepEqual(findings.filter((f) => f.code === 'undefined-variable'), [], v.stdout);
    const p = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout) as { clusters: { name: string; notes?: string[] }[] };
    const hubNotes = plan.clusters.find((c) => c.name === 'hub')?.notes ?? [];
    assert.ok(hubNotes.some((n) => /shown literally: .*INFRA_GITOPS_REPO=\$\{gitops_repo\}.*LOG_ENDPOINT=\$\{log_endpoint\}/.test(n)), JSON.stringify(hubNotes));
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub']);
    assert.equal(r.code, 0, r.stderr);
    // The AppProject gets what the plugin writes before the bootstrap's own envsubst: ${gitops_repo}.
    assert.match(r.stdout, /sourceRepos:\n\s+- "?\$\{gitops_repo\}"?\n/);
  } finally {
    removeTree(dir);
  }
});
