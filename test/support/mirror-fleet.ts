/**
 * A fleet with an internal Git service (gitops.mirror) as a real git repository: the hub's apps
 * are `gitea` (deploys the Git service), `config` (reads the fleet repository) and `metrics` (a
 * chart from a Helm repository, which phase 2 leaves alone). The phase-2 tree is rendered and
 * committed, as a user does before `fleetplan mirror`.
 */
import { execFileSync } from 'node:child_process';
import { loadFleet } from '../../src/index.js';
import { renderCluster } from '../../src/render/fleet.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';
import { ROOT_APPLICATION } from '../../src/model/constants.js';
import { cli, removeTree, writeTree } from './fleet-fixture.js';
import type { KubeServer, Obj } from './kube-server/index.js';

export const MIRROR_URL = 'http://gitea-http.gitea.svc.cluster.local:3000/platform/fleet.git';
export const FLEET_URL = 'https://git.example.com/platform/fleet.git';
export const PUSH_USER = 'fleetplan-push';
export const PUSH_PASSWORD = 's3cret-push-token';

export function mirrorFleetFiles(pushURL: string, mirror = ''): Record<string, string> {
  return {
    'fleet.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: m
spec:
  repoURL: ${FLEET_URL}
  revision: main
  platform: openshift
  gitops:
    namespace: openshift-gitops
${mirror || `    mirror:
      url: ${MIRROR_URL}
      pushURL: ${pushURL}
      app: gitea
      credentials:
        secretRef:
          namespace: gitea
          name: fleet-push
`}  defaults:
    project: platform
    syncPolicy:
      automated:
        prune: true
        selfHeal: true
  projects:
    platform:
      description: the platform
`,
    'clusters/hub/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: hub
spec:
  role: hub
  apps:
    gitea:
      path: components/gitea
      namespace: gitea
      wave: 1
    config:
      path: components/config
      namespace: config
      wave: 2
      needs: [gitea]
    metrics:
      chart: metrics
      repoURL: https://charts.example.com
      targetRevision: 1.2.3
      namespace: metrics
      wave: 2
`,
    'components/gitea/kustomization.yaml': 'resources: []\n',
    'components/config/kustomization.yaml': 'resources: []\n',
  };
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' }).trim();
}

/** The fleet written, its phase-2 tree rendered (render --phase 2 --out rendered) and committed on main. */
export async function mirrorFleetRepo(pushURL: string): Promise<{ dir: string; commit: string }> {
  const dir = writeTree(mirrorFleetFiles(pushURL));
  const r = await cli(['render', '--repo', dir, '--phase', '2', '--out', `${dir}/rendered`]);
  if (r.code !== 0) throw new Error(`render --phase 2 failed: ${r.stderr}`);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fleet with its phase-2 tree');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}

/** What the mirror holds for the root Application (its phase-2 apps and projects), as the test server's Argo CD reads it. */
export function setMirrorContent(server: KubeServer, repo: string, namespace = 'openshift-gitops'): Obj[] {
  const { fleet } = loadFleet(repo);
  const resolved = resolveFleet(fleet, { clusters: ['hub'] });
  const files = renderCluster(resolved, resolved.clusters[0]!, undefined, { phase: 2 });
  const objects = files.filter((f) => /^hub\/phase-2\/(apps|projects)\/[^/]+\.yaml$/.test(f.path)).flatMap((f) => f.objects) as Obj[];
  server.controllers.setManifests(namespace, ROOT_APPLICATION, objects, MIRROR_URL);
  return objects;
}

/** The Secret with the push credentials, created on the cluster by the user (never in Git). */
export function seedPushSecret(server: KubeServer): void {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  server.seed([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gitea' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'fleet-push', namespace: 'gitea' }, type: 'Opaque', data: { username: b64(PUSH_USER), password: b64(PUSH_PASSWORD) } },
  ]);
}

/**
 * Phase 1 only, as `bootstrap` leaves a cluster before phase 2: the same fleet without
 * gitops.mirror (its phase-1 objects are byte-identical: render without --phase does not depend
 * on the mirror) bootstrapped onto the cluster.
 */
export async function bootstrapPhaseOne(pushURL: string, env: Record<string, string | undefined>): Promise<void> {
  const dir = writeTree(mirrorFleetFiles(pushURL, '    # no mirror\n'));
  try {
    const r = await cli(['bootstrap', '--repo', dir, '--cluster', 'hub', '--timeout', '60s'], process.cwd(), env);
    if (r.code !== 0) throw new Error(`phase 1 failed: ${r.stderr}${r.stdout}`);
  } finally {
    removeTree(dir);
  }
}
