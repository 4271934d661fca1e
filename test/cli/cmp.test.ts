import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { runCli } from '../../src/cli/run.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

const REPO = resolve('test/fixtures/leaves/repo');

async function cmp(args: string[], dir: string, env: Record<string, string>) {
  const { kubectl, helm } = requireTools();
  const home = tempDir('cmp');
  let stdout = '';
  let stderr = '';
  try {
    const code = await runCli(['cmp', ...args], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: { ...toolEnv(home), FLEETPLAN_KUSTOMIZE: kubectl, FLEETPLAN_HELM: helm, ...env },
      cwd: resolve(REPO, dir),
    });
    return { code, stdout, stderr };
  } finally {
    removeDir(home);
  }
}

const argo = { ARGOCD_APP_NAME: 'web-c7', ARGOCD_APP_NAMESPACE: 'openshift-gitops', ARGOCD_APP_SOURCE_PATH: 'apps/web', ARGOCD_APP_REVISION: 'abc123' };

test('discover prints the kustomization file of a kustomize source directory', async () => {
  assert.deepEqual(await cmp(['discover'], 'apps/web', argo), { code: 0, stdout: 'kustomization.yaml\n', stderr: '' });
});

test('discover prints nothing (and exits 0) elsewhere, which Argo CD reads as no match', async () => {
  assert.deepEqual(await cmp(['discover'], 'charts/tiny', argo), { code: 0, stdout: '', stderr: '' });
});

test('generate substitutes only declared variables from ARGOCD_ENV_ and leaves plain $VAR alone', async () => {
  const r = await cmp(['generate', '--variable', 'CLUSTER_NAME', '--variable', 'BASE_DOMAIN'], 'apps/web', {
    ...argo,
    CLUSTER_NAME: 'not-this-one',
    ARGOCD_ENV_CLUSTER_NAME: 'c7',
    ARGOCD_ENV_BASE_DOMAIN: 'example.net',
  });
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /cluster: c7\n/);
  assert.match(r.stdout, /domain: apps\.c7\.example\.net\n/);
  assert.match(r.stdout, /region: eu-west-1\n/);
  assert.match(r.stdout, /shell: echo \$HOME \$\{NOT_A_VARIABLE\}\n/);
  assert.match(r.stdout, /value: https:\/\/web\.apps\.c7\.example\.net\n/);
  assert.doesNotMatch(r.stdout, /not-this-one/);
  assert.equal(r.stdout.split('\n---\n').length, 4);
});

test('generate accepts a comma-separated declaration and builds helmCharts through Helm 3', async () => {
  const r = await cmp(['generate', '--variable', 'CLUSTER_NAME,BASE_DOMAIN'], 'apps/chart', { ...argo, ARGOCD_APP_SOURCE_PATH: 'apps/chart', ARGOCD_ENV_CLUSTER_NAME: 'c8' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /cluster: c8\n\s+message: from-kustomize/);
});

const failures: { name: string; args: string[]; dir: string; env: Record<string, string>; code: number; stderr: RegExp[] }[] = [
  {
    name: 'generate fails on an undeclared variable, naming it and the file that uses it',
    args: ['generate', '--variable', 'CLUSTER_NAME'],
    dir: 'apps/web',
    env: { ...argo, ARGOCD_ENV_CLUSTER_NAME: 'c7', ARGOCD_ENV_BASE_DOMAIN: 'example.net' },
    code: 2,
    stderr: [
      /^fleetplan cmp: components\/labels\/cluster-info\.yaml:7:32: undefined variable \$\{BASE_DOMAIN\} in ConfigMap\/web\/cluster-info \(build output line \d+\) for application web-c7/,
      /BASE_DOMAIN is not declared \(declared: CLUSTER_NAME\): add `--variable BASE_DOMAIN`/,
    ],
  },
  {
    name: 'generate fails on a declared variable without an ARGOCD_ENV_ value, saying where to set it',
    args: ['generate', '--variable', 'CLUSTER_NAME', '--variable', 'BASE_DOMAIN'],
    dir: 'apps/web',
    env: { ...argo, ARGOCD_ENV_CLUSTER_NAME: 'c7', BASE_DOMAIN: 'from-the-environment' },
    code: 2,
    stderr: [/undefined variable \$\{BASE_DOMAIN\}/, /BASE_DOMAIN is declared but ARGOCD_ENV_BASE_DOMAIN is not set: add BASE_DOMAIN to the environment-variables ConfigMap/],
  },
  {
    name: 'generate reports kustomize\'s own message when the build fails',
    args: ['generate'],
    dir: 'apps/broken',
    env: { ...argo, ARGOCD_APP_SOURCE_PATH: 'apps/broken' },
    code: 1,
    stderr: [/^fleetplan cmp: kustomize build of apps\/broken failed: .*does-not-exist\.yaml/],
  },
  {
    name: 'generate refuses a directory without a kustomization',
    args: ['generate'],
    dir: 'charts/tiny',
    env: { ...argo, ARGOCD_APP_SOURCE_PATH: 'charts/tiny' },
    code: 2,
    stderr: [/no kustomization\.yaml, kustomization\.yml or Kustomization in charts\/tiny/],
  },
  {
    name: 'rejects a declared name that cannot be a variable',
    args: ['generate', '--variable', 'NOT-A-NAME'],
    dir: 'apps/web',
    env: argo,
    code: 2,
    stderr: [/"NOT-A-NAME" is not a variable name/],
  },
  {
    name: 'rejects an unknown subcommand',
    args: ['init'],
    dir: 'apps/web',
    env: argo,
    code: 2,
    stderr: [/unknown subcommand "init"/],
  },
];

for (const c of failures) {
  test(c.name, async () => {
    const r = await cmp(c.args, c.dir, c.env);
    assert.equal(r.stdout, '');
    assert.equal(r.code, c.code, r.stderr);
    for (const re of c.stderr) assert.match(r.stderr, re);
  });
}
