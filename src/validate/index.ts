/**
 * Stage 6, validate: every finding about a fleet — loading (syntax, schema), resolution (needs,
 * waves, variables, groups, sectors) and the repository rules in ./rules. Each rule is a small
 * function `(context) → Finding[]` with metadata per code (engine.ts); all run, nothing stops at
 * the first problem. fleet.yaml `spec.validation.rules` (code → off | error | warning | info) is
 * applied here, centrally, to every finding.
 *
 * Inputs: a loaded Fleet, the repository (RepoFileSystem), optionally the leaf objects of a leaf
 * rendering. Output: findings sorted by file, line, severity, code. Pure apart from reading the
 * repository through the port; every directory is read once (ManifestIndex), so the cost grows
 * with the repository and the number of apps, never with clusters × directories re-parsed.
 */
import type { Finding } from '../model/finding.js';
import { compareFindings } from '../model/finding.js';
import type { ResolvedApp } from '../model/resolved.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { mergeFindings } from '../layering/resolve-fleet.js';
import type { ResolvedFleet } from '../layering/resolve-fleet.js';
import type { RuleContext } from './context.js';
import type { LeafObjects } from '../ports/leaf-objects.js';
import { appSourceType, normalizeRepoPath, place } from './context.js';
import type { CodeInfo, RuleDefinition } from './engine.js';
import { applyLevels } from './engine.js';
import type { ManifestObject } from '../load/manifests.js';
import { ManifestIndex } from '../load/manifests.js';
import { releaseApp } from '../model/graphs.js';
import type { ArgoCdSchemaSet } from './catalog/argocd-schema-source.js';
import { repositoryHygieneRule } from './rules/repository-hygiene.js';
import { ociSourcesRule } from './rules/oci-sources.js';
import { crdOrderRule } from './rules/crd-order.js';
import { fluxCrdFromHelmReleaseRule } from './rules/flux-crd-helmrelease.js';
import { wavesWaitRule } from './rules/waves-wait.js';
import { networkRule } from './rules/network.js';
import { secretsRule } from './rules/secrets.js';
import { placementRule } from './rules/placement.js';
import { productionSafetyRule } from './rules/production-safety.js';
import { applicationSetIdentityRule } from './rules/applicationset-identity.js';
import { helmReleaseIdentityRule } from './rules/helmrelease-identity.js';
import { destinationNamespaceRule } from './rules/destination-namespace.js';
import { kustomizePatchesRule } from './rules/kustomize-patches.js';
import { destinationRegistrationRule } from './rules/destination-registration.js';
import { argoCdSchemaRule } from './rules/argocd-schema.js';
import { kustomizationHeaderRule } from './rules/kustomization-header.js';
import { kustomizeReferencesRule } from './kustomize-refs.js';
import { defineRule } from './engine.js';
import { provisionRules } from './provision.js';
import { consumerValueCodes } from '../layering/consumer-values.js';
import { leafBuildsRule } from './rules/leaf-builds.js';
import { leafVariablesRule } from './rules/leaf-variables.js';
import { jsonnetRule } from './rules/jsonnet.js';
import type { JsonnetEvaluations } from './jsonnet-evaluate.js';
import { sameRepository } from '../model/git-url.js';

export type { RuleContext } from './context.js';
export type { LeafObjects } from '../ports/leaf-objects.js';
export type { RuleDefinition, CodeInfo, Rule } from './engine.js';
export { defineRule } from './engine.js';
export { fieldOrigin, normalizeRepoPath } from './context.js';

const code = (severity: CodeInfo['severity'], summary: string, help: string): CodeInfo => ({ severity, summary, help });

/** Codes of the provisioning checks (./provision.ts). */
const provisionCodes: Record<string, CodeInfo> = {
  'provision-missing-field': code('error', 'provision section lacks a field its installer needs', 'Each installer (hive-aws, capi-eks, agent) needs certain fields; the message names the field and why.'),
  'provision-without-hub': code('error', 'a provisioned cluster has no hub', 'The hub creates the cluster: set spec.hub.'),
  'provision-control-plane-size': code('error', 'unsupported control-plane size', 'OpenShift control planes have 1 or 3 nodes.'),
  'provision-ambiguous-credential': code('error', 'credential reference with both key and secretName', 'Keep one: key reads the store through an ExternalSecret, secretName uses an existing Secret.'),
  'vip-conflict': code('error', 'API and ingress VIP are the same address', 'Give the API and the ingress VIP different addresses.'),
  'host-outside-machine-network': code('error', 'host address outside the machine network', 'Static host addresses must be in the machine network.'),
  'cidr-overlap': code('error', 'a cluster\'s own networks overlap', 'The machine, pod and service networks of one cluster must be disjoint.'),
  'duplicate-mac': code('error', 'two hosts with one boot MAC', 'Each host has its own NIC; copy the MAC from the host.'),
  'duplicate-bmc-address': code('error', 'two hosts with one BMC address', 'Two hosts would be powered by the same BMC; fix the system path or host.'),
  'bmc-address-scheme': code('error', 'unknown BMC address scheme', 'Use a scheme Metal3 knows (redfish-virtualmedia://, idrac-virtualmedia://, ...).'),
  'bmc-no-virtual-media': code('warning', 'BMC scheme without virtual media', 'Agent-based installs boot the discovery ISO through virtual media.'),
  'unknown-platform-version': code('warning', 'platform version fleetplan does not know', 'Check the version; fleetplan knows the supported OpenShift and EKS versions.'),
};

