/**
 * Validated Patterns against the real clustergroup chart (ADR 0324): for each cluster group of a
 * real pattern, the Applications, AppProjects, Namespaces, OperatorGroups and OLM Subscriptions
 * fleetplan renders equal `helm template` of the clustergroup chart with values-global.yaml,
 * values-<group>.yaml and the operator's parameters, object for object, except what fleetplan
 * says it leaves out: the helm parameters and value files that only the operator knows per
 * cluster (given here as the marker ZZINJECTED and dropped from the chart's output).
 *
 * The chart's templates are not in the shared data (realrepos/validatedpatterns__clustergroup-chart
 * holds its Chart.yaml and values only): they are read from a git clone of
 * validatedpatterns/clustergroup-chart and of its dependency vp-rbac ($FLEETPLAN_VP_CHART_GIT and
 * $FLEETPLAN_VP_RBAC_GIT, default the local mirrors); the test says which is missing and skips.
 * Patterns: realrepos/validatedpatterns__multicloud-gitops, and the mirrors of PATTERNS at HEAD
 * when present ($FLEETPLAN_VP_PATTERNS_GIT, a colon-separated list of git dirs).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { cli } from '../../support/fleet-fixture.js';
import { realRepo } from '../../support/shared.js';
import type { PlanJson } from '../../support/plan-json.js';
import { CHART_PARAMETERS } from '../../../src/layouts/validated-patterns/reader.js';
import { loadFleet } from '../../../src/index.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../../helpers/tools.js';

const MIRROR = '/work/.mirror';
const chartGit = () => process.env.FLEETPLAN_VP_CHART_GIT ?? join(MIRROR, 'validatedpatterns+clustergroup-chart', 'repo');
const rbacGit = () => process.env.FLEETPLAN_VP_RBAC_GIT ?? join(MIRROR, 'validatedpatterns+vp-rbac-chart', 'repo');
/** Mirrors (`<owner>+<name>/repo`) of patterns of different authors, ages and shapes; those present are compared. */
const PATTERNS = [
  'validatedpatterns/multicloud-gitops', 'validatedpatterns/industrial-edge', 'validatedpatterns/medical-diagnosis',
  'validatedpatterns/ansible-edge-gitops', 'validatedpatterns/rag-llm-gitops', 'validatedpatterns/retail', 'validatedpatterns/travelops',
  'validatedpatterns/mlops-fraud-detection', 'validatedpatterns/layered-zero-trust', 'validatedpatterns/emerging-disease-detection',
  'validatedpatterns-sandbox/federated-edge-observability', 'validatedpatterns-sandbox/hypershift',
];
const patternGits = () => (process.env.FLEETPLAN_VP_PATTERNS_GIT ?? PATTERNS.map((p) => join(MIRROR, p.replace('/', '+'), 'repo')).join(':')).split(':').filter((d) => d && existsSync(d));

const MARK = 'ZZINJECTED';
/** The operator's parameters as the test gives them: the ones fleetplan knows, and a marker for the others. */
function operatorParameters(pattern: string, repoURL: string, revision: string): string[] {
  return [
    `global.pattern=${pattern}`, 'global.namespace=patterns-operator', `global.repoURL=${repoURL}`, `global.targetRevision=${revision}`,
    'global.vpArgoNamespace=vp-gitops', 'global.multiSourceSupport=true', 'global.multiSourceRepoUrl=https://charts.validatedpatterns.io/',
    'global.multiSourceTargetRevision=0.9.*', `global.clusterPlatform=${MARK}`, `global.clusterVersion=${MARK}`, `global.localClusterName=${MARK}`,
    `global.hubClusterDomain=${MARK}`, `global.localClusterDomain=${MARK}`, `global.clusterDomain=${MARK}`,
  ];
}

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: Record<string, unknown> };
const KINDS = new Set(['Application', 'ApplicationSet', 'AppProject', 'Namespace', 'OperatorGroup', 'Subscription']);
/** Sorted keys; a field set to null is a field not set (the chart writes `spec:` on a Namespace; the API server stores neither). */
const canon = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canon)
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== null).map((k) => [k, canon((v as Record<string, unknown>)[k])]))
      : v;
const keyOf = (o: Obj) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The chart's output minus what fleetplan says it leaves out: the operator's own parameters and the value files named after them. */
function withoutInjected(o: Obj, leftOut: ReadonlySet<string>): Obj {
  const strip = (helm: Record<string, unknown> | undefined) => {
    if (!helm) return;
    if (Array.isArray(helm.parameters)) {
      helm.parameters = (helm.parameters as { name: string; value: unknown }[]).filter((p) => !leftOut.has(p.name) && !String(p.value).includes(MARK));
    }
    if (Array.isArray(helm.valueFiles)) helm.valueFiles = (helm.valueFiles as string[]).filter((f) => !f.includes(MARK));
  };
  const spec = o.spec as { source?: { helm?: Record<string, unknown> }; sources?: { helm?: Record<string, unknown> }[] } | undefined;
  strip(spec?.source?.helm);
  for (const s of spec?.sources ?? []) strip(s.helm);
  return o;
}

function objectsOf(text: string): Obj[] {
  return parseAllDocuments(text).map((d) => d.toJS({}) as Obj | null).filter((o): o is Obj => o !== null && typeof o === 'object' && KINDS.has(o.kind));
}

