/**
 * Killed at each stage, a rerun converges: the built CLI runs as a child process against the
 * test server and is killed (SIGKILL) the moment the server sees the stage's first request;
 * then `fleetplan bootstrap` runs again. No object is created twice, nothing applied is lost.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cli } from '../support/fleet-fixture.js';
import { LAB, simulatedCluster, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import type { RequestMatch } from '../support/kube-server/index.js';

const stages: Array<{ stage: string; when: RequestMatch }> = [
  { stage: 'namespaces', when: { verb: 'apply', resource: 'namespaces' } },
  { stage: 'gitops-operator', when: { verb: 'apply', resource: 'subscriptions' } },
  { stage: 'cluster-config', when: { verb: 'apply', resource: 'configmaps' } },
  { stage: 'argocd', when: { verb: 'apply', resource: 'argocds', when: (r) => !r.query.includes('dryRun') } },
  { stage: 'root-application', when: { verb: 'apply', resource: 'applications' } },
  { stage: 'the waves', when: { verb: 'watch', resource: 'applications' } },
];

describe('bootstrap killed mid-run, then run again', () => {
  let c: SimulatedCluster | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });

  for (const s of stages) {
    test(`killed when ${s.stage} began: a rerun converges with no object created twice`, async () => {
      c = await simulatedCluster();
      const created = new Map<string, number>();
      c.server.store.subscribe((ev) => {
        if (ev.type !== 'ADDED') return;
        const o = ev.object;
        const ref = `${String(o.kind)}/${o.metadata.namespace ?? ''}/${String(o.metadata.name)}`;
        created.set(ref, (created.get(ref) ?? 0) + 1);
      });
      const env = { ...process.env, KUBECONFIG: c.kubeconfig, HOME: c.dir };
      const child = spawn(process.execPath, ['dist/src/cli/main.js', 'bootstrap', '--repo', LAB, '--cluster', 'hub', '--timeout', '60s'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      const began = c.server.waitForRequest(s.when).then(() => child.kill('SIGKILL'));
      const first = await Promise.race([exited, began.then(() => exited)]);
      assert.equal(first.signal, 'SIGKILL', `the first run was killed (it ended by itself otherwise):\n${output}`);

      const rerun = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--timeout', '60s'], process.cwd(), { KUBECONFIG: c.kubeconfig, HOME: c.dir });
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.match(rerun.stdout, /^hub: converged in /m);
      const twice = [...created].filter(([, n]) => n > 1).map(([ref]) => ref);
      assert.deepEqual(twice, [], 'objects created twice');
      for (const [apiVersion, kind, name, ns] of [
        ['v1', 'Namespace', 'openshift-gitops'], ['operators.coreos.com/v1alpha1', 'Subscription', 'openshift-gitops-operator', 'openshift-operators'],
        ['v1', 'ConfigMap', 'environment-variables', 'openshift-gitops'], ['v1', 'Secret', 'cluster-hub', 'openshift-gitops'],
        ['argoproj.io/v1beta1', 'ArgoCD', 'openshift-gitops', 'openshift-gitops'], ['argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops'],
      ] as const) {
        assert.ok(c.server.object(apiVersion, kind, name, ns), `${kind} ${name} is there`);
      }
    });
  }
});
