/**
 * The ROSA Regional Platform layout (seed 004, openshift-online/rosa-regional-platform): one
 * `config.yaml` (`defaults` → `environments.<env>` → optional `sectors.<sector>` →
 * `region_deployments.<aws_region>` with `management_clusters.<id>`), rendered by the
 * repository's scripts/render.py into `deploy/<env>/<region>/argocd/`:
 * `<cluster-type>-values.yaml` and `<cluster-type>-manifests/applicationset.yaml`.
 *
 * Mapping to the fleet model (docs/adr/0200-rosa-regional-layout.md):
 *   - each region deployment is one regional cluster (`<env>-<region>-regional`, role regional)
 *     and one management cluster per `management_clusters` key (`<env>-<region>-<id>`, role
 *     management), under `delivery: applicationset`;
 *   - each cluster's identity Secret is the one the repository's ECS bootstrap task creates
 *     (name `local-cluster-identity`; labels environment, region_deployment, aws_region,
 *     cluster_type, cluster_name; annotations git_repo, git_revision, api_target_group_arn,
 *     dynamodb_prefix, dynamodb_region);
 *   - each cluster's root ApplicationSet is the committed deploy/ file of its cluster type, as
 *     it is: plan evaluates it with src/appset against that identity, so the Applications are
 *     what the ApplicationSet controller generates on the cluster;
 *   - the revision a region deployment resolves (`revision`, region deployment → sector →
 *     environment → defaults, as render.py) pins its charts when it is not `main`; the pin the
 *     deploy/ file carries is the one evaluated, and a disagreement with config.yaml is reported.
 * What only Terraform knows at bootstrap (the API target group ARN, the repository URL the
 * pipeline passes) is shown as such in the identity and in the plan's notes, never guessed.
 */
import { originURL } from '../../load/repository-origin.js';
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, ClusterIdentity, Fleet } from '../../model/fleet.js';
import { ARGOCD_REPOSITORY_CAPABILITIES, emptyFleet } from '../../model/fleet.js';
import type { ClusterRole, ClusterSpec, SectorSpec } from '../../model/spec.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import { at } from '../../load/native.js';
import { FLEET_FILE } from '../../model/constants.js';
import type { SourceFile, YamlPath } from '../../model/source.js';
import { parseYamlSource } from '../../yaml/source.js';
import { parseYaml } from '../../yaml/index.js';
import { isPlainObject } from '../../model/merge.js';

export const ROSA_CONFIG_FILE = 'config.yaml';
export const ROSA_DEPLOY_DIR = 'deploy';
/** Chart directories; render.py takes its cluster types from the folders here whose name ends in `cluster`. */
export const ROSA_CHARTS_DIR = 'argocd/config';
/** The branch render.py treats as "not pinned" and the ECS task's REPOSITORY_BRANCH default. */
export const ROSA_DEFAULT_BRANCH = 'main';
/** The top-level keys of config.yaml (render.py reads these two). */
export const ROSA_CONFIG_KEYS = ['defaults', 'environments'] as const;

export const REGIONAL_CLUSTER_TYPE = 'regional-cluster';
export const MANAGEMENT_CLUSTER_TYPE = 'management-cluster';
/** Name of the Secret the ECS bootstrap task creates (terraform/modules/ecs-bootstrap). */
export const ROSA_IDENTITY_SECRET = 'local-cluster-identity';
/** What the ECS task writes from a Terraform output fleetplan cannot read. */
export const TERRAFORM_OUTPUT = (name: string): string => `<terraform output ${name}, set at bootstrap>`;

const GIT_REVISION_TEMPLATE = '{{ .metadata.annotations.git_revision }}';

/**
 * config.yaml at the root, with an `environments` map (its defining key) in which some environment
 * has `region_deployments` or `sectors` (a map), and a deploy/ folder. `environments:` alone is any
 * tool's settings file and deploy/ a common folder name: together they do not make this layout.
 * The config.yaml generation (the newer config/ generation is ./config-dir.ts; ./entry.ts chooses).
 */