/**
 * The rules every fleet gets, in the order of the issue that asked for them. Layout readers add
 * their own (src/layouts/<name>/rules.ts); the library entry passes both (`ValidateOptions.rules`).
 */
export const rules: RuleDefinition[] = [
  crdOrderRule,
  fluxCrdFromHelmReleaseRule,
  wavesWaitRule,
  networkRule,
  secretsRule,
  placementRule,
  productionSafetyRule,
  repositoryHygieneRule,
  ociSourcesRule,
  applicationSetIdentityRule,
  destinationNamespaceRule,
  argoCdSchemaRule,
  kustomizationHeaderRule,
  defineRule(
    'kustomize-references',
    {
      'kustomize-path-escapes-repo': {
        severity: 'error',
        summary: 'kustomization references a path outside the repository',
        help: 'Argo CD builds from a checkout of the repository: resources, components and bases that climb above its root fail the sync. Reference paths inside the repository.',
      },
      'kustomize-missing-path': {
        severity: 'error',
        summary: 'kustomization references a path that does not exist',
        help: 'kustomize build fails on a missing resource, component or base. Fix the entry or add the file.',
      },
      'kustomize-resource-invalid': {
        severity: 'error',
        summary: 'kustomization lists a resource file that is not valid YAML',
        help: 'kustomize build reads every file of resources and fails on one that does not parse (MalformedYAMLError), so Argo CD cannot sync the app. Fix the file\'s YAML.',
      },
    },
    kustomizeReferencesRule,
  ),
  defineRule('provision', provisionCodes, (ctx) => provisionRules.flatMap((r) => r(ctx))),
  kustomizePatchesRule,
  destinationRegistrationRule,
  leafBuildsRule,
  leafVariablesRule,
  helmReleaseIdentityRule,
  jsonnetRule,
];

/** Codes found while loading and resolving, for settings and SARIF metadata. */
export const resolutionCodes: Record<string, CodeInfo> = {
  ...consumerValueCodes,
  schema: { severity: 'error', summary: 'file does not match its schema', help: '`fleetplan schema KIND` prints the schema of each file kind.' },
  'yaml-syntax': { severity: 'error', summary: 'YAML syntax error', help: 'Fix the YAML syntax at the given line and column.' },
  'duplicate-key': { severity: 'error', summary: 'a key appears twice in one map', help: 'Each key may appear once in a map; merge the two entries.' },
  'unknown-need': { severity: 'error', summary: 'needs names no app on the cluster', help: 'needs entries must name enabled apps of the same cluster.' },
  'needs-cycle': { severity: 'error', summary: 'needs form a cycle', help: 'Apps that need each other cannot be ordered; remove one of the needs.' },
  'wave-conflict': { severity: 'error', summary: 'explicit wave not above a need', help: 'An app must sync after what it needs: give it a higher wave, or drop the explicit wave.' },
  'undefined-variable': { severity: 'error', summary: 'variable without a value', help: 'Define the variable in the cluster or fleet vars, or give a default with ${NAME:-default}.' },
  'variable-cycle': { severity: 'error', summary: 'variables refer to each other in a cycle', help: 'Give one of them a literal value.' },
  'shadowed-variable': { severity: 'warning', summary: 'a variable shadows a built-in', help: 'Built-in variables cannot be redefined; rename the variable.' },
  'unknown-sector': { severity: 'error', summary: 'cluster names an undeclared sector', help: 'Declare the sector in fleet.yaml spec.sectors.' },
  'unknown-hub': { severity: 'error', summary: 'hub is not a cluster of the fleet', help: 'Add the hub cluster or fix the name.' },
  'unknown-group': { severity: 'error', summary: 'cluster lists a group that does not exist', help: 'Create groups/<name>/group.yaml or remove it from the list.' },
  'no-source': { severity: 'error', summary: 'app has neither path nor chart', help: 'Give the app a path or a chart.' },
  'empty-values-file': { severity: 'warning', summary: 'a chart is inflated with an empty values file', help: 'A gitops-standards kustomization inflates the argocd-app-of-app chart with a values file that holds nothing (whitespace only): the inflation renders only the chart\'s defaults, so the cluster gets only its groups\' applications. Remove the helmCharts entry and the file, or add the applications (`applications: {}` says there are deliberately none).' },
  'unknown-rule-code': { severity: 'warning', summary: 'validation setting for an unknown code', help: '`fleetplan validate -o sarif` lists every code with its help.' },
};

