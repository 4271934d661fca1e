/**
 * Validated Patterns: the clusterGroup values of each planned cluster group (values-global.yaml
 * merged with values-<group>.yaml, as the clustergroup chart sees them) against the parts of the
 * chart's values contract fleetplan understands (ADR 0093): project and namespace references, the
 * group's name, the fields of applications, subscriptions and managed cluster groups. The
 * upstream JSON schema is not shipped; these checks name the field and what the chart does with it.
 * Missing local chart paths are the repository-hygiene rule's (`missing-path`).
 */
import type { Finding } from '../../model/finding.js';
import type { Fleet } from '../../model/fleet.js';
import { isPlainObject, getPath } from '../../model/merge.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { GroupValues } from './reader.js';
import { DEFAULT_OPERATOR_NAMESPACE, VP_GLOBAL_FILE, clusterGroupChart, entriesOf, groupValuesFile, namespaceEntries, projectNames, readGroupValues } from './reader.js';
import type { RuleDefinition } from '../../validate/engine.js';
import type { FindingDraft } from '../../validate/context.js';
import { place } from '../../validate/context.js';
import { parseYaml } from '../../yaml/index.js';

/** Keys of `clusterGroup` the chart's values contract allows (it refuses any other). */
export const CLUSTER_GROUP_KEYS = [
  'applications', 'argoCD', 'argoProjects', 'extraObjects', 'imperative', 'indexImages', 'isHubCluster', 'managedClusterGroups', 'name',
  'namespaces', 'nodes', 'operatorgroupExcludeTargetNS', 'operatorgroupExcludes', 'projects', 'scheduler', 'sharedValueFiles', 'subscriptions', 'targetCluster',
];
/** Keys of a managedClusterGroups entry the contract allows. */
export const MANAGED_GROUP_KEYS = ['acmlabels', 'clusterDeployments', 'clusterPools', 'clusterSelector', 'helmOverrides', 'name', 'targetRevision'];
const APP_STRINGS = ['name', 'namespace', 'argoProject', 'project', 'path', 'chart', 'chartVersion', 'repoURL', 'targetRevision'];
const APP_BOOLEANS = ['kustomize', 'disabled'];
const SUB_STRINGS = ['name', 'namespace', 'source', 'sourceNamespace', 'channel', 'csv'];
/**
 * Namespaces that exist on every OpenShift cluster of a pattern (the platform's, created by the
 * release payload's operators on every OpenShift 4 install; the GitOps operator's; and the chart's
 * own `imperative`): using them without declaring them is right.
 */
export const PLATFORM_NAMESPACES = new Set([
  'default', 'kube-public', 'kube-system', 'openshift', 'openshift-config', 'openshift-config-managed', 'openshift-console', 'openshift-gitops',
  'openshift-marketplace', 'openshift-monitoring', 'openshift-user-workload-monitoring', 'openshift-machine-api', 'openshift-machine-config-operator',
  'openshift-ingress', 'openshift-ingress-operator', 'openshift-image-registry', 'openshift-authentication', 'openshift-apiserver',
  'openshift-kube-apiserver', 'openshift-etcd', 'openshift-dns', 'openshift-network-operator', 'openshift-cluster-version',
  'openshift-cluster-node-tuning-operator', 'openshift-cloud-credential-operator', 'openshift-infra', 'openshift-node',
  DEFAULT_OPERATOR_NAMESPACE, 'imperative',
]);