export function detectRosaConfigFile(fs: RepoFileSystem): boolean {
  if (fs.exists(FLEET_FILE) || !fs.exists(ROSA_CONFIG_FILE) || !fs.isDirectory(ROSA_DEPLOY_DIR)) return false;
  let text: string;
  try {
    text = fs.readText(ROSA_CONFIG_FILE);
  } catch {
    return false;
  }
  // Cheap first: the file must name the key before it is parsed.
  if (!/^environments:/m.test(text)) return false;
  try {
    const v = parseYaml(text, { schema: 'core' });
    if (!isPlainObject(v) || !isPlainObject(v['environments'])) return false;
    return Object.values(v['environments']).some((e) => isPlainObject(e) && (isPlainObject(e['region_deployments']) || isPlainObject(e['sectors'])));
  } catch {
    return false;
  }
}

/** What config.yaml says about a region deployment after inheritance. */
export interface RegionDeployment {
  environment: string;
  /** The sector key, or the environment's name for region deployments listed without sectors (render.py). */
  sector: string;
  region: string;
  /** Resolved `revision` (region deployment → sector → environment → defaults). */
  revision: string | undefined;
  managementClusters: string[];
  /** YAML path of the region deployment in its file. */
  path: YamlPath;
  /** The file that declares it, when not config.yaml (the config/ generation: config/<env>/<region>.yaml). */
  source?: SourceFile;
  /** YAML path of the revision that pins it, when not `<path>.revision`, and its file when not the declaring one. */
  revisionPath?: YamlPath;
  revisionFile?: string;
  /** cluster_name of each cluster: `regional` and the management_clusters keys, unless render.py wrote others. */
  ids?: { regional: string; management: Record<string, string> };
}

/**
 * Where a generation of the layout keeps what render.py writes for one region deployment
 * (ADR 0200: config.yaml + deploy/<env>/<region>/argocd/; ADR 0299, the config/
 * generation: config/<env>/<region>.yaml + deploy/<env>/<region>/argocd-bootstrap-<type>/).
 */
export interface RosaGeneration {
  /** The folder of the region deployment's rendered files. */
  deployDir(environment: string, region: string): string;
  appSetFile(dir: string, type: string): string;
  valuesFile(dir: string, type: string): string;
  /** The path the ECS task's root Application reads (REPOSITORY_PATH). */
  rootPath(dir: string, type: string): string;
  /** Identity annotations the task fills from Terraform outputs, besides api_target_group_arn. */
  terraformAnnotations: readonly string[];
}

export const CONFIG_YAML_GENERATION: RosaGeneration = {
  deployDir: (env, region) => deployPath(env, region),
  appSetFile: (dir, type) => `${dir}/${type}-manifests/applicationset.yaml`,
  valuesFile: (dir, type) => `${dir}/${type}-values.yaml`,
  rootPath: (dir, type) => `${dir}/${type}-manifests`,
  terraformAnnotations: [],
};

const asMap = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function regionDeployments(config: Record<string, unknown>, source: SourceFile, findings: Finding[]): RegionDeployment[] {
  const defaults = asMap(config['defaults']);
  const out: RegionDeployment[] = [];
  for (const [env, envValue] of Object.entries(asMap(config['environments']))) {
    const envConfig = asMap(envValue);
    let sectors: [string, Record<string, unknown>, YamlPath][];
    if ('sectors' in envConfig) {
      sectors = Object.entries(asMap(envConfig['sectors'])).map(([name, v]) => [name, asMap(v), ['environments', env, 'sectors', name]]);
    } else if ('region_deployments' in envConfig) {
      sectors = [['default', { region_deployments: envConfig['region_deployments'] }, ['environments', env]]];
    } else {
      findings.push(at(source, ['environments', env], {
        severity: 'warning',
        code: 'rosa-empty-environment',
        message: `environment ${env} has neither region_deployments nor sectors: it deploys nothing`,
        hint: 'add region_deployments: <aws-region>: management_clusters: {mc01: {}}, or remove the environment',
      }));
      continue;
    }
    for (const [sectorName, sectorConfig, sectorPath] of sectors) {
      for (const [region, rdValue] of Object.entries(asMap(sectorConfig['region_deployments']))) {
        const rd = asMap(rdValue);
        const revision = str(rd['revision']) ?? str(sectorConfig['revision']) ?? str(envConfig['revision']) ?? str(defaults['revision']);
        out.push({
          environment: env,
          sector: sectorName === 'default' ? env : sectorName,
          region,
          revision,
          managementClusters: Object.keys(asMap(rd['management_clusters'])),
          path: [...sectorPath, 'region_deployments', region],
        });
      }
    }
  }
  return out;
}