/** git archive of a bare (or normal) git dir's HEAD into dir. */
function checkout(git: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync('git', ['--git-dir', git, 'archive', 'HEAD'], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
}

async function compare(repo: string, chart: string, home: string): Promise<number> {
  const { helm, kubectl } = requireTools();
  const plan = JSON.parse((await cli(['plan', '--repo', repo, '-o', 'json'])).stdout) as PlanJson;
  const { fleet } = loadFleet(repo);
  let compared = 0;
  for (const c of plan.clusters) {
    const r = await cli(['render', '--repo', repo, '--cluster', c.name, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const rendered = (JSON.parse(r.stdout) as { items: Obj[] }).items;
    const values = [join(repo, 'values-global.yaml'), ...(existsSync(join(repo, `values-${c.name}.yaml`)) ? [join(repo, `values-${c.name}.yaml`)] : [])];
    const raw = execFileSync(helm, [
      'template', 'clustergroup', chart, ...values.flatMap((v) => ['--values', v]),
      ...operatorParameters(fleet.name, fleet.repoURL, fleet.revision).flatMap((p) => ['--set-string', p]),
      // A managed group's clustergroup Application (acm chart, application-policies.yaml) also passes clusterGroup.name.
      ...(c.role === 'spoke' ? ['--set-string', `clusterGroup.name=${c.name}`] : []),
    ], { encoding: 'utf8', env: toolEnv(home), maxBuffer: 1 << 26 });
    // The chart writes some fields as multi-line JSON at column 0 (`ignoreDifferences: [` + toPrettyJson), which Go's
    // YAML reader (Argo CD's, kustomize's) accepts and YAML 1.2 does not: read it through kustomize, as Go reads it.
    const kz = join(home, '..', `kz-${basename(repo)}-${c.name}`);
    mkdirSync(kz, { recursive: true });
    writeFileSync(join(kz, 'all.yaml'), raw);
    writeFileSync(join(kz, 'kustomization.yaml'), 'resources:\n- all.yaml\n');
    const text = execFileSync(kubectl, ['kustomize', kz], { encoding: 'utf8', env: toolEnv(home), maxBuffer: 1 << 26 });
    // The apps' own extra domain fields carry the hub's or the cluster's domain: left out like the chart's parameters.
    const leftOut = new Set<string>(CHART_PARAMETERS.filter((p) => p !== 'global.pattern' && p !== 'global.namespace'));
    const expected = new Map(objectsOf(text).map((o) => [keyOf(o), JSON.stringify(canon(withoutInjected(o, leftOut)))]));
    // fleetplan's objects of this cluster: its Applications (not the apps fleetplan adds to hold the chart's
    // Namespaces and Subscriptions, which it renders as objects of their own), AppProjects, and those objects.
    const mine = new Map<string, string>();
    const generated = new Set(c.apps.filter((a) => a.source.path?.startsWith('rendered/')).map((a) => a.name));
    for (const o of rendered) {
      if (!KINDS.has(o.kind)) continue;
      if (o.kind === 'Application' && (generated.has(o.metadata.name) || !c.apps.some((a) => a.name === o.metadata.name))) continue;
      mine.set(keyOf(o), JSON.stringify(canon(o)));
    }
    // Namespaces, OperatorGroups and Subscriptions of this cluster: from its rendered/<cluster>/clustergroup sources.
    const out = tempDir('vp-chart-out');
    try {
      await cli(['render', '--repo', repo, '--cluster', c.name, '--out', out]);
      const dir = join(out, c.name, 'clustergroup');
      for (const app of generated) {
        const k = readFileSync(join(dir, app, 'kustomization.yaml'), 'utf8');
        for (const f of [...k.matchAll(/^ {2}- (.+\.yaml)$/gm)].map((m) => m[1]!)) {
          for (const o of objectsOf(readFileSync(join(dir, app, f), 'utf8'))) mine.set(keyOf(o), JSON.stringify(canon(o)));
        }
      }
    } finally {
      removeDir(out);
    }
    const label = `${basename(repo)}/${c.name}`;
    assert.deepEqual([...mine.keys()].sort(), [...expected.keys()].sort(), `${label}: the objects`);
    for (const [k, v] of expected) assert.deepEqual(JSON.parse(mine.get(k)!), JSON.parse(v), `${label}: ${k}`);
    compared += expected.size;
  }
  return compared;
}

test('Validated Patterns: the objects fleetplan renders equal helm template of the clustergroup chart, per cluster group', async (t) => {
  if (!existsSync(chartGit()) || !existsSync(rbacGit())) {
    t.skip(`the clustergroup chart's templates are not here: ${[chartGit(), rbacGit()].filter((d) => !existsSync(d)).join(', ')} (set FLEETPLAN_VP_CHART_GIT / FLEETPLAN_VP_RBAC_GIT to git clones of validatedpatterns/clustergroup-chart and vp-rbac-chart)`);
    return;
  }
  const dir = tempDir('vp-chart');
  try {
    const chart = join(dir, 'clustergroup');
    checkout(chartGit(), chart);
    checkout(rbacGit(), join(chart, 'charts', 'vp-rbac'));
    const repos = [realRepo('validatedpatterns__multicloud-gitops')];
    for (const git of patternGits()) {
      const base = basename(git.replace(/\/repo$/, ''));
      const [owner, name] = base.includes('+') ? (base.split('+') as [string, string]) : ['validatedpatterns', base];
      // A clone with its origin on GitHub, as a user has it: the installer passes that origin (ADR 0342).
      const into = join(dir, 'patterns', name);
      execFileSync('git', ['clone', '-q', git, into]);
      execFileSync('git', ['-C', into, 'remote', 'set-url', 'origin', `https://github.com/${owner}/${name}.git`]);
      repos.push(into);
    }
    // Every pattern compared, then every difference reported at once.
    const failures: string[] = [];
    for (const repo of repos) {
      try {
        const n = await compare(repo, chart, join(dir, 'home'));
        assert.ok(n > 0, `${repo}: nothing compared`);
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    assert.deepEqual(failures, []);
  } finally {
    removeDir(dir);
  }
});
