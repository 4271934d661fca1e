/**
 * How a Validated Pattern is installed, step by step, for the plan (ADR 0324): the pattern's own
 * tooling, not `fleetplan bootstrap`, installs it.
 *
 * The hub (validatedpatterns/pattern-install-chart, validatedpatterns/patterns-operator
 * internal/controller/pattern_controller.go and argo.go):
 *   1. `./pattern.sh make install` renders the pattern-install chart with values-global.yaml, the
 *      clone's origin and branch, and applies it: the patterns-operator Subscription, its ConfigMap
 *      and the Pattern resource;
 *   2. the operator subscribes to the OpenShift GitOps operator;
 *   3. it creates the cluster-wide Argo CD instance;
 *   4. it creates the clustergroup Application (`<pattern>-<clusterGroupName>`): the clustergroup
 *      chart with the pattern's value files and the operator's parameters;
 *   5. the chart's sync creates the Namespaces and OperatorGroups, the OLM Subscriptions, the
 *      AppProjects and the Applications (the plan's waves).
 * A managed cluster group (validatedpatterns/acm-chart templates/policies): the hub's acm chart
 * writes, per group, the Policies `<group>-gitops-policy` and `<group>-gitops-policy-argocd`
 * (Placement `<group>-gitops-placement`) and `<group>-clustergroup-policy` (Placement
 * `<group>-placement`), whose placements select managed clusters by `clusterSelector`, else the
 * group's `acmlabels`, else `clusterGroup: <group>` (never the hub: `local-cluster notin (true)`).
 * Pure: data in, data out.
 */
import type { ClusterDef } from '../../model/fleet.js';
import { getPath, isPlainObject } from '../../model/merge.js';

/** A Kubernetes label selector as a Placement writes it. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** The patterns operator's cluster-wide Argo CD on a new install; `openshift-gitops` where that instance already exists (legacy). */
export const VP_ARGO_NAMESPACE = 'vp-gitops';
export const LEGACY_ARGO_NAMESPACE = 'openshift-gitops';
/** Where the operator subscribes to OpenShift GitOps on a new install (`openshift-operators` when the operator itself runs there). */
export const GITOPS_SUBSCRIPTION_NAMESPACE = 'openshift-gitops-operator';
/** The pattern-install chart's defaults (values.yaml). */
export const PATTERNS_OPERATOR = { channel: 'fast', source: 'community-operators', namespace: 'openshift-operators', newNamespace: 'patterns-operator' } as const;
export const GITOPS_DEFAULT_CHANNEL = 'gitops-1.21';
const NOT_HUB = { key: 'local-cluster', operator: 'NotIn', values: ['true'] };

/** The selector of a managed cluster group's placements, as the acm chart's `acm.app.clusterSelector` writes it. */
export function placementSelector(group: string, raw: Record<string, unknown>): { selector: LabelSelector; from: 'clusterSelector' | 'acmlabels' | 'default' } {
  if (isPlainObject(raw.clusterSelector) && Object.keys(raw.clusterSelector).length) {
    return { selector: raw.clusterSelector as LabelSelector, from: 'clusterSelector' };
  }
  const labels: Record<string, string> = {};
  const acm = raw.acmlabels;
  if (Array.isArray(acm)) {
    for (const l of acm) if (isPlainObject(l) && typeof l.name === 'string') labels[l.name] = l.value === null || l.value === undefined ? '' : String(l.value);
  } else if (isPlainObject(acm)) {
    for (const [k, v] of Object.entries(acm)) labels[k] = v === null || v === undefined ? '' : String(v);
  }
  if (Object.keys(labels).length) return { selector: { matchExpressions: [NOT_HUB], matchLabels: labels }, from: 'acmlabels' };
  return { selector: { matchExpressions: [NOT_HUB], matchLabels: { clusterGroup: group } }, from: 'default' };
}

/** `a=b, c notin (true)`: a selector as `kubectl get -l` reads it. */
export function selectorText(s: LabelSelector): string {
  const parts = Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s.matchExpressions ?? []) {
    const op = e.operator.toLowerCase();
    parts.push(op === 'exists' ? e.key : op === 'doesnotexist' ? `!${e.key}` : `${e.key} ${op} (${(e.values ?? []).join(',')})`);
  }
  return parts.join(', ') || '(every managed cluster)';
}

/** The labels a cluster surely has when the selector picks it (matchLabels, and `In` with one value). */
export function selectedLabels(s: LabelSelector): Record<string, string> {
  const out: Record<string, string> = { ...(s.matchLabels ?? {}) };
  for (const e of s.matchExpressions ?? []) if (e.operator === 'In' && e.values?.length === 1) out[e.key] = e.values[0]!;
  return out;
}

