/** Kubernetes objects as fleetplan generates, renders and applies them, and the keys that name them. */

/** A Kubernetes object: apiVersion, kind, metadata with a name, and any other fields. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  [key: string]: unknown;
};

/** Names one object. `namespace` is absent for cluster-scoped kinds. */
export interface ObjectKey {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export function keyOf(o: K8sObject): ObjectKey {
  const k: ObjectKey = { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name };
  if (o.metadata.namespace !== undefined) k.namespace = o.metadata.namespace;
  return k;
}

export function refOf(k: ObjectKey): string {
  return k.namespace ? `${k.kind}/${k.namespace}/${k.name}` : `${k.kind}/${k.name}`;
}

/**
 * A Flux Kustomization (kustomize.toolkit.fluxcd.io): its leaves are built and substituted by
 * kustomize-controller with its own post-build variables, never with fleetplan's cluster variables.
 */
export function isFluxKustomization(v: unknown): v is Record<string, unknown> & { kind: 'Kustomization'; apiVersion: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === 'Kustomization' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/');
}

/**
 * The remote cluster a Kustomization's or HelmRelease's `spec.kubeConfig` names, as
 * `<namespace>/<name>` of its Secret (or `<namespace>/configmap:<name>` of a ConfigMap, Flux's
 * workload identity); undefined without kubeConfig, null when it names neither.
 */
export function kubeConfigTarget(spec: Record<string, unknown>, namespace: string): string | undefined | null {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(spec.kubeConfig)) return undefined;
  const kc = spec.kubeConfig;
  if (isObj(kc.secretRef) && typeof kc.secretRef.name === 'string') return `${namespace}/${kc.secretRef.name}`;
  if (isObj(kc.configMapRef) && typeof kc.configMapRef.name === 'string') return `${namespace}/configmap:${kc.configMapRef.name}`;
  return null;
}
