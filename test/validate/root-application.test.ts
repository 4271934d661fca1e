/**
 * The root Application managing itself (gitops-standards: `root-applications` in a cluster's
 * values, reading the cluster folder the `.bootstrap/root-application.yaml` root reads) is the
 * root, not a duplicate; a root-named app that reads something else is a duplicate, placed at the
 * key of the file that defines it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../support/fleet-fixture.js';
import { copyTree, removeDir, tempDir } from '../helpers/tools.js';

const FIXTURE = 'test/fixtures/gitops-standards';
const ROOT = [
  'apiVersion: argoproj.io/v1alpha1',
  'kind: Application',
  'metadata:',
  '  name: root-applications',
  '  namespace: openshift-gitops',
  'spec:',
  '  project: default',
  '  source:',
  '    repoURL: ${gitops_repo}',
  '    targetRevision: HEAD',
  '    path: clusters/${cluster_name}',
  '  destination:',
  '    server: https://kubernetes.default.svc',
  '    namespace: openshift-gitops',
  '',
].join('\n');

async function findings(path: string, rootFile = '.bootstrap/root-application.yaml'): Promise<{ code: string; file: string; line?: number; path?: string; message: string }[]> {
  const dir = tempDir('root-app');
  const repo = join(dir, 'repo');
  try {
    copyTree(FIXTURE, repo);
    mkdirSync(join(repo, rootFile, '..'), { recursive: true });
    writeFileSync(join(repo, rootFile), ROOT);
    const values = join(repo, 'clusters/hub/values.yaml');
    writeFileSync(values, readFileSync(values, 'utf8').replace('applications:\n', `applications:\n  root-applications:\n    destination:\n      namespace: openshift-gitops\n    source:\n      path: ${path}\n`));
    const r = await cli(['validate', '--repo', repo, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: { code: string; file: string; line?: number; path?: string; message: string }[] }).findings;
  } finally {
    removeDir(dir);
  }
}

test('a root Application in the cluster values that reads the cluster folder, as the bootstrap root does, is the root managing itself', async () => {
  const f = await findings('clusters/hub');
  assert.deepEqual(f.filter((x) => x.code === 'duplicate-app'), []);
});

test('a root-named app that reads another folder is a duplicate, placed at its key in the values file', async () => {
  const f = (await findings('components/cert-operator')).filter((x) => x.code === 'duplicate-app');
  assert.equal(f.length, 1, JSON.stringify(f));
  assert.equal(f[0]!.file, 'clusters/hub/values.yaml');
  assert.equal(f[0]!.path, 'applications.root-applications');
  assert.equal(typeof f[0]!.line, 'number');
  assert.match(f[0]!.message, /reads clusters\/hub or rendered\/hub\) but reads components\/cert-operator/);
});

test('a bootstrap root kept in a folder of .bootstrap (one per kind of cluster) is the repository\'s root too: its self-managing app is no duplicate', async () => {
  const f = await findings('clusters/hub', '.bootstrap/agent/spoke-root-application.yaml');
  assert.deepEqual(f.filter((x) => x.code === 'duplicate-app'), []);
});
