// A FleetDiff for the HTML report tests, made by the diff stage itself (diffCluster on two sides
// of each cluster, so Secret redaction is the stage's), with a cluster of every status and, on
// purpose, hostile text in every place a repository controls: fleet, cluster, app, object and
// file names, values, notes and finding messages.
import { diffCluster } from '../../src/diff/index.js';
import type { ClusterSide, FleetDiff } from '../../src/diff/index.js';
import type { K8sObject } from '../../src/model/k8s.js';

/** Markup that would run or load something if it reached the page unescaped. */
export const HOSTILE = `"><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'`;

/** The Secret values on the two sides; neither may reach the page. */
export const SECRET_VALUES = ['s3cr3t-before', 's3cr3t-after', 'czNjcjN0LWJlZm9yZQ==', 'bm90LXNlY3JldA=='];

const app = (name: string, extra: Record<string, unknown> = {}): K8sObject => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: { name, namespace: 'openshift-gitops', annotations: { 'argocd.argoproj.io/sync-wave': '5' } },
  spec: { project: 'platform', source: { repoURL: 'https://git.example.com/fleet.git', targetRevision: 'main', path: `components/${name}` }, destination: { namespace: name }, ...extra },
});

const secret = (token: string, data: string): K8sObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'repo-creds', namespace: 'openshift-gitops' }, stringData: { token }, data: { password: data } });

function side(name: string, objects: K8sObject[], opts: Partial<ClusterSide> = {}): ClusterSide {
  return {
    name,
    sector: 'canary',
    revision: 'main',
    objects: objects.map((object) => ({ file: `${name}/apps/${object.metadata.name}.yaml`, object })),
    apps: objects.filter((o) => o.kind === 'Application').map((o) => ({ name: o.metadata.name, wave: 5, needs: [] })),
    bootstrap: [{ file: `${name}/bootstrap/00-namespace.yaml` }],
    ...opts,
  };
}

const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

/** hub changed (fields, wave, leaves with a Secret), edge-1 unchanged, edge-2 added, old-1 removed, prod-1 pinned, a hostile-named one changed, dark-1 unreadable. */
export function richDiff(): FleetDiff {
  const hubFrom = side('hub', [app('operator'), app('monitoring'), secret('s3cr3t-before', 'czNjcjN0LWJlZm9yZQ==')], {
    leaves: new Map([['operator', [cm('operator-settings', { level: 'info', mode: 'a' }), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { token: 's3cr3t-before' } }]]]),
  });
  const hubTo = side('hub', [app('operator', { syncPolicy: { automated: {} } }), app('monitoring'), secret('s3cr3t-after', 'bm90LXNlY3JldA==')], {
    apps: [{ name: 'operator', wave: 5, needs: [] }, { name: 'monitoring', wave: 20, needs: ['operator'] }],
    leaves: new Map([['operator', [cm('operator-settings', { level: 'debug', mode: 'a' }), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, stringData: { token: 's3cr3t-after' } }]]]),
  });
  hubTo.objects[0]!.object.spec = { ...(hubTo.objects[0]!.object.spec as object), source: { repoURL: 'https://git.example.com/fleet.git', targetRevision: HOSTILE, path: 'components/operator' } };
  const hub = diffCluster(hubFrom, hubTo);
  const edge1 = diffCluster(side('edge-1', [app('operator')], { leaves: new Map() }), side('edge-1', [app('operator')], { leaves: new Map() }));
  const edge2 = diffCluster(undefined, side('edge-2', [app('operator'), app('ingress')], { leaves: new Map() }));
  const old = diffCluster(side('old-1', [app('operator')], { leaves: new Map() }), undefined);
  const prod = { ...diffCluster(side('prod-1', [app('operator')], { leaves: new Map() }), side('prod-1', [app('operator')], { leaves: new Map() })), status: 'pinned' as const, sector: 'production', pending: { added: 0, changed: 1, removed: 0 }, pendingOrder: 1 };
  const hostileName = `evil${HOSTILE}`;
  const evil = diffCluster(side(hostileName, [app('operator')], { leaves: new Map() }), side(hostileName, [app('operator'), app(`x${HOSTILE}`)], { leaves: new Map() }));
  evil.notes.push(`note ${HOSTILE}`);
  const dark = { ...diffCluster(side('dark-1', [], { leaves: new Map() }), side('dark-1', [], { leaves: new Map() })), status: 'unreadable' as const, notes: ['revision abc123 is not in the local repository: git fetch it'] };
  return {
    fleet: `lab${HOSTILE}`,
    layout: 'native',
    from: { revision: 'origin/main', commit: '0123456789abcdef0123456789abcdef01234567' },
    to: { revision: 'working tree', commit: null },
    leaves: true,
    clusters: [hub, edge1, edge2, old, prod, evil, dark],
    findings: {
      introduced: [{ severity: 'error', code: 'unknown-need', message: `app "config" needs ${HOSTILE}`, file: 'groups/base/group.yaml', line: 14, path: 'spec.apps.config.needs[1]', hint: 'name an app of the cluster' }],
      fixed: [{ severity: 'warning', code: 'kustomization-missing-header', message: 'has no apiVersion and no kind', file: 'components/config/kustomization.yaml', line: 1 }],
    },
  };
}
