/**
 * Stage 3, generate (bootstrap runner, ADR 0239): the hub-side objects that bootstrap one
 * provisioned spoke from inside the hub's network, with `gitops.bootstrapRunner`:
 *
 *   job     ServiceAccount, Role + RoleBinding (namespace of the spoke), ClusterRole +
 *           ClusterRoleBinding (its ManagedCluster only), and a Job running
 *           `fleetplan bootstrap --cluster <spoke>` with the hub's in-cluster credentials (ADR 0238)
 *   tekton  the same ServiceAccount and RBAC, a Task (wait for the ManagedCluster to be Available
 *           with kubectl wait, then fleetplan bootstrap), a Pipeline running it, and the spoke's
 *           PipelineRun
 *
 * Everything lives in the spoke's provisioning namespace on the hub (`<spoke>`, where Hive keeps
 * the ClusterDeployment and its admin kubeconfig Secret), as the seed's per-cluster pipelines
 * did; the objects join the spoke's provisioning app (src/generate/provision/index.ts).
 *
 * `fleetplan bootstrap --cluster <spoke>` run against the hub already waits for the
 * ClusterDeployment to be installed and the ManagedCluster to be Available, reads the admin
 * kubeconfig from the Secret the ClusterDeployment names, then bootstraps the spoke: the runner
 * only gives it the image, the repository at the spoke's revision, credentials and time.
 * Cluster API (capi-eks) spokes have no ClusterDeployment: the kubeconfig Secret Cluster API
 * writes (`<spoke>-kubeconfig`, key `value`) is mounted and passed as --spoke-kubeconfig; the pod
 * starts once that Secret exists. Pure.
 */
import type { Fleet } from '../model/fleet.js';
import type { K8sObject } from '../model/k8s.js';
import type { ResolvedCluster } from '../model/resolved.js';

export const RUNNER_NAME = 'fleetplan-bootstrap';
/** The entrypoint script of the image (Containerfile): clones the repository, then runs fleetplan. */
export const RUNNER_ENTRYPOINT = 'fleetplan-bootstrap-job';
/** Where the Job's and Task's clone of the repository and HOME live (an emptyDir). */
export const RUNNER_WORKSPACE = '/workspace';
const SPOKE_KUBECONFIG_DIR = '/var/run/fleetplan/spoke-kubeconfig';

const LABELS = (spoke: string) => ({
  'app.kubernetes.io/name': RUNNER_NAME,
  'app.kubernetes.io/managed-by': 'fleetplan',
  'fleetplan.io/cluster': spoke,
});

export interface RunnerTarget {
  fleet: Fleet;
  spoke: ResolvedCluster;
  /** Hive (hive-aws, agent) keeps a ClusterDeployment and its admin kubeconfig Secret; capi-eks does not. */
  hive: boolean;
}

/** The runner's objects for one spoke, in apply order; [] without `gitops.bootstrapRunner`. */
export function bootstrapRunnerObjects(t: RunnerTarget): K8sObject[] {
  const runner = t.fleet.bootstrapRunner;
  if (!runner) return [];
  const rbac = runnerRbac(t);
  return runner.type === 'job' ? [...rbac, runnerJob(t)] : [...rbac, ...tektonObjects(t)];
}

/**
 * Least privilege on the hub: read the spoke's ManagedCluster (by name) and, for Hive, the
 * ClusterDeployments and Secrets of the spoke's own namespace (the admin kubeconfig Secret's name
 * is known only once Hive has installed the cluster). Nothing is written on the hub.
 */