/** The sector pins config.yaml declares at sector or environment level (promotion works per sector). */
function sectorsOf(config: Record<string, unknown>, rds: readonly RegionDeployment[]): SectorSpec[] {
  const envs = asMap(config['environments']);
  const out = new Map<string, SectorSpec>();
  for (const rd of rds) {
    if (out.has(rd.sector)) continue;
    const env = asMap(envs[rd.environment]);
    const own = rd.sector === rd.environment && !('sectors' in env) ? env : asMap(asMap(env['sectors'])[rd.sector]);
    const revision = str(own['revision']) ?? str(env['revision']);
    out.set(rd.sector, revision !== undefined && revision !== ROSA_DEFAULT_BRANCH ? { name: rd.sector, revision } : { name: rd.sector });
  }
  return [...out.values()];
}

/** The `revision` of the first git generator in an ApplicationSet's generators (matrix/merge children included). */
export function gitGeneratorRevision(appSet: Record<string, unknown>): string | undefined {
  const walk = (gens: unknown): string | undefined => {
    if (!Array.isArray(gens)) return undefined;
    for (const g of gens) {
      const m = asMap(g);
      if (isPlainObject(m['git'])) return typeof m['git']['revision'] === 'string' ? m['git']['revision'] : '';
      for (const k of ['matrix', 'merge']) {
        const r = walk(asMap(m[k])['generators']);
        if (r !== undefined) return r;
      }
    }
    return undefined;
  };
  return walk(asMap(appSet['spec'])['generators']);
}

export function clusterTypes(fs: RepoFileSystem): string[] {
  if (!fs.isDirectory(ROSA_CHARTS_DIR)) return [];
  return fs.list(ROSA_CHARTS_DIR).filter((n) => !n.startsWith('.') && n.endsWith('cluster') && fs.isDirectory(`${ROSA_CHARTS_DIR}/${n}`)).sort();
}

export function deployPath(environment: string, region: string): string {
  return `${ROSA_DEPLOY_DIR}/${environment}/${region}/argocd`;
}

export function loadRosaConfigFile(fs: RepoFileSystem): LoadResult {
  const findings: Finding[] = [];
  const sources = new Map<string, SourceFile>();
  const parsed = parseYamlSource(ROSA_CONFIG_FILE, fs.readText(ROSA_CONFIG_FILE));
  findings.push(...parsed.findings);
  const source = parsed.source!;
  sources.set(ROSA_CONFIG_FILE, source);
  const config = asMap(source.value);
  for (const key of Object.keys(config)) {
    if ((ROSA_CONFIG_KEYS as readonly string[]).includes(key)) continue;
    findings.push(at(source, [key], {
      severity: 'warning',
      code: 'rosa-unknown-key',
      message: `${ROSA_CONFIG_FILE}: top-level key ${key} is not read (render.py reads ${ROSA_CONFIG_KEYS.join(' and ')})`,
      hint: `move it under defaults (inherited by every region deployment) or remove it`,
    }));
  }
  const rds = regionDeployments(config, source, findings);
  const types = clusterTypes(fs);
  for (const t of [REGIONAL_CLUSTER_TYPE, MANAGEMENT_CLUSTER_TYPE]) {
    if (types.includes(t)) continue;
    findings.push({
      severity: 'warning',
      code: 'rosa-missing-cluster-type',
      message: `${ROSA_CHARTS_DIR}/${t} does not exist: render.py renders no ${t} ApplicationSet, and the ${t}s of every region deployment get no Applications`,
      file: ROSA_CONFIG_FILE,
      hint: `create ${ROSA_CHARTS_DIR}/${t}/ (charts of the ${t}s), then run scripts/render.py`,
    });
  }
  return buildRosaFleet(fs, { rds, types, source, sources, findings, gen: CONFIG_YAML_GENERATION, configFile: ROSA_CONFIG_FILE, sectors: sectorsOf(config, rds) });
}

