/**
 * The later generation of the ROSA Regional Platform layout (rosa-regional-platform after early
 * 2026): no config.yaml, but `config/defaults.yaml` → `config/<env>/defaults.yaml` →
 * `config/<env>/<aws-region>.yaml`, deep-merged by scripts/render.py (dicts merged key by key, any
 * other value replaced, the most specific file winning), rendered into
 * `deploy/<env>/<region>/argocd-values-<type>.yaml`,
 * `deploy/<env>/<region>/argocd-bootstrap-<type>/applicationset.yaml` and the pipeline inputs.
 *
 * Mapping (docs/adr/0299-render-writes-the-repository-own-bootstrap.md, "The config/ generation"):
 *   - each `config/<env>/<region>.yaml` is one region deployment: one regional cluster and one
 *     management cluster per key of the merged `provision_mcs`;
 *   - cluster_name is the id render.py wrote into deploy/…/pipeline-provisioner-inputs
 *     (`regional_id`, `management_id`: the EKS cluster's name, Terraform's `cluster_id`), else the key;
 *   - the revision is the merged `git.revision`; an environment is the sector, pinned when its
 *     own merged revision is not `main`;
 *   - the ECS task's identity Secret and root Application (REPOSITORY_PATH
 *     `deploy/<env>/<region>/argocd-bootstrap-<type>`), Terraform outputs shown as such.
 */
import type { Finding } from '../../model/finding.js';
import type { SectorSpec } from '../../model/spec.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import type { SourceFile } from '../../model/source.js';
import { parseYamlSource } from '../../yaml/source.js';
import { parseYaml } from '../../yaml/index.js';
import { isPlainObject } from '../../model/merge.js';
import type { RegionDeployment, RosaGeneration } from './reader.js';
import { ROSA_DEFAULT_BRANCH, ROSA_DEPLOY_DIR, buildRosaFleet, clusterTypes } from './reader.js';

export const ROSA_CONFIG_DIR = 'config';
export const ROSA_CONFIG_DEFAULTS = 'config/defaults.yaml';

/** What render.py's ECS bootstrap task annotates from Terraform outputs in this generation, besides api_target_group_arn. */
const TERRAFORM_ANNOTATIONS = [
  'thanos_kms_key_arn',
  'thanos_target_group_arn',
  'thanos_query_target_group_arn',
  'loki_kms_key_arn',
  'loki_distributor_target_group_arn',
  'loki_query_frontend_target_group_arn',
  'aws_account_id',
  'management_clusters',
  'rhobs_api_url',
  'dns_zone_operator_role_arn',
  'zoa_table_name',
  'zoa_audit_table_name',
  'zoa_bucket_name',
] as const;

export const CONFIG_DIR_GENERATION: RosaGeneration = {
  deployDir: (env, region) => `${ROSA_DEPLOY_DIR}/${env}/${region}`,
  appSetFile: (dir, type) => `${dir}/argocd-bootstrap-${type}/applicationset.yaml`,
  valuesFile: (dir, type) => `${dir}/argocd-values-${type}.yaml`,
  rootPath: (dir, type) => `${dir}/argocd-bootstrap-${type}`,
  terraformAnnotations: TERRAFORM_ANNOTATIONS,
};

const asMap = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/** render.py's deep_merge: dicts merged key by key, any other value replaced by the overlay's. */
export function renderDeepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) out[k] = isPlainObject(out[k]) && isPlainObject(v) ? renderDeepMerge(out[k], v) : v;
  return out;
}

/** The environments (folders of config/ other than templates/) and their region files. */
function environments(fs: RepoFileSystem): { env: string; regions: string[] }[] {
  const out: { env: string; regions: string[] }[] = [];
  for (const env of fs.list(ROSA_CONFIG_DIR).sort()) {
    if (env.startsWith('.') || env === 'templates' || !fs.isDirectory(`${ROSA_CONFIG_DIR}/${env}`)) continue;
    const regions = fs.list(`${ROSA_CONFIG_DIR}/${env}`).filter((f) => /\.ya?ml$/.test(f) && !/^defaults\.ya?ml$/.test(f) && !fs.isDirectory(`${ROSA_CONFIG_DIR}/${env}/${f}`)).sort();
    if (regions.length > 0) out.push({ env, regions });
  }
  return out;
}