function runnerRbac({ spoke, hive }: RunnerTarget): K8sObject[] {
  const ns = spoke.name;
  const labels = LABELS(spoke.name);
  const subject = { kind: 'ServiceAccount', name: RUNNER_NAME, namespace: ns };
  const clusterName = `${RUNNER_NAME}-${spoke.name}`;
  const out: K8sObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: RUNNER_NAME, namespace: ns, labels } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: clusterName, labels },
      rules: [{ apiGroups: ['cluster.open-cluster-management.io'], resources: ['managedclusters'], resourceNames: [spoke.name], verbs: ['get', 'list', 'watch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: clusterName, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterName },
      subjects: [subject],
    },
  ];
  if (hive) {
    out.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: RUNNER_NAME, namespace: ns, labels },
        rules: [
          { apiGroups: ['hive.openshift.io'], resources: ['clusterdeployments'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: RUNNER_NAME, namespace: ns, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: RUNNER_NAME },
        subjects: [subject],
      },
    );
  }
  return out;
}

const CONTAINER_SECURITY = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

/** `fleetplan bootstrap` arguments of the runner (after the entrypoint). */
function bootstrapArgs(cluster: string, timeout: string, hive: boolean): string[] {
  return ['bootstrap', '--cluster', cluster, '--timeout', timeout, ...(hive ? [] : ['--spoke-kubeconfig', `${SPOKE_KUBECONFIG_DIR}/value`])];
}

function volumes(spoke: string, hive: boolean): { volumes: object[]; mounts: object[] } {
  const volumes: object[] = [{ name: 'workspace', emptyDir: {} }, { name: 'tmp', emptyDir: {} }];
  const mounts: object[] = [{ name: 'workspace', mountPath: RUNNER_WORKSPACE }, { name: 'tmp', mountPath: '/tmp' }];
  if (!hive) {
    volumes.push({ name: 'spoke-kubeconfig', secret: { secretName: `${spoke}-kubeconfig`, items: [{ key: 'value', path: 'value' }] } });
    mounts.push({ name: 'spoke-kubeconfig', mountPath: SPOKE_KUBECONFIG_DIR, readOnly: true });
  }
  return { volumes, mounts };
}

function runnerJob({ fleet, spoke, hive }: RunnerTarget): K8sObject {
  const runner = fleet.bootstrapRunner!;
  const labels = LABELS(spoke.name);
  const { volumes: vols, mounts } = volumes(spoke.name, hive);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: RUNNER_NAME,
      namespace: spoke.name,
      labels,
      // A Job's pod template cannot be changed in place: Argo CD recreates the Job when Git changes
      // it (bootstrap is idempotent, so a rerun only converges again).
      annotations: { 'argocd.argoproj.io/sync-options': 'Force=true,Replace=true' },
    },
    spec: {
      backoffLimit: 3,
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: RUNNER_NAME,
          restartPolicy: 'Never',
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [{
            name: 'bootstrap',
            image: runner.image,
            command: [RUNNER_ENTRYPOINT],
            args: bootstrapArgs(spoke.name, runner.timeout, hive),
            env: [
              { name: 'FLEETPLAN_REPO_URL', value: fleet.repoURL },
              { name: 'FLEETPLAN_REVISION', value: spoke.revision },
              { name: 'HOME', value: RUNNER_WORKSPACE },
            ],
            securityContext: CONTAINER_SECURITY,
            volumeMounts: mounts,
          }],
          volumes: vols,
        },
      },
    },
  };
}

/** The script of the Task's first step: the gate the seed's pipelines polled for. */
export const WAIT_AVAILABLE_SCRIPT = `#!/bin/sh
set -eu
# kubectl wait fails at once on an object that does not exist yet: wait for the ManagedCluster first.
until kubectl get managedcluster "$CLUSTER" >/dev/null 2>&1; do
  echo "waiting for ManagedCluster $CLUSTER to exist"
  sleep 15
done
kubectl wait "managedcluster/$CLUSTER" --for=condition=ManagedClusterConditionAvailable --timeout="$TIMEOUT"
`;

