/**
 * The resource types the server knows: the built-in kinds a GitOps bootstrap touches, plus one
 * per served version of every Established CustomResourceDefinition.
 */
import type { Obj, ResourceType } from './types.js';

function builtin(group: string, version: string, kind: string, plural: string, namespaced: boolean, extra: Partial<ResourceType> = {}): ResourceType {
  return {
    group, versions: [version], kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), namespaced,
    shortNames: [], statusSubresource: false, generation: false, builtin: true, ...extra,
  };
}

export const BUILTIN_TYPES: readonly ResourceType[] = [
  builtin('', 'v1', 'Namespace', 'namespaces', false, { shortNames: ['ns'], statusSubresource: true }),
  builtin('', 'v1', 'ConfigMap', 'configmaps', true, { shortNames: ['cm'] }),
  builtin('', 'v1', 'Secret', 'secrets', true),
  builtin('', 'v1', 'ServiceAccount', 'serviceaccounts', true, { shortNames: ['sa'] }),
  builtin('', 'v1', 'Service', 'services', true, { shortNames: ['svc'], statusSubresource: true }),
  builtin('apps', 'v1', 'Deployment', 'deployments', true, { shortNames: ['deploy'], statusSubresource: true, generation: true }),
  builtin('apps', 'v1', 'StatefulSet', 'statefulsets', true, { shortNames: ['sts'], statusSubresource: true, generation: true }),
  builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  builtin('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true),
  builtin('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true),
  builtin('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, {
    shortNames: ['crd', 'crds'], statusSubresource: true, generation: true,
  }),
];

export const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function isEstablished(crd: Obj): boolean {
  const conds: unknown = crd.status?.conditions;
  return Array.isArray(conds) && conds.some((c: Obj) => c?.type === 'Established' && c?.status === 'True');
}

/** The resource type a CRD defines (served versions only, storage version first). */
export function typeFromCrd(crd: Obj): ResourceType | undefined {
  const spec = crd.spec;
  if (!spec?.group || !spec?.names?.plural || !spec?.names?.kind || !Array.isArray(spec.versions)) return undefined;
  const served = (spec.versions as Obj[]).filter((v) => v.served !== false);
  if (served.length === 0) return undefined;
  served.sort((a, b) => Number(b.storage === true) - Number(a.storage === true));
  return {
    group: String(spec.group),
    versions: served.map((v) => String(v.name)),
    kind: String(spec.names.kind),
    listKind: String(spec.names.listKind ?? `${spec.names.kind}List`),
    plural: String(spec.names.plural),
    singular: String(spec.names.singular ?? String(spec.names.kind).toLowerCase()),
    namespaced: spec.scope !== 'Cluster',
    shortNames: Array.isArray(spec.names.shortNames) ? spec.names.shortNames.map(String) : [],
    statusSubresource: served.some((v) => v.subresources?.status !== undefined),
    generation: true,
    builtin: false,
  };
}

/** The APIResource entries discovery lists for one type (the resource and its status subresource). */
export function discoveryEntries(rt: ResourceType): Obj[] {
  const out: Obj[] = [{
    name: rt.plural, singularName: rt.singular, namespaced: rt.namespaced, kind: rt.kind, verbs: VERBS,
    ...(rt.shortNames.length ? { shortNames: rt.shortNames } : {}),
  }];
  if (rt.statusSubresource) {
    out.push({ name: `${rt.plural}/status`, singularName: '', namespaced: rt.namespaced, kind: rt.kind, verbs: ['get', 'patch', 'update'] });
  }
  return out;
}
