/**
 * Phase 2 of seed 000 end to end: the Kubernetes API test server plays the cluster (its Argo CD
 * reports Synced/Healthy with comparedTo.source), a real `git http-backend` on loopback plays the
 * internal Gitea (Basic auth required), and the CLI pushes with real git.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { simulatedCluster, storeIndex, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server.js';
import { FLEET_URL, MIRROR_URL, PUSH_PASSWORD, PUSH_USER, mirrorFleetRepo, seedPushSecret, setMirrorContent } from '../support/mirror-fleet.js';
import { CRD_SETS, type RequestMatch } from '../support/kube-server/index.js';

const NS = 'openshift-gitops';

interface World {
  c: SimulatedCluster;
  git: GitHttpServer;
  dir: string;
  commit: string;
  env: Record<string, string | undefined>;
}

async function world(extraCrds: string[] = []): Promise<World> {
  const git = await startGitHttpServer({ username: PUSH_USER, password: PUSH_PASSWORD });
  const pushURL = git.createRepo('platform/fleet.git');
  const { dir, commit } = await mirrorFleetRepo(pushURL);
  const c = await simulatedCluster({ repo: dir, cluster: 'hub', extraCrds });
  setMirrorContent(c.server, dir);
  seedPushSecret(c.server);
  return { c, git, dir, commit, env: { KUBECONFIG: c.kubeconfig, HOME: c.dir, PATH: process.env.PATH } };
}

function app(w: World, name: string): any {
  return w.c.server.object('argoproj.io/v1alpha1', 'Application', name, NS);
}

function assertSwitched(w: World): void {
  const root = app(w, 'root-applications');
  assert.equal(root.spec.source.repoURL, MIRROR_URL);
  assert.equal(root.spec.source.path, 'rendered/hub/phase-2');
  assert.equal(root.status.sync.status, 'Synced');
  assert.equal(root.status.sync.comparedTo.source.repoURL, MIRROR_URL);
  for (const name of ['gitea', 'config', 'gitops-self']) {
    const a = app(w, name);
    assert.equal(a.spec.source.repoURL, MIRROR_URL, `${name} reads the mirror`);
    assert.equal(a.status.sync.status, 'Synced');
    assert.equal(a.status.sync.comparedTo.source.repoURL, MIRROR_URL, `${name} was compared to the mirror`);
  }
  // A chart from a Helm repository is not the fleet repository: it stays where it is.
  assert.equal(app(w, 'metrics').spec.source.repoURL, 'https://charts.example.com');
  const project = w.c.server.object('argoproj.io/v1alpha1', 'AppProject', 'platform', NS) as any;
  assert.deepEqual(project.spec.sourceRepos, [FLEET_URL, MIRROR_URL]);
}

function argoObjects(w: World): string {
  return JSON.stringify([...storeIndex(w.c.server)].filter(([ref]) => /^(Application|AppProject)\//.test(ref)).sort());
}

describe('fleetplan bootstrap with an internal Git service (phase 2)', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.c.close();
    await w?.git.close();
    if (w) removeTree(w.dir);
    w = undefined;
  });

  test('converges: the mirror holds the cluster\'s commit and every generated source reads it', async () => {
    w = await world();
    const r = await cli(['bootstrap', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^hub: converged in /m);
    assert.match(r.stdout, /^hub: phase 2 converged in /m);
    assert.equal(w.git.branch('platform/fleet.git', 'main'), w.commit, 'the pushed commit is the cluster\'s revision');
    assertSwitched(w);
    // git asked for credentials after a 401 and got them from the Secret (through GIT_ASKPASS).
    assert.ok(w.git.requests.some((q) => !q.authorized), 'the server asked for credentials');
    assert.ok(w.git.requests.some((q) => q.authorized && q.path.endsWith('/git-receive-pack')), 'an authorized push');
  });

  test('a second run pushes nothing and changes nothing', async () => {
    w = await world();
    const first = await cli(['bootstrap', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s'], process.cwd(), w.env);
    assert.equal(first.code, 0, first.stderr);
    const before = argoObjects(w);
    const pushes = w.git.requests.filter((q) => q.path.endsWith('/git-receive-pack')).length;
    const again = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '30s'], process.cwd(), w.env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /phase 2 converged in .*: 0 created, 0 configured, \d+ unchanged/);
    assert.match(again.stdout, new RegExp(`mirror branch at ${w.commit} \\(unchanged\\)`));
    assert.equal(w.git.requests.filter((q) => q.path.endsWith('/git-receive-pack')).length, pushes, 'no push');
    assert.equal(argoObjects(w), before, 'no Application or AppProject written');
  });

  // Each kill point, what the cluster and the mirror hold then, and what the rerun must finish.
  const receivePacks = (x: World) => x.git.requests.filter((q) => q.path.endsWith('/git-receive-pack')).length;
  const kills: Array<{ when: string; setup?: (w: World) => void; at: (w: World) => Promise<unknown>; then?: (w: World) => void }> = [
    { when: 'the push began (phase 1 done)', at: (x) => x.git.nextRequest() },
    {
      when: 'the push was done, before the switch',
      // The switch's first request (the dry run of the AppProject) hangs: the run is held right after the push.
      setup: (x) => x.c.server.faults.hangNext(1, { verb: 'apply', resource: 'appprojects', when: () => receivePacks(x) > 0 }),
      at: (x) => x.c.server.waitForRequest({ verb: 'apply', resource: 'appprojects', when: () => receivePacks(x) > 0 }),
      then: (x) => {
        assert.equal(x.git.branch('platform/fleet.git', 'main'), x.commit, 'pushed');
        assert.equal(app(x, 'root-applications').spec.source.repoURL, FLEET_URL, 'not switched yet');
        x.c.server.thaw();
      },
    },
    { when: 'the switch began', at: (x) => x.c.server.waitForRequest({ verb: 'apply', resource: 'appprojects' } satisfies RequestMatch) },
    {
      when: 'the switch was done, before Argo CD reported Synced from the mirror',
      // From phase 2 on (the mirror's first request), Argo CD does not get to config: the run waits in mirror-synced.
      at: async (x) => {
        await x.git.nextRequest();
        x.c.server.controllers.hold({ kind: 'Application', namespace: NS, name: 'config' });
        await x.c.server.waitFor(() => ['config', 'gitops-self'].every((n) => app(x, n)?.spec?.source?.repoURL === MIRROR_URL));
      },
      then: (x) => {
        assert.equal(app(x, 'config').status.sync.comparedTo.source.repoURL, FLEET_URL, 'not Synced from the mirror yet');
        x.c.server.controllers.release({ kind: 'Application', namespace: NS, name: 'config' });
      },
    },
  ];
  for (const k of kills) {
    test(`killed when ${k.when}, a rerun completes`, async () => {
      w = await world();
      k.setup?.(w);
      const child = spawn(process.execPath, ['dist/src/cli/main.js', 'bootstrap', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s'], { env: { ...process.env, ...w.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<{ signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (_code, signal) => resolve({ signal })));
      const began = k.at(w).then(() => child.kill('SIGKILL'));
      const first = await Promise.race([exited, began.then(() => exited)]);
      assert.equal(first.signal, 'SIGKILL', `the first run was killed (it ended by itself otherwise):\n${output}`);
      k.then?.(w);
      const rerun = await cli(['bootstrap', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s'], process.cwd(), w.env);
      assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout);
      assert.match(rerun.stdout, /^hub: phase 2 converged in /m);
      assert.equal(w.git.branch('platform/fleet.git', 'main'), w.commit);
      assertSwitched(w);
    });
  }

  test('on a cluster without Argo CD, phase 2 stops at once saying so', async () => {
    w = await world();
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '1s'], process.cwd(), w.env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Application \(argoproj.io\/v1alpha1\) is not served on cluster hub: is it bootstrapped \(phase 1\)\?/);
  });

  test('a missing mirror app times out naming it', async () => {
    w = await world([...CRD_SETS.argocd]);
    // Nothing bootstrapped: no Application deploys the Git service.
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '2s'], process.cwd(), w.env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out after 2\.0s in stage "mirror-ready"/);
    assert.match(r.stderr, /Application\/openshift-gitops\/gitea: Application does not exist yet/);
    assert.equal(w.git.requests.length, 0, 'nothing pushed');
  });

  test('an unhealthy mirror app times out with its health', async () => {
    w = await world([...CRD_SETS.argocd]);
    w.c.server.controllers.hold({ kind: 'Application', name: 'gitea', namespace: NS });
    w.c.server.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, {
      apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'gitea', namespace: NS },
      spec: { project: 'platform', source: { repoURL: FLEET_URL, path: 'components/gitea', targetRevision: 'main' }, destination: { server: 'https://kubernetes.default.svc', namespace: 'gitea' } },
      status: { sync: { status: 'Synced' }, health: { status: 'Degraded', message: 'gitea-0: CrashLoopBackOff' } },
    }]);
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '2s'], process.cwd(), w.env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /in stage "mirror-ready"/);
    assert.match(r.stderr, /Application\/openshift-gitops\/gitea: Synced, Degraded: gitea-0: CrashLoopBackOff/);
    assert.equal(w.git.requests.length, 0, 'nothing pushed');
  });
});
