/**
 * Phase 2 (issue #15 part 2, ADRs 0236 and 0264): it waits through watches, not by polling; it has
 * a dry run and a --no-wait; it switches Argo CD's own Application (gitops-self) with the fleet's.
 * The Kubernetes API test server plays the cluster and its Argo CD, a real `git http-backend` on
 * loopback the internal Git service.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { simulatedCluster, storeIndex, type SimulatedCluster } from '../support/bootstrap-cluster.js';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server.js';
import { FLEET_URL, MIRROR_URL, PUSH_PASSWORD, PUSH_USER, bootstrapPhaseOne, mirrorFleetRepo, seedPushSecret, setMirrorContent } from '../support/mirror-fleet.js';

const NS = 'openshift-gitops';

interface World {
  c: SimulatedCluster;
  git: GitHttpServer;
  dir: string;
  commit: string;
  pushURL: string;
  env: Record<string, string | undefined>;
}

async function world(): Promise<World> {
  const git = await startGitHttpServer({ username: PUSH_USER, password: PUSH_PASSWORD });
  const pushURL = git.createRepo('platform/fleet.git');
  const { dir, commit } = await mirrorFleetRepo(pushURL);
  const c = await simulatedCluster({ repo: dir, cluster: 'hub' });
  setMirrorContent(c.server, dir);
  seedPushSecret(c.server);
  return { c, git, dir, commit, pushURL, env: { KUBECONFIG: c.kubeconfig, HOME: c.dir, PATH: process.env.PATH } };
}

function app(w: World, name: string): any {
  return w.c.server.object('argoproj.io/v1alpha1', 'Application', name, NS);
}

function argoObjects(w: World): string {
  return JSON.stringify([...storeIndex(w.c.server)].filter(([ref]) => /^(Application|AppProject)\//.test(ref)).sort());
}

const pushes = (w: World) => w.git.requests.filter((q) => q.path.endsWith('/git-receive-pack')).length;

describe('phase 2 waits through watches', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.c.close();
    await w?.git.close();
    if (w) removeTree(w.dir);
    w = undefined;
  });

  test('converges with the server\'s watch; no Application is read by GET while it waits', async () => {
    w = await world();
    await bootstrapPhaseOne(w.pushURL, w.env);
    const server = w.c.server;
    // Argo CD does not get to config after the switch (held): phase 2 has to wait for it.
    const config = { kind: 'Application', namespace: NS, name: 'config' };
    server.controllers.hold(config);
    let lastSwitch = Infinity;
    const off = server.onRequest((r) => {
      if (r.verb === 'apply' && r.resource === 'applications' && !r.query.includes('dryRun')) lastSwitch = r.seq;
    });
    const run = cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s', '-o', 'json'], process.cwd(), w.env);
    let finished = false;
    void run.then(() => (finished = true));
    // The run is waiting in mirror-synced: the other Applications are Synced from the mirror, config is not.
    await server.waitFor(() => lastSwitch !== Infinity && ['root-applications', 'gitea', 'gitops-self'].every((n) => app(w!, n)?.status?.sync?.comparedTo?.source?.repoURL === MIRROR_URL));
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(finished, false, `phase 2 waits for config, but ended: ${finished ? JSON.stringify(await run) : ''}`);
    server.controllers.release(config);
    const r = await run;
    off();
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; stage?: string; ref?: string; result?: { outcome: string } });
    assert.equal(events.at(-1)?.type, 'done');
    assert.equal(events.at(-1)?.result?.outcome, 'converged');
    assert.ok(events.some((e) => e.type === 'ready' && e.stage === 'mirror-synced' && e.ref === 'Application/openshift-gitops/config'));
    const after = server.requests({}).filter((q) => q.seq > lastSwitch && q.resource === 'applications');
    assert.deepEqual(after.filter((q) => q.verb === 'get').map((q) => q.path), [], 'no GET of an Application after the switch: the wait reads the watch');
    // One watch of the Applications serves the whole run (it may reconnect, but does not multiply).
    const watches = server.requests({ verb: 'watch', resource: 'applications' });
    assert.ok(watches.length >= 1 && watches.length <= 3, `watches of Applications: ${watches.length}`);
    // The whole run reads each Application it switches once (the switch's dry run compares it), no more.
    const gets = server.requests({ verb: 'get', resource: 'applications' }).filter((q) => q.seq > (watches[0]?.seq ?? 0));
    assert.ok(gets.length <= 6, `GETs of Applications during phase 2: ${gets.length} (${gets.map((g) => g.name).join(', ')})`);
  });

  test('gitops-self is switched by fleetplan (same field manager) and awaited Synced from the mirror', async () => {
    w = await world();
    await bootstrapPhaseOne(w.pushURL, w.env);
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--timeout', '60s', '-o', 'json'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; stage?: string; ref?: string; action?: string; reason?: string });
    const ref = 'Application/openshift-gitops/gitops-self';
    const change = events.find((e) => e.type === 'change' && e.stage === 'mirror-switch' && e.ref === ref);
    assert.equal(change?.action, 'configured');
    assert.match(change?.reason ?? '', new RegExp(`repoURL ${FLEET_URL} -> ${MIRROR_URL}`));
    assert.ok(events.some((e) => e.type === 'ready' && e.stage === 'mirror-synced' && e.ref === ref), 'awaited Synced from the mirror');
    const self = app(w, 'gitops-self');
    assert.equal(self.spec.source.repoURL, MIRROR_URL);
    assert.equal(self.status.sync.comparedTo.source.repoURL, MIRROR_URL);
    const owners = (self.metadata.managedFields as Array<{ manager: string; fieldsV1?: unknown }>).filter((m) => m.manager === 'fleetplan' && JSON.stringify(m.fieldsV1).includes('"f:repoURL"'));
    assert.equal(owners.length, 1, 'fleetplan owns spec.source.repoURL, as for the fleet\'s Applications');
  });
});

describe('phase 2 --dry-run and --no-wait', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.c.close();
    await w?.git.close();
    if (w) removeTree(w.dir);
    w = undefined;
  });

  test('mirror --dry-run prints the push, each switch with its repoURL change, and what it would await; pushes and writes nothing', async () => {
    w = await world();
    await bootstrapPhaseOne(w.pushURL, w.env);
    const before = argoObjects(w);
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--dry-run'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^hub: phase 2 dry run done in .*: 1 created, 5 configured, 0 unchanged/m);
    assert.match(r.stdout, new RegExp(`would push ${w.commit} \\(revision main\\) to ${w.pushURL}, branch main \\(the branch now: absent\\)`));
    assert.match(r.stdout, new RegExp(`configured +Application/openshift-gitops/root-applications +\\(repoURL ${FLEET_URL} -> ${MIRROR_URL}, path rendered/hub -> rendered/hub/phase-2\\)`));
    for (const name of ['gitea', 'config', 'gitops-self']) {
      assert.match(r.stdout, new RegExp(`configured +Application/openshift-gitops/${name} +\\(repoURL ${FLEET_URL} -> ${MIRROR_URL}\\)`));
    }
    assert.match(r.stdout, new RegExp(`configured +AppProject/openshift-gitops/platform +\\(sourceRepos \\+ ${MIRROR_URL}\\)`));
    assert.match(r.stdout, /not awaited \(dry run\): would wait for\n/);
    assert.match(r.stdout, new RegExp(`Application config Synced from ${MIRROR_URL}  \\(now: Synced, compared to ${FLEET_URL} \\(not ${MIRROR_URL} yet\\)\\)`));
    assert.equal(pushes(w), 0, 'nothing pushed');
    assert.equal(w.git.branch('platform/fleet.git', 'main'), undefined);
    assert.equal(argoObjects(w), before, 'no Application or AppProject written');
  });

  test('bootstrap --dry-run on a bare cluster also dry-runs phase 2, saying what it cannot know yet', async () => {
    w = await world();
    const r = await cli(['bootstrap', '--repo', w.dir, '--cluster', 'hub', '--dry-run'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^hub: dry run done/m);
    assert.match(r.stdout, /^hub: phase 2 dry run done/m);
    assert.match(r.stdout, new RegExp(`would push ${w.commit} \\(revision main\\) to ${w.pushURL}, branch main \\(the branch now: unknown: the push credentials cannot be read yet \\(Application gitea Synced and Healthy: Argo CD is not installed yet\\)\\)`));
    assert.match(r.stdout, /skipped +Application\/openshift-gitops\/root-applications +\(dry run: Application \(argoproj\.io\/v1alpha1\) is not served yet; phase 1 installs Argo CD\)/);
    assert.match(r.stdout, /Application gitops-self Synced from .*\(now: Argo CD is not installed yet\)/);
    assert.equal(w.git.requests.length, 0, 'the mirror is not even read');
  });

  test('mirror --no-wait pushes and switches, and returns without waiting for Argo CD', async () => {
    w = await world();
    await bootstrapPhaseOne(w.pushURL, w.env);
    // Argo CD would never report config Synced from the mirror: a waiting run could not end.
    w.c.server.controllers.hold({ kind: 'Application', namespace: NS, name: 'config' });
    const r = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--no-wait', '--timeout', '60s'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^hub: phase 2 applied \(not waiting for Argo CD to sync from the mirror: --no-wait\)/m);
    assert.match(r.stdout, new RegExp(`mirror branch at ${w.commit} \\(pushed\\)`));
    assert.match(r.stdout, /not awaited \(--no-wait\): would wait for\n/);
    assert.match(r.stdout, /Application config Synced from .*\(now: Synced, compared to https:\/\/git\.example\.com\/platform\/fleet\.git/);
    assert.equal(w.git.branch('platform/fleet.git', 'main'), w.commit);
    assert.equal(app(w, 'config').spec.source.repoURL, MIRROR_URL, 'switched');
    assert.equal(app(w, 'root-applications').spec.source.path, 'rendered/hub/phase-2');
  });

  test('mirror --no-wait does not wait for the Git service either: not ready, it fails saying what is missing', async () => {
    w = await world();
    // The Git service never becomes healthy here (in a real cluster it comes with a later wave).
    w.c.server.controllers.hold({ kind: 'Application', namespace: NS, name: 'gitea' });
    const r = await cli(['bootstrap', '--repo', w.dir, '--cluster', 'hub', '--no-wait', '--timeout', '60s'], process.cwd(), w.env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stderr, /hub: phase 2 not started \(--no-wait\): the internal Git service of hub is not ready, and --no-wait does not wait for it: Application gitea Synced and Healthy \(now: /);
    assert.equal(pushes(w), 0);
    const m = await cli(['mirror', '--repo', w.dir, '--cluster', 'hub', '--no-wait'], process.cwd(), w.env);
    assert.equal(m.code, 1);
    assert.match(m.stderr, /is not ready, and --no-wait does not wait for it/);
  });
});