export interface RosaInputs {
  rds: RegionDeployment[];
  types: string[];
  /** The file findings about the whole layout point at. */
  source: SourceFile;
  sources: Map<string, SourceFile>;
  findings: Finding[];
  gen: RosaGeneration;
  configFile: string;
  sectors: SectorSpec[];
}

/** The fleet of region deployments, whichever generation declared them. */
export function buildRosaFleet(fs: RepoFileSystem, inputs: RosaInputs): LoadResult {
  const { rds, types, source, sources, findings, gen, configFile } = inputs;
  const repoURL = originURL(fs);
  const branch = ROSA_DEFAULT_BRANCH;
  const clusters: ClusterDef[] = [];
  const manifestFiles: string[] = [];
  const known = new Set<string>();
  /** ApplicationSet files already compared with config.yaml (the management clusters of a region deployment share one). */
  const checked = new Set<string>();
  for (const rd of rds) {
    const dir = gen.deployDir(rd.environment, rd.region);
    const rdSource = rd.source ?? source;
    const rdFile = rdSource.file;
    known.add(`${rd.environment}/${rd.region}`);
    const pinned = rd.revision !== undefined && rd.revision !== ROSA_DEFAULT_BRANCH ? rd.revision : undefined;
    const members: { name: string; role: ClusterRole; type: string; id: string }[] = [
      { name: `${rd.environment}-${rd.region}-regional`, role: 'regional', type: REGIONAL_CLUSTER_TYPE, id: rd.ids?.regional ?? 'regional' },
      ...rd.managementClusters.map((mc) => ({ name: `${rd.environment}-${rd.region}-${mc}`, role: 'management' as const, type: MANAGEMENT_CLUSTER_TYPE, id: rd.ids?.management[mc] ?? mc })),
    ];
    if (rd.managementClusters.length === 0) {
      findings.push(at(rdSource, rd.path, {
        severity: 'warning',
        code: 'rosa-no-management-cluster',
        message: `region deployment ${rd.environment}/${rd.region} has no management_clusters: only its regional cluster is planned`,
        hint: 'add management_clusters: {mc01: {}}',
      }));
    }
    for (const m of members) {
      if (!types.includes(m.type)) continue;
      const appSetFile = gen.appSetFile(dir, m.type);
      const valuesFile = gen.valuesFile(dir, m.type);
      const missing = [appSetFile, valuesFile].filter((f) => !fs.exists(f));
      if (missing.length > 0) {
        findings.push(at(rdSource, rd.path, {
          severity: 'error',
          code: 'rosa-not-rendered',
          message: `${m.name}: ${missing.join(' and ')} ${missing.length === 1 ? 'does' : 'do'} not exist, so Argo CD generates no Applications for the ${m.type} of ${rd.environment}/${rd.region}`,
          hint: 'run scripts/render.py and commit deploy/',
        }));
        continue;
      }
      const appSet = readApplicationSet(fs, appSetFile, findings);
      if (!appSet) continue;
      manifestFiles.push(appSetFile);
      const evaluated = gitGeneratorRevision(appSet);
      const expected = pinned ?? GIT_REVISION_TEMPLATE;
      if (evaluated !== undefined && evaluated !== expected && !checked.has(appSetFile)) {
        checked.add(appSetFile);
        findings.push(at(rdSource, [...rd.path], {
          severity: 'warning',
          code: 'rosa-stale-render',
          message: `${appSetFile} reads charts at ${evaluated || '(no revision)'}, but ${rdFile} resolves revision ${rd.revision ?? '(none)'} for ${rd.environment}/${rd.region} (${pinned ? `pinned to ${pinned}` : 'not pinned: the identity Secret\'s git_revision'}); the plan shows what the committed file does`,
          hint: 'run scripts/render.py and commit deploy/',
        }));
      }
      const revisionPin = evaluated !== undefined && evaluated !== '' && !evaluated.includes('{{') ? evaluated : undefined;
      const labels: Record<string, string> = {
        'argocd.argoproj.io/secret-type': 'cluster',
        environment: rd.environment,
        region_deployment: rd.region,
        aws_region: rd.region,
        cluster_type: m.type,
        cluster_name: m.id,
      };
      const identity: ClusterIdentity = {
        name: ROSA_IDENTITY_SECRET,
        labels,
        annotations: {
          git_repo: repoURL ?? TERRAFORM_OUTPUT('repository_url'),
          git_revision: branch,
          api_target_group_arn: TERRAFORM_OUTPUT('api_target_group_arn'),
          dynamodb_prefix: m.id,
          dynamodb_region: rd.region,
          ...Object.fromEntries(gen.terraformAnnotations.map((a) => [a, TERRAFORM_OUTPUT(a)])),
        },
        stringData: { name: 'in-cluster', server: 'https://kubernetes.default.svc', config: '{\n  "tlsClientConfig": { "insecure": false }\n}\n' },
      };
      const spec: ClusterSpec = {
        role: m.role,
        region: rd.region,
        sector: rd.sector,
        platform: 'kubernetes',
        labels: { environment: rd.environment, region_deployment: rd.region, aws_region: rd.region, cluster_type: m.type, cluster_name: m.id },
      };
      const notes = [
        `identity Secret ${ROSA_IDENTITY_SECRET} as the ECS bootstrap task creates it; api_target_group_arn is a Terraform output fleetplan cannot read (shown as a placeholder)`,
        repoURL
          ? `git_repo is the repository's origin remote (${repoURL}); the pipeline passes its own REPOSITORY_URL`
          : 'git_repo is the REPOSITORY_URL the pipeline passes, which the repository does not record (shown as a placeholder; every repoURL is read from this repository)',
      ];
      clusters.push({
        name: m.name,
        file: rdFile,
        metadata: { name: m.name },
        spec,
        notes,
        identity,
        ownBootstrap: ecsBootstrap(gen.rootPath(dir, m.type), branch, repoURL ?? TERRAFORM_OUTPUT('repository_url')),
        rootApplicationSet: { file: appSetFile, object: appSet },
        ...(revisionPin !== undefined ? { revisionPin: { revision: revisionPin, origin: { file: rd.revisionFile ?? rdFile, path: rd.revisionPath ?? [...rd.path, 'revision'] } } } : {}),
      });
    }
  }
  findings.push(...orphanRenders(fs, known));
  const name = (fs.root.split('/').filter(Boolean).pop() ?? 'rosa-regional').toLowerCase().replace(/[^a-z0-9-]/g, '-');
  const fleet: Fleet = {
    ...emptyFleet(fs.root, 'rosa-regional', ARGOCD_REPOSITORY_CAPABILITIES),
    name,
    file: configFile,
    repoURL: repoURL ?? TERRAFORM_OUTPUT('repository_url'),
    revision: branch,
    platform: 'kubernetes',
    delivery: 'applicationset',
    gitopsNamespace: 'argocd',
    sectors: inputs.sectors,
    clusters,
    sources,
    loadFindings: findings,
    manifestFiles: manifestFiles.sort(),
  };
  return { fleet, findings };
}