function tektonObjects({ fleet, spoke, hive }: RunnerTarget): K8sObject[] {
  const runner = fleet.bootstrapRunner!;
  const ns = spoke.name;
  const labels = LABELS(spoke.name);
  const { volumes: vols, mounts } = volumes(spoke.name, hive);
  const params = ['cluster', 'repo-url', 'revision', 'timeout'];
  // Parameters reach the scripts as environment variables, never spliced into script text.
  const env = [
    { name: 'CLUSTER', value: '$(params.cluster)' },
    { name: 'TIMEOUT', value: '$(params.timeout)' },
  ];
  const task: K8sObject = {
    apiVersion: 'tekton.dev/v1',
    kind: 'Task',
    metadata: { name: RUNNER_NAME, namespace: ns, labels },
    spec: {
      description: 'Bootstraps a spoke with fleetplan once its ManagedCluster is Available.',
      params: [
        { name: 'cluster', type: 'string', description: 'The spoke (fleet cluster name, ManagedCluster name).' },
        { name: 'repo-url', type: 'string', description: 'The fleet repository.' },
        { name: 'revision', type: 'string', description: 'The revision the spoke tracks.' },
        { name: 'timeout', type: 'string', default: runner.timeout, description: 'How long to wait for availability, then for the bootstrap.' },
      ],
      stepTemplate: {
        env: [{ name: 'HOME', value: RUNNER_WORKSPACE }],
        securityContext: CONTAINER_SECURITY,
        volumeMounts: mounts,
      },
      steps: [
        { name: 'wait-available', image: runner.image, env, script: WAIT_AVAILABLE_SCRIPT },
        {
          name: 'bootstrap',
          image: runner.image,
          command: [RUNNER_ENTRYPOINT],
          args: ['bootstrap', '--cluster', '$(params.cluster)', '--timeout', '$(params.timeout)', ...(hive ? [] : ['--spoke-kubeconfig', `${SPOKE_KUBECONFIG_DIR}/value`])],
          env: [
            { name: 'FLEETPLAN_REPO_URL', value: '$(params.repo-url)' },
            { name: 'FLEETPLAN_REVISION', value: '$(params.revision)' },
          ],
        },
      ],
      volumes: vols,
    },
  };
  const pipeline: K8sObject = {
    apiVersion: 'tekton.dev/v1',
    kind: 'Pipeline',
    metadata: { name: RUNNER_NAME, namespace: ns, labels },
    spec: {
      params: params.map((name) => ({ name, type: 'string' })),
      tasks: [{
        name: 'bootstrap',
        taskRef: { kind: 'Task', name: RUNNER_NAME },
        params: params.map((name) => ({ name, value: `$(params.${name})` })),
      }],
    },
  };
  const run: K8sObject = {
    apiVersion: 'tekton.dev/v1',
    kind: 'PipelineRun',
    metadata: {
      name: `${RUNNER_NAME}-${spoke.name}`,
      namespace: ns,
      labels,
      annotations: { 'argocd.argoproj.io/sync-options': 'Force=true,Replace=true' },
    },
    spec: {
      pipelineRef: { name: RUNNER_NAME },
      params: [
        { name: 'cluster', value: spoke.name },
        { name: 'repo-url', value: fleet.repoURL },
        { name: 'revision', value: spoke.revision },
        { name: 'timeout', value: runner.timeout },
      ],
      taskRunTemplate: { serviceAccountName: RUNNER_NAME },
      // Waiting for the install and bootstrapping each take up to `timeout`.
      timeouts: { pipeline: doubled(runner.timeout) },
    },
  };
  return [task, pipeline, run];
}

/** `2h` → `4h0m0s`: the PipelineRun's limit covers the wait step and the bootstrap step. */
function doubled(timeout: string): string {
  let ms = 0;
  for (const m of timeout.matchAll(/(\d+)(ms|h|m|s)/g)) ms += Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[m[2] as 'ms' | 's' | 'm' | 'h'];
  const s = Math.ceil((2 * ms) / 1000);
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${s % 60}s`;
}
