/**
 * Defaulting, as the real API server does it for the built-in fields the objects bootstrap writes
 * use (docs/adr/0258): the generated defaulters of Kubernetes 1.33 (`pkg/apis/core/v1/defaults.go`,
 * `pkg/apis/apps/v1/defaults.go` and the `+default` markers of the OpenAPI). Two moments, as in the
 * server:
 *
 * - **key fields before server-side apply merges** (`defaultKeyFields`): structured-merge-diff
 *   keys a list element whose key field is missing by the schema's default
 *   (`getAssociativeKeyDefault`), so a container port applied without `protocol` is the live
 *   `{containerPort: 8080, protocol: TCP}` element, not a new one;
 * - **the whole object after every write** (`applyDefaults`): container `imagePullPolicy`,
 *   `terminationMessagePath/Policy`, port `protocol`, pod `restartPolicy`/`dnsPolicy`/…,
 *   Deployment `replicas`/`strategy`/…, Service `type`/`sessionAffinity`/port `protocol` and
 *   `targetPort`. Defaulted fields belong to no manager (only what an apply sends is owned).
 */
import type { Obj } from './types.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a kind keeps its PodSpec (as list-keys.ts). */
const POD_SPEC_AT: Record<string, readonly string[]> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

function at(obj: Obj, path: readonly string[]): Obj | undefined {
  let cur: unknown = obj;
  for (const s of path) cur = isObj(cur) ? cur[s] : undefined;
  return isObj(cur) ? cur : undefined;
}

const setDefault = (o: Obj, k: string, v: unknown) => {
  if (o[k] === undefined) o[k] = v;
};

function ports(list: unknown): Obj[] {
  return Array.isArray(list) ? list.filter(isObj) : [];
}

function containersOf(pod: Obj): Obj[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => (Array.isArray(pod[k]) ? (pod[k] as unknown[]).filter(isObj) : []));
}

/** Key fields with a schema default: `protocol` of container and Service ports (`+default="TCP"`). */
export function defaultKeyFields(kind: string, obj: Obj): void {
  const podAt = POD_SPEC_AT[kind];
  const pod = podAt ? at(obj, podAt) : undefined;
  if (pod) for (const c of containersOf(pod)) for (const p of ports(c.ports)) setDefault(p, 'protocol', 'TCP');
  if (kind === 'Service') for (const p of ports(at(obj, ['spec'])?.ports)) setDefault(p, 'protocol', 'TCP');
}

/** `SetDefaults_Container`: Always for `:latest` or no tag, IfNotPresent otherwise. */
function pullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.lastIndexOf(':');
  return colon < 0 || last.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultPodSpec(pod: Obj): void {
  setDefault(pod, 'restartPolicy', 'Always');
  setDefault(pod, 'terminationGracePeriodSeconds', 30);
  setDefault(pod, 'dnsPolicy', 'ClusterFirst');
  setDefault(pod, 'securityContext', {});
  setDefault(pod, 'schedulerName', 'default-scheduler');
  for (const c of containersOf(pod)) {
    setDefault(c, 'imagePullPolicy', pullPolicy(c.image));
    setDefault(c, 'terminationMessagePath', '/dev/termination-log');
    setDefault(c, 'terminationMessagePolicy', 'File');
    for (const p of ports(c.ports)) setDefault(p, 'protocol', 'TCP');
  }
}

/** Defaults the object in place (built-in kinds; custom resources are left as they are). */
export function applyDefaults(kind: string, obj: Obj): Obj {
  const podAt = POD_SPEC_AT[kind];
  const pod = podAt ? at(obj, podAt) : undefined;
  if (pod) defaultPodSpec(pod);
  const spec = at(obj, ['spec']);
  if (kind === 'Deployment' && spec) {
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'progressDeadlineSeconds', 600);
    if (spec.strategy === undefined) spec.strategy = { type: 'RollingUpdate' };
    if (isObj(spec.strategy) && (spec.strategy.type ?? 'RollingUpdate') === 'RollingUpdate') {
      setDefault(spec.strategy, 'type', 'RollingUpdate');
      setDefault(spec.strategy, 'rollingUpdate', {});
      if (isObj(spec.strategy.rollingUpdate)) {
        setDefault(spec.strategy.rollingUpdate, 'maxUnavailable', '25%');
        setDefault(spec.strategy.rollingUpdate, 'maxSurge', '25%');
      }
    }
  }
  if (kind === 'StatefulSet' && spec) {
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
  }
  if (kind === 'Service' && spec) {
    setDefault(spec, 'type', 'ClusterIP');
    if (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer') setDefault(spec, 'sessionAffinity', 'None');
    for (const p of ports(spec.ports)) {
      setDefault(p, 'protocol', 'TCP');
      setDefault(p, 'targetPort', p.port);
    }
  }
  return obj;
}