/**
 * What the repository's ECS bootstrap task (terraform/modules/ecs-bootstrap, started by Terraform
 * through scripts/bootstrap-argocd.sh) does on each cluster, for the plan (ADR 0285). fleetplan
 * does not run it; `render --out` writes what it applies, the identity Secret and the root
 * Application, under bootstrap/, and nothing of fleetplan's own bootstrap (ADR 0299).
 */
function ecsBootstrap(manifests: string, branch: string, repoURL: string): NonNullable<ClusterDef['ownBootstrap']> {
  return {
    // As the task's `kubectl apply` writes it (terraform/modules/ecs-bootstrap/main.tf).
    rootApplication: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'root', namespace: 'argocd' },
      spec: {
        destination: { namespace: 'argocd', server: 'https://kubernetes.default.svc' },
        project: 'default',
        source: { repoURL, targetRevision: branch, path: manifests },
        syncPolicy: { automated: { prune: false, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
      },
    },
    by: 'ECS bootstrap task',
    steps: [
      {
        file: 'ECS task: Argo CD',
        description: 'helm upgrade --install argocd argo/argo-cd in namespace argocd (the chart version the task pins), unless argocd-server exists; waits: Deployments argocd-server, argocd-repo-server, argocd-applicationset-controller available',
        objects: [],
      },
      {
        file: 'ECS task: identity',
        description: `Secret argocd/${ROSA_IDENTITY_SECRET}, the cluster's identity (render --out: bootstrap/30-cluster-identity.yaml)`,
        objects: [`Secret/argocd/${ROSA_IDENTITY_SECRET}`],
      },
      {
        file: 'ECS task: root',
        description: `Application argocd/root reading ${manifests} at ${branch} (REPOSITORY_BRANCH), automated with selfHeal, no prune: the ApplicationSet there (render --out: bootstrap/90-root-application.yaml)`,
        objects: ['Application/argocd/root'],
      },
    ],
    notes: [
      'this repository bootstraps each cluster itself: Terraform runs the ECS Fargate task of terraform/modules/ecs-bootstrap in the private subnets (scripts/bootstrap-argocd.sh), which does the steps below; fleetplan bootstrap does not run it',
    ],
  };
}

