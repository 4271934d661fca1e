/**
 * `plan -e/--environment ENV` (and bootstrap's) on a helmfile + Flux repository, as helmfile
 * treats `--environment`: `default` runs every helmfile; another environment runs the helmfiles
 * that define it (own, bases, or the parent that includes them) and skips the others; none at all
 * is helmfile's "no releases found" error (docs/adr/0262-helmfile-dry-run-and-environments.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/api/fleet.js';
import { planHelmfileBootstrap } from '../../src/order/helmfile-plan.js';
import { writeTree, removeTree, cli } from '../support/fleet-fixture.js';
import { helmfileRepo } from '../support/helmfile-repo.js';

function planOf(files: Record<string, string>, environment?: string) {
  const dir = writeTree(files);
  try {
    return planHelmfileBootstrap(loadFleet(dir).fleet, 'cluster', environment);
  } finally {
    removeTree(dir);
  }
}

function releaseValues(plan: ReturnType<typeof planHelmfileBootstrap>, id: string): unknown {
  const s = plan.steps.find((x) => x.kind === 'release' && x.release.id === id);
  return s?.kind === 'release' ? s.release.values : undefined;
}

test('plan -e infra: the environment chooses the values files, and the plan says where it is defined', async () => {
  const dir = writeTree(helmfileRepo());
  try {
    const r = await cli(['plan', '--repo', dir, '-e', 'infra']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /note: helmfile environment infra: bootstrap\/environments\.yaml:2 \(values clusters\/infra\/values\.yaml: read into the helmfile templates\)/);
    assert.match(r.stdout, /helm upgrade --install podinfo bootstrap\/charts\/podinfo -n apps \(bootstrap\/clusters\/infra\/podinfo\.yaml, inline values\)/);
    const apps = await cli(['plan', '--repo', dir, '--environment', 'apps']);
    assert.match(apps.stdout, /\(bootstrap\/clusters\/apps\/podinfo\.yaml, inline values\)/);
  } finally {
    removeTree(dir);
  }
});

test('plan without -e is helmfile\'s default environment, which every helmfile runs in', () => {
  const plan = planOf(helmfileRepo());
  assert.equal(plan.environment, 'default');
  assert.deepEqual(plan.problems, []);
  assert.deepEqual(plan.notes, ["helmfile environment default (helmfile's default)"]);
  assert.deepEqual(releaseValues(plan, 'apps/podinfo'), [{ file: 'bootstrap/clusters/default/podinfo.yaml' }, { inline: { replicas: 2 } }]);
});

test('an environment no helmfile defines is helmfile\'s "no releases found" error, and bootstrap cannot run', () => {
  const plan = planOf(helmfileRepo(), 'staging');
  assert.deepEqual(plan.steps.filter((s) => s.kind !== 'flux'), []);
  assert.equal(plan.problems.length, 1);
  assert.match(plan.problems[0]!, /^no releases found that matches specified selector\(\) and environment\(staging\), in any helmfile \(helmfile's error\): the helmfiles define apps, infra/);
});

test('a helmfile that does not define the environment is skipped, as helmfile skips it, and the plan says so', () => {
  const files = helmfileRepo();
  files['bootstrap/helmfile.d/00-crds.yaml'] = files['bootstrap/helmfile.d/00-crds.yaml']!.replace('bases: [../environments.yaml]\n', '');
  const plan = planOf(files, 'infra');
  assert.deepEqual(plan.problems, []);
  assert.equal(plan.steps.find((s) => s.kind === 'crds'), undefined);
  assert.ok(plan.steps.some((s) => s.name === 'release apps/podinfo'));
  assert.match(plan.notes.join('\n'), /bootstrap\/helmfile\.d\/00-crds\.yaml does not define environment infra: helmfile skips its releases \(widgets\/widgets\)/);
  // In the default environment it runs.
  assert.ok(planOf(files).steps.some((s) => s.kind === 'crds'));
});

test('a sub-helmfile runs in the environments of the helmfile that includes it (helmfiles:)', () => {
  const files = helmfileRepo();
  for (const f of ['bootstrap/helmfile.d/00-crds.yaml', 'bootstrap/helmfile.d/01-apps.yaml']) files[f] = files[f]!.replace('bases: [../environments.yaml]\n', '');
  files['bootstrap/helmfile.yaml'] = 'environments:\n  infra: {}\nhelmfiles:\n  - path: helmfile.d/01-apps.yaml\n';
  const plan = planOf(files, 'infra');
  assert.deepEqual(plan.problems, []);
  assert.ok(plan.steps.some((s) => s.name === 'release apps/podinfo'));
  assert.equal(plan.steps.find((s) => s.kind === 'crds'), undefined, '00-crds.yaml is not included by the parent and defines no environment');
});

test('plan -e on a fleet without a helmfile is a usage error', async () => {
  const r = await cli(['plan', '--repo', 'test/fixtures/flux', '-e', 'infra']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--environment is the helmfile environment: it applies to helmfile \+ Flux repositories only/);
});
