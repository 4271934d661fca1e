/**
 * gitops-standards substitutes the cluster's variables into the leaves because its bootstrap
 * installs the `kustomize build | envsub` plugin (and the environment-variables ConfigMap that
 * feeds it). A repository of that layout whose bootstrap installs no plugin (shane-snyder's
 * homelab: an ArgoCD without sidecars, no ConfigMap) has Argo CD build each kustomization as it
 * is: a `${attempt_counter}` in a Job's shell script stays as written. render --leaves reported it
 * as an undefined variable and did not build the app (ADR 0392).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { cli, removeTree } from '../support/fleet-fixture.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/gitops-standards', import.meta.url));

const JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: wait-for-it
  namespace: cert-operator
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: wait
          image: registry.example.org/tools:1
          command: ["/bin/sh", "-c"]
          args:
            - |
              attempt_counter=0
              until [ \${attempt_counter} -ge 5 ]; do attempt_counter=$((attempt_counter+1)); sleep 1; done
`;

/** The fixture with a Job holding a shell variable in cert-operator; `plugin: false` removes the bootstrap's plugin environment. */
function repo(plugin: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-gs-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const comp = join(dir, 'components/cert-operator');
  writeFileSync(join(comp, 'job.yaml'), JOB);
  const k = join(comp, 'kustomization.yaml');
  writeFileSync(k, readFileSync(k, 'utf8').replace(/resources:\n/, 'resources:\n  - job.yaml\n'));
  if (!plugin) {
    rmSync(join(dir, '.bootstrap'), { recursive: true });
    mkdirSync(join(dir, '.bootstrap'));
    writeFileSync(join(dir, '.bootstrap/argocd.yaml'), 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: openshift-gitops\n  namespace: openshift-gitops\nspec:\n  kustomizeBuildOptions: --enable-helm\n');
  }
  // A clone of the repository the Applications read, as a user's is.
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://git.example.org/platform/standards-fleet.git']);
  return dir;
}

function jobText(out: string): string | undefined {
  const dir = join(out, 'hub/manifests/cert-operator');
  const f = readdirSync(dir).find((x) => /job/i.test(x));
  return f ? readFileSync(join(dir, f), 'utf8') : undefined;
}

test('no plugin in the bootstrap: render --leaves keeps ${attempt_counter} of a shell script as written, and the plan says why', async () => {
  const dir = repo(false);
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', join(dir, 'out'), '--cluster', 'hub']);
    assert.doesNotMatch(r.stderr, /undefined variable/, r.stderr);
    assert.equal(r.code, 0, r.stderr);
    assert.match(jobText(join(dir, 'out')) ?? '', /until \[ \$\{attempt_counter\} -ge 5 \]/);
    const p = await cli(['plan', '--repo', dir, '--cluster', 'hub']);
    assert.match(p.stdout, /no config-management plugin in the repository's bootstrap \(\.bootstrap\/\): Argo CD builds the leaves with kustomize and substitutes no variables/);
  } finally {
    removeTree(dir);
  }
});

test('the plugin environment in the bootstrap: the same script is substituted, and the undefined variable is reported', async () => {
  const dir = repo(true);
  try {
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', join(dir, 'out'), '--cluster', 'hub']);
    assert.match(r.stderr, /undefined variables? \$\{attempt_counter\}/, r.stderr);
    assert.equal(r.code, 1);
  } finally {
    removeTree(dir);
  }
});