function readApplicationSet(fs: RepoFileSystem, file: string, findings: Finding[]): Record<string, unknown> | undefined {
  const parsed = parseYamlSource(file, fs.readText(file));
  findings.push(...parsed.findings);
  const v = parsed.source?.value;
  if (!isPlainObject(v) || v['kind'] !== 'ApplicationSet' || !isPlainObject(v['spec'])) {
    findings.push({
      severity: 'error',
      code: 'rosa-not-rendered',
      message: `${file} is not an ApplicationSet (kind: ${isPlainObject(v) ? String(v['kind']) : typeof v})`,
      file,
      line: 1,
      hint: 'run scripts/render.py and commit deploy/',
    });
    return undefined;
  }
  return v;
}

/** deploy/<env>/<region> folders no region deployment of config.yaml renders: found, not read. */
function orphanRenders(fs: RepoFileSystem, known: ReadonlySet<string>): Finding[] {
  const out: Finding[] = [];
  for (const env of fs.list(ROSA_DEPLOY_DIR).sort()) {
    if (env.startsWith('.') || !fs.isDirectory(`${ROSA_DEPLOY_DIR}/${env}`)) continue;
    for (const region of fs.list(`${ROSA_DEPLOY_DIR}/${env}`).sort()) {
      if (!fs.isDirectory(`${ROSA_DEPLOY_DIR}/${env}/${region}/argocd`) || known.has(`${env}/${region}`)) continue;
      out.push({
        severity: 'warning',
        code: 'rosa-orphan-render',
        message: `${ROSA_DEPLOY_DIR}/${env}/${region}/argocd is not rendered from any region deployment of ${ROSA_CONFIG_FILE}: not read`,
        file: `${ROSA_DEPLOY_DIR}/${env}/${region}/argocd`,
        hint: 'remove the folder, or add the region deployment to config.yaml and run scripts/render.py',
      });
    }
  }
  return out;
}

