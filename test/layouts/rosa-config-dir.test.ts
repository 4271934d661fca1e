/**
 * The later generation of seed 004's layout (the ROSA Regional Platform after early 2026): no
 * config.yaml but config/defaults.yaml → config/<env>/defaults.yaml → config/<env>/<region>.yaml,
 * rendered into deploy/<env>/<region>/argocd-values-<type>.yaml and
 * argocd-bootstrap-<type>/applicationset.yaml. Before, the repository was "not a fleet repository"
 * (the message named this generation as not read). The synthetic repository is the one of
 * test/support/rosa-regional-repo.ts with its config and render rewritten in this generation.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';
import { loadFleet } from '../../src/index.js';
import { cli } from '../support/fleet-fixture.js';
import type { PlanJson } from '../support/plan-json.js';
import { ROSA_ORIGIN, buildRosaRepo, rosaApplicationSet } from '../support/rosa-regional-repo.js';

/** deploy/<env>/<region>/ of the config/ generation; the ApplicationSet's values path is this generation's. */
function deploy(env: string, region: string, chartRevision: string): Record<string, string> {
  const dir = `deploy/${env}/${region}`;
  const appSet = rosaApplicationSet(chartRevision).replace(
    '$values/deploy/{{ .metadata.labels.environment }}/{{ .metadata.labels.region_deployment }}/argocd/{{ .metadata.labels.cluster_type }}-values.yaml',
    '$values/deploy/{{ .metadata.labels.environment }}/{{ .metadata.labels.region_deployment }}/argocd-values-{{ .metadata.labels.cluster_type }}.yaml',
  );
  return {
    [`${dir}/argocd-values-regional-cluster.yaml`]: `gateway:\n  region: ${region}\n`,
    [`${dir}/argocd-values-management-cluster.yaml`]: 'hypershift:\n  replicas: 2\n',
    [`${dir}/argocd-bootstrap-regional-cluster/applicationset.yaml`]: appSet,
    [`${dir}/argocd-bootstrap-management-cluster/applicationset.yaml`]: appSet,
    [`${dir}/_merged_config.yaml`]: '# written by render.py, not read\n',
  };
}

function configDirRepo(edit?: (files: Record<string, string>, pin: string) => void) {
  return buildRosaRepo({
    edit: (files, pin) => {
      for (const f of Object.keys(files)) if (f === 'config.yaml' || f.startsWith('deploy/')) delete files[f];
      Object.assign(files, {
        'config/defaults.yaml': 'git:\n  revision: main\nprovision_mcs: {}\n',
        'config/integration/defaults.yaml': 'dns:\n  domain: int.example.com\n',
        'config/integration/eu-central-1.yaml': 'provision_mcs:\n  mc01: {}\n  mc02: {}\n',
        'config/production/defaults.yaml': `git:\n  revision: "${pin}"\n`,
        'config/production/ap-south-1.yaml': 'provision_mcs:\n  mc01: {}\n',
        'config/templates/argocd-values.yaml.j2': '{{ not read }}\n',
        ...deploy('integration', 'eu-central-1', 'live'),
        ...deploy('production', 'ap-south-1', pin),
        'deploy/production/ap-south-1/pipeline-provisioner-inputs/management-cluster-mc01.json': '{"region": "ap-south-1", "management_id": "prod-mc01"}\n',
        'deploy/production/region-definitions.json': '{}\n',
      });
      edit?.(files, pin);
    },
  });
}

const repo = configDirRepo();
after(() => rmSync(repo.dir, { recursive: true, force: true }));
const [PIN, MAIN] = repo.commits;

async function planOf(dir: string): Promise<PlanJson> {
  const r = await cli(['plan', '--repo', dir, '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as PlanJson;
}

test('config/ generation: detected as rosa-regional; one regional and one cluster per merged provision_mcs key per config/<env>/<region>.yaml; environments are the sectors, pinned by their merged git.revision', async () => {
  const plan = await planOf(repo.dir);
  assert.equal(plan.layout, 'rosa-regional');
  assert.deepEqual(plan.clusters.map((c) => [c.name, c.role]), [
    ['integration-eu-central-1-mc01', 'management'],
    ['integration-eu-central-1-mc02', 'management'],
    ['integration-eu-central-1-regional', 'regional'],
    ['production-ap-south-1-mc01', 'management'],
    ['production-ap-south-1-regional', 'regional'],
  ]);
  const { fleet } = loadFleet(repo.dir);
  assert.deepEqual(fleet.sectors, [{ name: 'integration' }, { name: 'production', revision: PIN }]);
  assert.ok(MAIN);
});

test('config/ generation: each cluster gets what its committed argocd-bootstrap ApplicationSet generates against its identity — charts at main, or at the pin', async () => {
  const plan = await planOf(repo.dir);
  const apps = (name: string) => plan.clusters.find((c) => c.name === name)!.apps.map((a) => [a.name, a.source.targetRevision]);
  assert.deepEqual(apps('integration-eu-central-1-mc02'), [['argocd', 'main'], ['hypershift', 'main'], ['maestro-agent', 'main']]);
  assert.deepEqual(apps('production-ap-south-1-mc01'), [['argocd', PIN], ['hypershift', PIN]]);
  assert.deepEqual(apps('production-ap-south-1-regional'), [['api-gateway', PIN], ['argocd', PIN]]);
});

test('config/ generation: the identity Secret has render.py\'s cluster id, the ECS task\'s Terraform annotations as placeholders, and the root Application reads argocd-bootstrap-<type>', async () => {
  const out = join(repo.dir, '..', `${repo.dir.split('/').pop()}-out`);
  try {
    const r = await cli(['render', '--repo', repo.dir, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const boot = join(out, 'production-ap-south-1-mc01', 'bootstrap');
    const secret = jsYaml.load(readFileSync(join(boot, '30-cluster-identity.yaml'), 'utf8')) as Record<string, any>;
    assert.equal(secret.metadata.labels.cluster_name, 'prod-mc01');
    assert.equal(secret.metadata.labels.region_deployment, 'ap-south-1');
    assert.equal(secret.metadata.annotations.git_repo, ROSA_ORIGIN);
    assert.match(secret.metadata.annotations.thanos_kms_key_arn, /terraform output thanos_kms_key_arn/);
    const root = jsYaml.load(readFileSync(join(boot, '90-root-application.yaml'), 'utf8')) as Record<string, any>;
    assert.equal(root.spec.source.path, 'deploy/production/ap-south-1/argocd-bootstrap-management-cluster');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('config/ generation: a render that does not follow the merged revision is reported at the region file', async () => {
  const stale = configDirRepo((files) => {
    Object.assign(files, deploy('production', 'ap-south-1', 'live'));
  });
  try {
    const r = await cli(['validate', '--repo', stale.dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; file?: string; message: string }[] }).findings;
    const s = findings.filter((f) => f.code === 'rosa-stale-render');
    // One per rendered ApplicationSet file: each cluster type has its own in this generation.
    assert.deepEqual(s.map((f) => f.file), ['config/production/ap-south-1.yaml', 'config/production/ap-south-1.yaml'], JSON.stringify(findings, null, 1));
    assert.deepEqual(s.map((f) => /argocd-bootstrap-(\w+)-cluster\/applicationset\.yaml reads charts at \{\{ \.metadata\.annotations\.git_revision \}\}/.exec(f.message)?.[1]).sort(), ['management', 'regional']);
  } finally {
    rmSync(stale.dir, { recursive: true, force: true });
  }
});