const codes = {
  'vp-unknown-argo-project': {
    severity: 'error' as const,
    summary: 'application uses an Argo CD project the cluster group does not declare',
    help: 'The clustergroup chart creates an AppProject for each entry of clusterGroup.argoProjects; an Application naming another project is refused by Argo CD ("application references project ... which does not exist"). Add the project to argoProjects or fix argoProject.',
  },
  'vp-undeclared-namespace': {
    severity: 'warning' as const,
    summary: 'application or subscription namespace not declared in clusterGroup.namespaces',
    help: 'The clustergroup chart creates (with an OperatorGroup) only the namespaces listed in clusterGroup.namespaces, and its Applications do not create namespaces: syncing into another namespace fails unless something else creates it. Add it to namespaces.',
  },
  'vp-group-name-mismatch': {
    severity: 'error' as const,
    summary: 'clusterGroup.name differs from the group its values file is read for',
    help: 'The chart gives every Application the value file /values-<clusterGroup.name>.yaml and names namespaces after the group: a name that differs from values-<group>.yaml (or is missing, so the chart default "example" applies) makes the Applications read another file.',
  },
  'vp-missing-group-values': {
    // A warning, not an error: the clustergroup chart's Applications set ignoreMissingValueFiles, so
    // the group's clusters sync without failing; they only get nothing of their own (ADR 0307).
    severity: 'warning' as const,
    summary: 'managed cluster group without its values-<group>.yaml',
    help: 'ACM runs the clustergroup chart on the group\'s clusters with values-<group>.yaml; its Applications ignore a missing value file, so nothing fails, but the clusters get no applications of their own. Create the file or fix managedClusterGroups.<key>.name.',
  },
  'vp-values-unused': {
    severity: 'warning' as const,
    summary: 'a clusterGroup key that nothing reads: the repository\'s own clustergroup chart has no values schema',
    help: 'The operator\'s Application reads the repository\'s own common/clustergroup (no main.multiSourceConfig). A chart without values.schema.json does not refuse unknown keys: helm template renders, and a key no template of the repository reads does nothing (an older name of a setting, such as managedSites, or a typo). Rename it to the setting the chart reads, or remove it (ADR 0415).',
  },
  'vp-values-schema': {
    severity: 'error' as const,
    summary: 'clusterGroup values break the clustergroup chart\'s values contract',
    help: 'The chart validates its values against its JSON schema (helm refuses to render) or skips what it cannot use: unknown clusterGroup keys, entries without name, wrong types, project together with argoProject, installPlanApproval other than Manual or Automatic.',
  },
};

interface Raw {
  value: Record<string, unknown>;
  exists: boolean;
  /** The file does not parse (the reader reported it): nothing to check. */
  broken?: boolean;
}

function readRaw(fs: RepoFileSystem, file: string): Raw {
  if (!fs.exists(file) || fs.isDirectory(file)) return { value: {}, exists: false };
  try {
    const v = parseYaml(fs.readText(file), { schema: 'core' });
    return { value: isPlainObject(v) ? v : {}, exists: true };
  } catch {
    return { value: {}, exists: true, broken: true }; // the reader reported the syntax error
  }
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a map' : `${typeof v} ${JSON.stringify(v)}`;
}

export const validatedPatternsRule: RuleDefinition = {
  name: 'validated-patterns',
  codes,
  run(ctx) {
    const { fleet, fs } = ctx;
    if (fleet.layout !== 'validated-patterns') return [];
    const out: Finding[] = [];
    const global = readRaw(fs, VP_GLOBAL_FILE);
    const hub = fleet.clusters.find((c) => c.spec.role === 'hub');
    const chart = clusterGroupChart(fs, global.value);
    const published = !chart.local;
    const keys = published ? PUBLISHED_KEYS : ownChartKeys(fs, chart.version);
    for (const def of fleet.clusters) {
      const own = readRaw(fs, def.file);
      if (!own.exists || own.broken || global.broken) continue; // vp-missing-group-values or the syntax error says so
      const gv = readGroupValues(global.value, def.name, own.value, own.exists);
      out.push(...checkGroup(fleet, gv, own, global, def.name, published, keys, def.spec.role === 'spoke'));
    }
    // Managed cluster groups whose values file is missing (they are still planned, with no apps of their own).
    if (hub) {
      const hv = readGroupValues(global.value, hub.name, readRaw(fs, hub.file).value, true);
      for (const [key, g] of entriesOf(hv.clusterGroup.managedClusterGroups)) {
        if (!isPlainObject(g)) continue;
        const name = typeof g.name === 'string' ? g.name : typeof key === 'string' ? key : undefined;
        if (name === undefined || fs.exists(groupValuesFile(name))) continue;
        out.push(place(fleet, { file: hv.fileOf('managedClusterGroups', key), path: ['clusterGroup', 'managedClusterGroups', key, ...(g.name !== undefined ? ['name'] : [])] }, {
          severity: 'warning',
          code: 'vp-missing-group-values',
          message: `managed cluster group "${name}" has no ${groupValuesFile(name)}: its clusters get no applications of their own (the chart ignores the missing value file, so nothing fails)`,
          hint: `create ${groupValuesFile(name)} with clusterGroup.name: ${name}, or fix the name`,
          cluster: name,
        }));
      }
    }
    return out;
  },
};