/**
 * Files that look like a ROSA Regional Platform layout, of any generation (ADR 0196's markers):
 * a config.yaml with `environments:` and region deployments or sectors, argocd/config.yaml with
 * argocd/rendered/, config/defaults.yaml with deploy/. A plain `config.yaml` is not one.
 */
export function rosaMarkers(fs: RepoFileSystem): string[] {
  const out: string[] = [];
  if (fs.exists(ROSA_CONFIG_FILE)) {
    let text = '';
    try {
      text = fs.readText(ROSA_CONFIG_FILE);
    } catch {
      text = '';
    }
    if (/^environments:/m.test(text) && /^\s+(region_deployments|sectors):/m.test(text)) out.push(ROSA_CONFIG_FILE);
  }
  if (fs.exists('argocd/config.yaml') && fs.isDirectory('argocd/rendered')) out.push('argocd/config.yaml');
  if (fs.exists('config/defaults.yaml') && fs.isDirectory(ROSA_DEPLOY_DIR)) out.push('config/defaults.yaml');
  return out;
}

/**
 * What a folder that is almost this layout has instead, for the "not a fleet repository"
 * message: config.yaml without environments or without deploy/, or another generation of the
 * ROSA Regional Platform's layout (argocd/config.yaml `shards:` with argocd/rendered/; config/
 * folders with deploy/<env>/<region>/argocd-bootstrap-*), which this reader does not read.
 */
export function rosaLookalike(fs: RepoFileSystem): { what: string; hint: string } | undefined {
  const expected = `fleetplan's rosa-regional layout is ${ROSA_CONFIG_FILE} with environments: <env>: region_deployments: <aws-region>: (or sectors:) and the rendered ${ROSA_DEPLOY_DIR}/<env>/<region>/argocd/`;
  if (fs.exists(ROSA_CONFIG_FILE) && !fs.exists(FLEET_FILE)) {
    let config: unknown;
    try {
      config = parseYaml(fs.readText(ROSA_CONFIG_FILE), { schema: 'core' });
    } catch {
      return undefined;
    }
    if (!isPlainObject(config)) return undefined;
    if (isPlainObject(config['environments']) && !fs.isDirectory(ROSA_DEPLOY_DIR)) {
      return { what: `${ROSA_CONFIG_FILE} defines environments, but there is no ${ROSA_DEPLOY_DIR}/ folder of rendered ApplicationSets`, hint: `render it (scripts/render.py) and commit ${ROSA_DEPLOY_DIR}/; ${expected}` };
    }
    if (fs.isDirectory(ROSA_DEPLOY_DIR) && ('region_deployments' in config || 'shards' in config || 'defaults' in config)) {
      return { what: `${ROSA_CONFIG_FILE} has no environments map (it has ${Object.keys(config).join(', ')})`, hint: expected };
    }
  }
  if (fs.exists('argocd/config.yaml') && fs.isDirectory('argocd/rendered')) {
    return {
      what: 'argocd/config.yaml with argocd/rendered/ is an earlier ROSA Regional Platform layout, which fleetplan does not read',
      hint: `${expected}; one rendered ApplicationSet can still be evaluated: fleetplan appset argocd/rendered/<env>/<region>/<cluster-type>-manifests/applicationset.yaml --clusters FILE`,
    };
  }
  if (fs.isDirectory('config') && fs.exists('config/defaults.yaml') && fs.isDirectory(ROSA_DEPLOY_DIR)) {
    return {
      what: `config/defaults.yaml with ${ROSA_DEPLOY_DIR}/ is the later ROSA Regional Platform layout, but no config/<env>/<region>.yaml declares a region deployment (or config/defaults.yaml is not a YAML map)`,
      hint: `add config/<env>/<aws-region>.yaml (provision_mcs: {mc01: {}}), run scripts/render.py and commit ${ROSA_DEPLOY_DIR}/; or use the earlier layout: ${expected}`,
    };
  }
  return undefined;
}