/** Which tool installs the pattern and what it names the Pattern resource. */
export interface Installer {
  /** How the user runs it. */
  command: string;
  /** The Pattern resource's name: the operator's `global.pattern` parameter and the clustergroup Application's prefix. */
  patternName: string;
  /** Why the name is that. */
  nameFrom: string;
  /** Where the Pattern and the patterns-operator Subscription go. */
  operatorNamespace: string;
  operatorNamespaceNote: string;
}

/**
 * The installer a repository ships: `Makefile-common` (rhvp.cluster_utils, names the Pattern after
 * values-global.yaml's global.pattern) or the older `common/Makefile` (`NAME ?=` or `NAME =`: the basename of the
 * checkout); without either, pattern-install's defaults with global.pattern.
 */
export function readInstaller(files: { makefileCommon?: string; commonMakefile?: string }, globalPattern: string | undefined, checkoutName: string): Installer {
  if (files.commonMakefile !== undefined && files.makefileCommon === undefined && /^NAME\s*[?:]?=\s*\$\(shell basename/m.test(files.commonMakefile)) {
    return {
      command: 'make install (common/Makefile operator-deploy: helm template of the pattern-install chart, applied with oc)',
      patternName: checkoutName,
      nameFrom: `common/Makefile names the Pattern after the checkout's folder (NAME is the basename of the working directory: ${checkoutName}; make install NAME=... changes it)${globalPattern !== undefined && globalPattern !== checkoutName ? `, not values-global.yaml's global.pattern ${globalPattern}: the operator's global.pattern parameter wins over the value files` : ''}`,
      operatorNamespace: PATTERNS_OPERATOR.namespace,
      operatorNamespaceNote: 'the pattern-install chart\'s default',
    };
  }
  const name = globalPattern ?? checkoutName;
  return {
    command: files.makefileCommon !== undefined
      ? './pattern.sh make install (Makefile-common: rhvp.cluster_utils renders the pattern-install chart and applies it)'
      : 'the pattern-install chart (./pattern.sh make install in a pattern with the common tooling)',
    patternName: name,
    nameFrom: globalPattern !== undefined ? 'values-global.yaml global.pattern (PATTERN_NAME changes it)' : `no global.pattern in values-global.yaml: the checkout's folder ${checkoutName}`,
    operatorNamespace: PATTERNS_OPERATOR.newNamespace,
    operatorNamespaceNote: `rhvp.cluster_utils installs patterns-operator > 0.0.65 there; ${PATTERNS_OPERATOR.namespace} when the cluster already has a patterns-operator Subscription there`,
  };
}

export interface ChartInfo {
  /** `0.9.*`, a local chart's version, …: what the clustergroup Application reads. */
  version: string;
  /** How the clustergroup Application reads the chart. */
  source: string;
}

export interface GroupInstall {
  group: string;
  /** Namespace of the chart's Applications and AppProjects. */
  argoNamespace: string;
  namespaces: string[];
  operatorGroups: string[];
  /** `ns/package (channel c, startingCSV x)`. */
  subscriptions: string[];
  projects: string[];
  applications: string[];
  applicationSets: string[];
  /** The chart's own Argo CD instance for the group (without global.singleArgoCD), which runs its Applications. */
  ownArgo?: string;
  /** `Kind/namespace/name` of every object the chart creates that the steps list. */
  objects: { namespaces: string[]; subscriptions: string[]; projects: string[]; applications: string[] };
}

export interface HubInstallInput {
  installer: Installer;
  hub: string;
  globalValues: Record<string, unknown>;
  chart: ChartInfo;
  repo: { url: string; from: string; revision: string };
  /** The Argo CD namespace the operator uses (vp-gitops on a new install). */
  vpArgoNamespace: string;
  hubInstall: GroupInstall;
  /** Per managed cluster group: its placement selector, and the app that renders the acm chart on the hub (if any). */
  managed: { group: string; selector: LabelSelector; from: string }[];
  acmApp?: string;
}

function list(items: readonly string[], max = 8): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/** The chart's own steps on a cluster (the clustergroup Application's sync): the same on hub and spokes. */
function chartSteps(g: GroupInstall, app: string): NonNullable<ClusterDef['ownBootstrap']>['steps'] {
  const steps: NonNullable<ClusterDef['ownBootstrap']>['steps'] = [];
  steps.push({
    file: 'chart: namespaces',
    description: `${app} (clustergroup chart) creates ${g.namespaces.length} Namespace${g.namespaces.length === 1 ? '' : 's'} (${list(g.namespaces)}), labelled argocd.argoproj.io/managed-by: ${g.argoNamespace}, and ${g.operatorGroups.length} OperatorGroup${g.operatorGroups.length === 1 ? '' : 's'}: the plan's app clustergroup-namespaces`,
    objects: g.objects.namespaces,
  });
  if (g.ownArgo) {
    steps.push({ file: 'chart: argocd', description: `the group's own Argo CD (no global.singleArgoCD): ${g.ownArgo}, which runs the Applications below`, objects: [g.ownArgo.replace(/^ArgoCD /, 'ArgoCD/')] });
  }
  if (g.subscriptions.length) {
    steps.push({
      file: 'chart: subscriptions',
      description: `OLM Subscriptions: ${g.subscriptions.join('; ')}: one plan app each, before the Applications`,
      objects: g.objects.subscriptions,
    });
  }
  if (g.projects.length) {
    steps.push({ file: 'chart: projects', description: `AppProjects ${list(g.projects)} in ${g.argoNamespace}`, objects: g.objects.projects });
  }
  steps.push({
    file: 'chart: applications',
    description: `${g.applications.length} Application${g.applications.length === 1 ? '' : 's'} in ${g.argoNamespace}${g.applicationSets.length ? ` and ${g.applicationSets.length} ApplicationSet${g.applicationSets.length === 1 ? '' : 's'} (${g.applicationSets.join(', ')})` : ''}, in the same sync (the chart relies on each Application's retries while the operators install; the waves below are the order that converges)`,
    objects: g.objects.applications,
  });
  return steps;
}

/** The hub's install, as its own tooling runs it. */
export function hubInstall(input: HubInstallInput): NonNullable<ClusterDef['ownBootstrap']> {
  const { installer, hub, globalValues } = input;
  const ns = installer.operatorNamespace;
  const name = installer.patternName;
  const str = (p: string[]) => {
    const v = getPath(globalValues, p);
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const gitopsChannel = str(['main', 'gitops', 'channel']) ?? GITOPS_DEFAULT_CHANNEL;
  const gitopsSource = str(['main', 'gitops', 'operatorSource']) ?? 'redhat-operators';
  const opChannel = str(['main', 'patternsOperator', 'channel']) ?? PATTERNS_OPERATOR.channel;
  const opSource = str(['main', 'patternsOperator', 'source']) ?? PATTERNS_OPERATOR.source;
  const opCSV = str(['main', 'patternsOperator', 'startingCSV']);
  const upstream = str(['main', 'git', 'repoUpstreamURL']);
  const app = `${name}-${hub}`;
  const argo = input.vpArgoNamespace;
  const steps: NonNullable<ClusterDef['ownBootstrap']>['steps'] = [
    {
      file: 'pattern install',
      description: `${installer.command}: helm template pattern-install --name-template ${name} -f values-global.yaml --set main.git.repoURL=${input.repo.url} --set main.git.revision=${input.repo.revision}, applied: Subscription ${ns}/patterns-operator (channel ${opChannel}, source ${opSource}${opCSV ? `, startingCSV ${opCSV}` : ''}), ConfigMap ${ns}/patterns-operator-config (gitops.channel ${gitopsChannel}), Pattern ${ns}/${name} (clusterGroupName ${hub}, targetRepo ${input.repo.url}, targetRevision ${input.repo.revision}${upstream ? `, originRepo ${upstream}` : ''})`,
      objects: [`Subscription/${ns}/patterns-operator`, `ConfigMap/${ns}/patterns-operator-config`, `Pattern/${ns}/${name}`],
    },
    {
      file: 'operator: gitops',
      description: `the patterns operator subscribes to OpenShift GitOps: Namespace ${GITOPS_SUBSCRIPTION_NAMESPACE}, its OperatorGroup, Subscription ${GITOPS_SUBSCRIPTION_NAMESPACE}/openshift-gitops-operator (channel ${gitopsChannel}, source ${gitopsSource}, env ARGOCD_CLUSTER_CONFIG_NAMESPACES=*, DISABLE_DEFAULT_ARGOCD_INSTANCE=true; openshift-operators/openshift-gitops-operator when the operator runs in openshift-operators)`,
      objects: [`Namespace//${GITOPS_SUBSCRIPTION_NAMESPACE}`, `Subscription/${GITOPS_SUBSCRIPTION_NAMESPACE}/openshift-gitops-operator`],
    },
    {
      file: 'operator: argocd',
      description: `Namespace ${argo}, ConfigMap ${argo}/trusted-ca-bundle (waits for the cluster network operator to fill it), ArgoCD ${argo}/${argo} (an existing ${LEGACY_ARGO_NAMESPACE}/${LEGACY_ARGO_NAMESPACE} instance is used instead)${upstream ? `; main.git.repoUpstreamURL: Application ${argo}/gitea-in-cluster, an in-cluster Gitea (namespace vp-gitea) mirroring ${upstream}` : ''}`,
      objects: [`Namespace//${argo}`, `ConfigMap/${argo}/trusted-ca-bundle`, `ArgoCD/${argo}/${argo}`, ...(upstream ? [`Application/${argo}/gitea-in-cluster`] : [])],
    },
    {
      file: 'operator: clustergroup',
      description: `Application ${argo}/${app}: ${input.chart.source}, value files values-global.yaml, values-${hub}.yaml and the cluster's (platform, version, name), the operator's parameters (global.pattern=${name}, global.namespace=${ns}, global.repoURL, global.targetRevision, the domains, ...: see the cluster's notes), destination in-cluster namespace ${ns}, automated with selfHeal, 20 retries`,
      objects: [`Application/${argo}/${app}`],
    },
    ...chartSteps(input.hubInstall, app),
  ];
  if (input.managed.length) {
    const via = input.acmApp ? `the acm chart (Application ${input.acmApp})` : 'the acm chart, which no application of this hub renders (no app has chart acm: nothing hands GitOps to the managed clusters)';
    steps.push({
      file: 'acm: policies',
      description: `${via} writes, per managed cluster group, the Policies that install GitOps and the group's clustergroup Application on the clusters its Placements select: ${input.managed.map((m) => `${m.group}: ${m.group}-gitops-policy, ${m.group}-gitops-policy-argocd, ${m.group}-clustergroup-policy, selector ${selectorText(m.selector)} (${m.from})`).join('; ')}`,
      objects: input.managed.flatMap((m) => [`Policy//${m.group}-gitops-policy`, `Policy//${m.group}-gitops-policy-argocd`, `Policy//${m.group}-clustergroup-policy`, `Placement//${m.group}-gitops-placement`, `Placement//${m.group}-placement`]),
    });
  }
  return {
    by: 'the Validated Patterns operator (./pattern.sh make install)',
    steps,
    notes: [
      `this pattern is installed by its own tooling, not fleetplan bootstrap: ${installer.command}; the Pattern is named ${name}, from ${installer.nameFrom}; the patterns operator in ${ns} (${installer.operatorNamespaceNote})`,
      `the repository the operator is given is the clone's origin and branch (${input.repo.from})`,
    ],
  };
}

export interface SpokeInstallInput {
  hub: string;
  group: string;
  patternName: string;
  selector: LabelSelector;
  selectorFrom: string;
  vpArgoNamespace: string;
  gitopsChannel: string;
  acmApp?: string;
  install: GroupInstall;
  chart: ChartInfo;
}

/** A managed cluster group's install: the hub's ACM policies hand GitOps to every cluster its placements select. */
export function spokeInstall(input: SpokeInstallInput): NonNullable<ClusterDef['ownBootstrap']> {
  const { group, hub } = input;
  const argo = input.vpArgoNamespace;
  const sel = selectorText(input.selector);
  const app = `${input.patternName}-${group}`;
  const from = input.acmApp ? `the acm chart of hub ${hub} (Application ${input.acmApp})` : `the acm chart on hub ${hub}, which no application of the hub renders`;
  return {
    by: `ACM policies of hub ${hub}`,
    steps: [
      {
        file: 'hub: placement',
        description: `on hub ${hub}: Placements ${group}-gitops-placement and ${group}-placement select the managed clusters with ${sel} (${input.selectorFrom}); this cluster stands for each of them`,
        objects: [`Placement//${group}-gitops-placement`, `Placement//${group}-placement`],
      },
      {
        file: 'hub: gitops policy',
        description: `Policy ${group}-gitops-policy (${from}) enforces Subscription openshift-gitops-operator (channel ${input.gitopsChannel}, namespace global.gitOpsSubNamespace, else openshift-operators), Namespace ${argo} and ConfigMap ${argo}/trusted-ca-bundle; Policy ${group}-gitops-policy-argocd then the ArgoCD ${argo}/${argo}`,
        objects: [`Policy//${group}-gitops-policy`, `Policy//${group}-gitops-policy-argocd`, `Subscription//openshift-gitops-operator`, `ArgoCD/${argo}/${argo}`],
      },
      {
        file: 'hub: clustergroup policy',
        description: `Policy ${group}-clustergroup-policy: cluster-admin for ${argo}'s controllers and Application ${argo}/${app}: ${input.chart.source} with values-global.yaml, values-${group}.yaml and the cluster's, the hub's domain and the cluster's own (ACM hub templates)`,
        objects: [`Policy//${group}-clustergroup-policy`, `Application/${argo}/${app}`],
      },
      ...chartSteps(input.install, app),
    ],
    notes: [
      `the hub's ACM policies install GitOps and this group's clustergroup Application on every managed cluster with ${sel}; neither the pattern nor fleetplan bootstrap touches the cluster directly`,
    ],
  };
}