/**
 * The clusterGroup keys of the chart the operator's Application reads. The published chart's
 * values.schema.json refuses any key but CLUSTER_GROUP_KEYS. The repository's own common/clustergroup
 * has its own contract (ADR 0415): its values.schema.json's ClusterGroup when that refuses other keys
 * (0.8.x knows externalClusters and hostedSite, not argoProjects), else none: helm template renders
 * any key, and one that no template of the repository reads does nothing.
 */
interface KeyContract {
  /** The keys the chart's schema allows; undefined when it refuses none. */
  allowed?: readonly string[];
  /** The chart, as the findings name it. */
  chart: string;
  /** Whether some chart template of the repository reads the key (for a chart that refuses none). */
  read?(key: string): boolean;
}

const PUBLISHED_KEYS: KeyContract = { allowed: CLUSTER_GROUP_KEYS, chart: 'the clustergroup chart' };

function ownChartKeys(fs: RepoFileSystem, version: string): KeyContract {
  const chart = `the repository's own chart common/clustergroup (version ${version})`;
  const schemaFile = 'common/clustergroup/values.schema.json';
  if (fs.exists(schemaFile)) {
    let cg: unknown;
    try {
      cg = getPath(JSON.parse(fs.readText(schemaFile)), ['definitions', 'ClusterGroup']);
    } catch {
      cg = undefined; // a schema helm cannot read fails the chart, and no key check says more
    }
    if (isPlainObject(cg) && cg.additionalProperties === false && isPlainObject(cg.properties)) return { allowed: Object.keys(cg.properties), chart };
  }
  let text: string | undefined;
  return {
    chart,
    read: (key) => {
      text ??= templateTexts(fs, '.', 0).join('\n');
      return new RegExp(`\\.${key.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b|"${key.replace(/[^A-Za-z0-9_]/g, '\\$&')}"`).test(text);
    },
  };
}

/** The texts of the files under every templates/ folder of the repository (not under dot folders). */
function templateTexts(fs: RepoFileSystem, dir: string, depth: number, inTemplates = false): string[] {
  if (depth > 6) return [];
  return fs.list(dir).flatMap((name) => {
    if (name.startsWith('.') || name === 'node_modules') return [];
    const path = dir === '.' ? name : `${dir}/${name}`;
    if (fs.isDirectory(path)) return templateTexts(fs, path, depth + 1, inTemplates || name === 'templates');
    return inTemplates ? [fs.readText(path)] : [];
  });
}

/**
 * `published`: the operator's Application reads the published clustergroup chart (0.9.x), not a copy in common/clustergroup.
 * `keys`: the clusterGroup keys that chart takes.
 * `managed`: a managed cluster group, whose clustergroup Application the hub's acm chart writes.
 */