/** Every code that loading, resolution and `ruleSet` can report, with its default severity and help. */
export function ruleCatalog(ruleSet: readonly RuleDefinition[] = rules): Record<string, CodeInfo> {
  const out: Record<string, CodeInfo> = { ...resolutionCodes };
  for (const r of ruleSet) Object.assign(out, r.codes);
  return out;
}

export interface ValidateOptions {
  fs: RepoFileSystem;
  /** Objects from a leaf rendering; without it the rules read app directories statically. */
  leaves?: LeafObjects;
  /** Rules to run (default: the core rules; the library entry adds the layouts' own). */
  rules?: readonly RuleDefinition[];
  /** Argo CD schemas from the CRDs of the Argo CD the fleet runs (argoCdSchemasFromCrds), over the bundled ones. */
  argoCdSchemas?: ArgoCdSchemaSet;
  /** The real Jsonnet's evaluations (evaluateJsonnetSources); without them the Jsonnet rule checks imports only. */
  jsonnet?: JsonnetEvaluations;
}

export function createRuleContext(resolved: ResolvedFleet, options: ValidateOptions): RuleContext {
  const { fleet, clusters } = resolved;
  const manifests = new ManifestIndex(options.fs);
  const leafCache = new Map<string, ManifestObject[] | undefined>();
  const releases = new Map((fleet.graphs?.helmfile ?? []).map((r) => [releaseApp(r), r]));
  const releaseObjects = new Map<string, ManifestObject[]>();
  const localPath = (app: ResolvedApp): string | undefined => {
    if (!sameRepository(app.source.repoURL, fleet.repoURL) || app.source.chart !== undefined || app.source.path === undefined) return undefined;
    return normalizeRepoPath(app.source.path);
  };
  return {
    fleet,
    clusters,
    cluster: resolved.cluster,
    fs: options.fs,
    manifests,
    ...(options.leaves ? { leaves: options.leaves } : {}),
    settings: fleet.validation,
    localPath,
    ...(options.argoCdSchemas ? { argoCdSchemas: options.argoCdSchemas } : {}),
    ...(options.jsonnet ? { jsonnet: options.jsonnet } : {}),
    objectsOf(cluster, app) {
      if (options.leaves) {
        const key = `${cluster.name}\0${app.name}`;
        if (!leafCache.has(key)) {
          const objs = options.leaves.objects(cluster.name, app.name);
          const file = app.source.path ?? cluster.file;
          leafCache.set(key, objs ? objs.map((o) => leafObject(o, file)) : undefined);
        }
        const hit = leafCache.get(key);
        if (hit) return hit;
      }
      const release = releases.get(app.name);
      if (release) {
        let objs = releaseObjects.get(app.name);
        if (!objs) releaseObjects.set(app.name, (objs = release.applies.flatMap((f) => manifests.file(f))));
        return objs;
      }
      const path = localPath(app);
      if (path === undefined) return undefined;
      // A source Argo CD builds with Helm (or a plugin) applies what the tool makes of it, not the
      // YAML files or kustomization in the directory: unknown without leaves.
      const type = appSourceType(options.fs, cluster, app);
      if (type === 'helm' || type === 'plugin') return undefined;
      const dir = manifests.directory(path);
      return dir.kind === 'missing' || dir.kind === 'chart' ? undefined : dir.objects;
    },
  };
}

function leafObject(o: Record<string, unknown>, file: string): ManifestObject {
  const meta = (typeof o.metadata === 'object' && o.metadata !== null ? o.metadata : {}) as Record<string, unknown>;
  const apiVersion = String(o.apiVersion ?? '');
  const i = apiVersion.lastIndexOf('/');
  return {
    apiVersion,
    kind: String(o.kind ?? ''),
    group: i < 0 ? '' : apiVersion.slice(0, i),
    name: typeof meta.name === 'string' ? meta.name : undefined,
    namespace: typeof meta.namespace === 'string' ? meta.namespace : undefined,
    file,
    line: 0,
    body: o,
    keyLines: {},
    built: true,
  };
}

/** Every finding about a resolved fleet: its load and resolution findings, then every rule's. */
export function validateFleet(resolved: ResolvedFleet, options: ValidateOptions): Finding[] {
  const { fleet, findings } = resolved;
  const ctx = createRuleContext(resolved, options);
  const all = [...findings];
  const ruleSet = options.rules ?? rules;
  for (const rule of ruleSet) all.push(...rule.run(ctx));
  const levels = fleet.validation.rules ?? {};
  const known = ruleCatalog(ruleSet);
  for (const code of Object.keys(levels).sort()) {
    if (known[code]) continue;
    all.push(place(fleet, { file: fleet.file, path: ['spec', 'validation', 'rules', code] }, {
      severity: 'warning',
      code: 'unknown-rule-code',
      message: `validation setting for "${code}", which is not a code fleetplan reports`,
      hint: `codes: ${Object.keys(known).sort().join(', ')}`,
    }));
  }
  return mergeFindings(applyLevels(all, levels)).sort(compareFindings);
}