/** config/defaults.yaml, a deploy/ folder, and at least one config/<env>/<region>.yaml. */
export function detectRosaConfigDir(fs: RepoFileSystem): boolean {
  if (!fs.exists(ROSA_CONFIG_DEFAULTS) || !fs.isDirectory(ROSA_DEPLOY_DIR)) return false;
  try {
    if (!isPlainObject(parseYaml(fs.readText(ROSA_CONFIG_DEFAULTS), { schema: 'core' }))) return false;
  } catch {
    return false;
  }
  return environments(fs).length > 0;
}

/** A rendered pipeline input's id (regional_id, management_id), when render.py wrote the file. */
function renderedId(fs: RepoFileSystem, file: string, key: string): string | undefined {
  if (!fs.exists(file)) return undefined;
  try {
    const v = JSON.parse(fs.readText(file)) as unknown;
    return isPlainObject(v) && typeof v[key] === 'string' && v[key] !== '' ? v[key] : undefined;
  } catch {
    return undefined;
  }
}

export function loadRosaConfigDir(fs: RepoFileSystem): LoadResult {
  const findings: Finding[] = [];
  const sources = new Map<string, SourceFile>();
  const read = (file: string): { source: SourceFile; value: Record<string, unknown> } | undefined => {
    if (!fs.exists(file)) return undefined;
    const parsed = parseYamlSource(file, fs.readText(file));
    findings.push(...parsed.findings);
    if (!parsed.source) return undefined;
    sources.set(file, parsed.source);
    return { source: parsed.source, value: asMap(parsed.source.value) };
  };
  const defaults = read(ROSA_CONFIG_DEFAULTS)!;
  const rds: RegionDeployment[] = [];
  const sectors: SectorSpec[] = [];
  const revisionOf = (v: Record<string, unknown>): string | undefined => {
    const r = asMap(v['git'])['revision'];
    return typeof r === 'string' && r !== '' ? r : undefined;
  };
  for (const { env, regions } of environments(fs)) {
    const envFile = [`${ROSA_CONFIG_DIR}/${env}/defaults.yaml`, `${ROSA_CONFIG_DIR}/${env}/defaults.yml`].find((f) => fs.exists(f));
    const envDefaults = envFile ? read(envFile) : undefined;
    const envMerged = renderDeepMerge(defaults.value, envDefaults?.value ?? {});
    const envRevision = revisionOf(envMerged);
    sectors.push(envRevision !== undefined && envRevision !== ROSA_DEFAULT_BRANCH ? { name: env, revision: envRevision } : { name: env });
    for (const file of regions) {
      const path = `${ROSA_CONFIG_DIR}/${env}/${file}`;
      const region = file.replace(/\.ya?ml$/, '');
      const own = read(path);
      if (!own) continue;
      const merged = renderDeepMerge(envMerged, own.value);
      // The most specific file that sets git.revision is where a pin is changed.
      const revisionFile = [own, envDefaults, defaults].find((x) => x !== undefined && revisionOf(x.value) !== undefined)?.source.file;
      const mcs = Object.keys(asMap(merged['provision_mcs']));
      const inputs = `${ROSA_DEPLOY_DIR}/${env}/${region}/pipeline-provisioner-inputs`;
      const management: Record<string, string> = {};
      for (const mc of mcs) {
        const id = renderedId(fs, `${inputs}/management-cluster-${mc}.json`, 'management_id');
        if (id !== undefined) management[mc] = id;
      }
      const regional = renderedId(fs, `${inputs}/regional-cluster.json`, 'regional_id');
      rds.push({
        environment: env,
        sector: env,
        region,
        revision: revisionOf(merged),
        managementClusters: mcs,
        path: [],
        source: own.source,
        revisionPath: ['git', 'revision'],
        ...(revisionFile !== undefined ? { revisionFile } : {}),
        ids: { regional: regional ?? 'regional', management },
      });
    }
  }
  return buildRosaFleet(fs, { rds, types: clusterTypes(fs), source: defaults.source, sources, findings, gen: CONFIG_DIR_GENERATION, configFile: ROSA_CONFIG_DEFAULTS, sectors });
}