function checkGroup(fleet: Fleet, gv: GroupValues, own: Raw, global: Raw, cluster: string, published: boolean, keys: KeyContract, managed: boolean): Finding[] {
  const out: Finding[] = [];
  const cg = gv.clusterGroup;
  const add = (file: string, path: (string | number)[], draft: Omit<FindingDraft, 'cluster'>) => out.push(place(fleet, { file, path: ['clusterGroup', ...path] }, { ...draft, cluster }));
  const schema = (file: string, path: (string | number)[], message: string, hint: string) => add(file, path, { severity: 'error', code: 'vp-values-schema', message, hint });

  // Unknown clusterGroup keys, in whichever file writes them.
  for (const [file, raw] of [[VP_GLOBAL_FILE, global.value], [gv.file, own.value]] as const) {
    const section = raw.clusterGroup;
    if (section === undefined || section === null) continue;
    if (!isPlainObject(section)) {
      schema(file, [], `clusterGroup is ${typeName(section)}, not a map`, 'write clusterGroup as a map of the group\'s settings');
      continue;
    }
    for (const k of Object.keys(section)) {
      if (keys.allowed) {
        if (!keys.allowed.includes(k)) {
          schema(file, [k], `clusterGroup.${k} is not a clusterGroup setting of ${keys.chart}${published ? '' : ': its values.schema.json refuses it'}`, `known settings: ${keys.allowed.join(', ')}`);
        }
      } else if (!CLUSTER_GROUP_KEYS.includes(k) && !keys.read!(k)) {
        add(file, [k], {
          severity: 'warning',
          code: 'vp-values-unused',
          message: `clusterGroup.${k} is read by no chart template of the repository: ${keys.chart}, which the operator's Application reads, has no values.schema.json, so helm template does not refuse it and the setting does nothing`,
          hint: `rename it to the setting the chart reads, or remove it (the published chart's settings: ${CLUSTER_GROUP_KEYS.join(', ')})`,
        });
      }
    }
  }

  // The group's name. A managed group's Application (acm chart, application-policies.yaml) passes
  // the parameter clusterGroup.name=<group> over the value files, so only the hub's file names it.
  const name = cg.name;
  if (name !== gv.group && !managed) {
    add(typeof own.value.clusterGroup === 'object' && getPath(own.value, ['clusterGroup', 'name']) !== undefined ? gv.file : getPath(global.value, ['clusterGroup', 'name']) !== undefined ? VP_GLOBAL_FILE : gv.file, name === undefined ? [] : ['name'], {
      severity: 'error',
      code: 'vp-group-name-mismatch',
      message: name === undefined
        ? `clusterGroup.name is not set for group "${gv.group}": the chart uses its default "example" and reads /values-example.yaml`
        : typeof name !== 'string'
          ? `clusterGroup.name is ${typeName(name)}, not the group's name "${gv.group}"`
          : `clusterGroup.name is "${name}" in the values of group "${gv.group}": the chart's Applications read /values-${name}.yaml, not ${gv.file}`,
      hint: `set clusterGroup.name: ${gv.group} in ${gv.file}`,
    });
  }

  // Sections that must be maps or lists.
  for (const k of ['applications', 'namespaces', 'subscriptions', 'managedClusterGroups', 'argoProjects', 'projects', 'nodes', 'indexImages']) {
    const v = cg[k];
    if (v === undefined || v === null || Array.isArray(v) || isPlainObject(v)) continue;
    schema(gv.fileOf(k), [k], `clusterGroup.${k} is ${typeName(v)}, not a map or a list`, `write ${k} as a map (name: settings) or a list`);
  }
  const shared = cg.sharedValueFiles;
  if (shared !== undefined && shared !== null) {
    if (!Array.isArray(shared)) schema(gv.fileOf('sharedValueFiles'), ['sharedValueFiles'], `clusterGroup.sharedValueFiles is ${typeName(shared)}, not a list`, 'list the value file paths');
    else shared.forEach((f, i) => {
      if (typeof f !== 'string') schema(gv.fileOf('sharedValueFiles'), ['sharedValueFiles', i], `clusterGroup.sharedValueFiles[${i}] is ${typeName(f)}, not a path`, 'write the value file path as a string');
    });
  }
  const projects = projectNames(cg);
  const nonEmpty = (v: unknown) => (Array.isArray(v) && v.length > 0) || (isPlainObject(v) && Object.keys(v).length > 0);
  if (nonEmpty(cg.argoProjects) && nonEmpty(cg.projects)) {
    schema(gv.fileOf('projects'), ['projects'], 'clusterGroup has both argoProjects and the deprecated projects', 'move the projects into argoProjects');
  }
  const declaredProjects = new Set(['default', ...projects.names]);
  const declaredNamespaces = new Set(namespaceEntries(cg.namespaces).filter((n) => n.spec.disabled !== true).map((n) => n.name));
  const pattern = typeof getPath(gv.values, ['global', 'pattern']) === 'string' ? String(getPath(gv.values, ['global', 'pattern'])) : fleet.name;
  declaredNamespaces.add(`${pattern}-${gv.group}`);
  const namespaceFinding = (file: string, path: (string | number)[], what: string, ns: string) => {
    if (declaredNamespaces.has(ns) || PLATFORM_NAMESPACES.has(ns)) return;
    add(file, path, {
      severity: 'warning',
      code: 'vp-undeclared-namespace',
      message: `${what} uses namespace "${ns}", which clusterGroup.namespaces does not declare: the chart does not create it`,
      hint: `add ${ns} to clusterGroup.namespaces in ${gv.file}`,
    });
  };

  // Applications.
  for (const [key, a] of entriesOf(cg.applications)) {
    const file = gv.fileOf('applications', key);
    if (a === null) continue; // the chart skips null entries (an override file may null one out)
    if (!isPlainObject(a)) {
      schema(file, ['applications', key], `application ${String(key)} is ${typeName(a)}, not a map`, 'write the application as a map with name, namespace, argoProject and path or chart');
      continue;
    }
    for (const f of APP_STRINGS) {
      if (a[f] !== undefined && a[f] !== null && typeof a[f] !== 'string') {
        schema(file, ['applications', key, f], `applications.${String(key)}.${f} is ${typeName(a[f])}, not a string`, f === 'chartVersion' ? 'quote the version, e.g. chartVersion: "0.1.*"' : `quote the ${f}`);
      }
    }
    for (const f of APP_BOOLEANS) {
      if (a[f] !== undefined && a[f] !== null && typeof a[f] !== 'boolean') schema(file, ['applications', key, f], `applications.${String(key)}.${f} is ${typeName(a[f])}, not true or false`, `write ${f}: true or ${f}: false`);
    }
    if (a.disabled === true) continue;
    const label = typeof a.name === 'string' ? `application "${a.name}"` : `application ${String(key)}`;
    if (typeof a.name !== 'string' || a.name === '') {
      schema(file, ['applications', key], `${label} has no name: the chart would create an Application without a name`, 'give it name: <Application name>');
      continue;
    }
    if (a.project !== undefined && a.argoProject !== undefined) {
      schema(file, ['applications', key, 'project'], `${label} sets both argoProject and the deprecated project`, 'keep argoProject only');
    }
    const project = typeof a.argoProject === 'string' ? a.argoProject : typeof a.project === 'string' ? a.project : undefined;
    if (project !== undefined && !declaredProjects.has(project)) {
      add(file, ['applications', key, a.argoProject !== undefined ? 'argoProject' : 'project'], {
        severity: 'error',
        code: 'vp-unknown-argo-project',
        message: `${label} uses Argo CD project "${project}", which clusterGroup.${projects.field} does not declare`,
        hint: projects.names.length ? `declared: ${projects.names.join(', ')} (and default); add "${project}" to ${projects.field} in ${gv.file}` : `add ${projects.field}: [${project}] to ${gv.file}`,
        app: a.name,
      });
    }
    if (typeof a.namespace === 'string') namespaceFinding(file, ['applications', key, 'namespace'], label, a.namespace);
  }

  // Subscriptions.
  for (const [key, s] of entriesOf(cg.subscriptions)) {
    const file = gv.fileOf('subscriptions', key);
    if (s === null) continue;
    if (!isPlainObject(s)) {
      schema(file, ['subscriptions', key], `subscription ${String(key)} is ${typeName(s)}, not a map`, 'write the subscription as a map with name, namespace and channel');
      continue;
    }
    for (const f of SUB_STRINGS) {
      if (s[f] !== undefined && s[f] !== null && typeof s[f] !== 'string') schema(file, ['subscriptions', key, f], `subscriptions.${String(key)}.${f} is ${typeName(s[f])}, not a string`, `quote the ${f}`);
    }
    if (s.disabled === true) continue;
    if (typeof s.name !== 'string' || s.name === '') {
      schema(file, ['subscriptions', key], `subscription ${String(key)} has no name (the OLM package): the chart skips it`, 'give it name: <package name>');
      continue;
    }
    if (s.installPlanApproval !== undefined && s.installPlanApproval !== 'Manual' && s.installPlanApproval !== 'Automatic') {
      schema(file, ['subscriptions', key, 'installPlanApproval'], `subscription "${s.name}" has installPlanApproval ${typeName(s.installPlanApproval)}`, 'use Manual or Automatic');
    }
    // templates/core/subscriptions.yaml (0.9.x): `coalesce .sequenceJob.syncWave (get $subs.annotations ...)` evaluates get
    // whatever syncWave says, and get on no map stops helm template: the group's whole chart does not render.
    if (published && isPlainObject(s.sequenceJob) && s.sequenceJob.disabled !== true && !isPlainObject(s.annotations)) {
      schema(file, ['subscriptions', key, 'sequenceJob'], `subscription "${s.name}" has a sequenceJob but no annotations: the clustergroup chart reads the job's sync wave with get on the subscription's annotations, which fails on none, so helm template of the chart fails and the group's clustergroup Application does not sync`, 'add annotations: {argocd.argoproj.io/sync-wave: "<wave>"} to the subscription (an empty map is enough)');
    }
    if (typeof s.namespace === 'string') namespaceFinding(file, ['subscriptions', key, 'namespace'], `subscription "${s.name}"`, s.namespace);
    if (Array.isArray(s.namespaces)) s.namespaces.forEach((ns, i) => {
      if (typeof ns === 'string') namespaceFinding(file, ['subscriptions', key, 'namespaces', i], `subscription "${String(s.name)}"`, ns);
    });
  }

  // Managed cluster groups (the hub's).
  for (const [key, g] of entriesOf(cg.managedClusterGroups)) {
    const file = gv.fileOf('managedClusterGroups', key);
    if (!isPlainObject(g)) {
      if (g !== null) schema(file, ['managedClusterGroups', key], `managedClusterGroups.${String(key)} is ${typeName(g)}, not a map`, 'write the group as a map with name and acmlabels');
      continue;
    }
    for (const k of Object.keys(g)) {
      if (!MANAGED_GROUP_KEYS.includes(k)) schema(file, ['managedClusterGroups', key, k], `managedClusterGroups.${String(key)}.${k} is not a setting of a managed cluster group`, `known settings: ${MANAGED_GROUP_KEYS.join(', ')}`);
    }
    if (g.acmlabels !== undefined && !Array.isArray(g.acmlabels)) {
      schema(file, ['managedClusterGroups', key, 'acmlabels'], `managedClusterGroups.${String(key)}.acmlabels is ${typeName(g.acmlabels)}, not a list`, 'list the labels as - name: <label> / value: <value>');
    } else if (Array.isArray(g.acmlabels)) {
      g.acmlabels.forEach((l, i) => {
        if (!isPlainObject(l) || typeof l.name !== 'string' || typeof l.value !== 'string') {
          schema(file, ['managedClusterGroups', key, 'acmlabels', i], `managedClusterGroups.${String(key)}.acmlabels[${i}] needs a string name and a string value`, 'write - name: clusterGroup / value: <group> (quote numbers and booleans)');
        }
      });
    }
  }

  // Imperative jobs: name and playbook are required.
  const jobs = getPath(cg, ['imperative', 'jobs']);
  if (Array.isArray(jobs)) {
    jobs.forEach((j, i) => {
      if (isPlainObject(j) && typeof j.name === 'string' && typeof j.playbook === 'string') return;
      schema(gv.fileOf('imperative'), ['imperative', 'jobs', i], `imperative.jobs[${i}] needs a name and a playbook`, 'give the job name: and playbook:');
    });
  }
  return out;
}
