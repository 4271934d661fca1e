/**
 * Leaf rendering of a Flux Kustomization, as kustomize-controller builds it (fluxcd/pkg kustomize):
 *
 * 1. the kustomization.yaml of `spec.path` — the repository's own, or, when there is none, one
 *    Flux generates listing every YAML file and every subdirectory that has a kustomization
 *    (`scanManifests`, which does not descend into those) — amended with the Kustomization's
 *    `targetNamespace`, `namePrefix`, `nameSuffix`, `patches`, `components`, `patchesStrategicMerge`,
 *    `patchesJson6902` and `images` (`GenerateManifest`);
 * 2. `kustomize build` of it with `--load-restrictor LoadRestrictionsNone` and without Helm (Flux
 *    does not enable kustomize's helmCharts);
 * 3. post-build substitution per object (`SubstituteVariables`): skipped for objects labelled or
 *    annotated `kustomize.toolkit.fluxcd.io/substitute: disabled`, and when the Kustomization defines
 *    no variable (unless `substituteStrategy: Always`); otherwise Flux's envsubst
 *    (model/flux-substitute.ts), unset variables empty, or an error under the strict gate;
 * 4. the Kustomization's `commonMetadata` labels and annotations on every object (applyCommonMetadata).
 *
 * Then each HelmRelease of the output is a chart to render (helmReleaseCharts): the chart and
 * version from its `chartRef` (OCIRepository) or `chart.spec` (HelmRepository, GitRepository),
 * values from `valuesFrom` ConfigMaps/Secrets of the output or repository, then `values`.
 */
import { isPlainObject as isObj, deepMerge, clone } from '../../model/merge.js';
import { fluxSubstitute } from '../../model/flux-substitute.js';
import { fluxSourceIgnored } from '../../model/flux-source-ignore.js';
import { kubeConfigTarget } from '../../model/k8s.js';
import { dumpYaml, parseYamlAll, withNumbers } from '../../yaml/index.js';
import { helmHookEvents } from './helm-hooks.js';

type Obj = Record<string, unknown>;

export const FLUX_BUILD_FLAGS: readonly string[] = ['--load-restrictor', 'LoadRestrictionsNone'];
export const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/**
 * Resources of the kustomization Flux generates for a directory without one: every subdirectory
 * that has a kustomization file (not descended into) and every `.yaml`/`.yml` file elsewhere, as
 * `./relative` paths in walk order. `files` are every file under `dir`, relative to it.
 */
export function generatedResources(all: readonly string[], ignored: (file: string) => boolean = fluxSourceIgnored): string[] {
  // The artifact holds no file that source-controller excludes (`.sops.yaml`, `.github/`,
  // `.sourceignore` and spec.ignore patterns: `ignored`, given the path relative to the folder).
  const files = all.filter((f) => !ignored(f));
  const kdirs = new Set<string>();
  for (const f of files) {
    const i = f.lastIndexOf('/');
    if (i > 0 && KUSTOMIZATION_NAMES.includes(f.slice(i + 1))) kdirs.add(f.slice(0, i));
  }
  // Outermost kustomization directories only (scanManifests skips what is below them).
  const tops = [...kdirs].filter((d) => ![...kdirs].some((o) => o !== d && d.startsWith(`${o}/`)));
  const entries: string[] = [...tops];
  for (const f of files) {
    if (!/\.ya?ml$/.test(f)) continue;
    if (tops.some((d) => f.startsWith(`${d}/`))) continue;
    entries.push(f);
  }
  // filepath.Walk visits each directory's entries in lexical order.
  const key = (p: string) => p.split('/');
  entries.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return x.length - y.length;
  });
  return entries.map((e) => `./${e}`);
}

/** The kustomization.yaml Flux builds: `base` (the directory's own, or generated) amended with the Kustomization's fields. */
export function fluxKustomizationFile(base: Obj | undefined, generated: readonly string[] | undefined, ks: Obj, componentExists: (c: string) => boolean): Obj {
  const kus: Obj = base ? clone(base) : { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' };
  if (!base) {
    if (generated && generated.length > 0) kus.resources = [...generated];
    else kus.namespace = '_placeholder';
  } else {
    kus.apiVersion ??= 'kustomize.config.k8s.io/v1beta1';
    kus.kind ??= 'Kustomization';
  }
  const spec = isObj(ks.spec) ? ks.spec : {};
  if (typeof spec.targetNamespace === 'string') kus.namespace = spec.targetNamespace;
  if (typeof spec.namePrefix === 'string') kus.namePrefix = spec.namePrefix;
  if (typeof spec.nameSuffix === 'string') kus.nameSuffix = spec.nameSuffix;
  const list = (k: string): unknown[] => (Array.isArray(kus[k]) ? (kus[k] as unknown[]) : []);
  if (Array.isArray(spec.patches) && spec.patches.length) kus.patches = [...list('patches'), ...spec.patches.map((p) => clone(p))];
  if (Array.isArray(spec.components) && spec.components.length) {
    const ignoreMissing = spec.ignoreMissingComponents === true;
    const comps = spec.components.filter((c): c is string => typeof c === 'string' && (!ignoreMissing || componentExists(c)));
    if (comps.length) kus.components = [...list('components'), ...comps];
  }
  if (Array.isArray(spec.patchesStrategicMerge) && spec.patchesStrategicMerge.length) {
    kus.patchesStrategicMerge = [...list('patchesStrategicMerge'), ...spec.patchesStrategicMerge.map((p) => (typeof p === 'string' ? p : dumpYaml(p)))];
  }
  if (Array.isArray(spec.patchesJson6902) && spec.patchesJson6902.length) {
    kus.patchesJson6902 = [
      ...list('patchesJson6902'),
      ...spec.patchesJson6902.filter(isObj).map((p) => ({ target: p.target, patch: JSON.stringify(p.patch) })),
    ];
  }
  if (Array.isArray(spec.images) && spec.images.length) {
    const images = list('images').filter(isObj).map((i) => clone(i));
    for (const img of spec.images.filter(isObj)) {
      const at = images.find((i) => i.name === img.name);
      if (at) {
        // Flux overrides only the fields the Kustomization sets (newName; newTag and digest together).
        if (img.newName !== undefined) at.newName = img.newName;
        if (img.newTag !== undefined || img.digest !== undefined) {
          at.newTag = img.newTag;
          at.digest = img.digest;
          if (at.newTag === undefined) delete at.newTag;
          if (at.digest === undefined) delete at.digest;
        }
      } else images.push(clone(img));
    }
    kus.images = images;
  }
  return kus;
}

export interface FluxSubstitution {
  vars: Record<string, string>;
  /** Names whose values come from Secrets: written as a redaction marker, never printed. */
  secret: ReadonlySet<string>;
  active: boolean;
  /** kustomize-controller's StrictPostBuildSubstitutions gate (ADR 0411): an unset variable without a default fails. */
  strict?: boolean;
}

/**
 * The text written for a variable whose value comes from a Secret: letters, digits and `_` only,
 * so that it is a valid YAML scalar wherever the variable stands.
 */
export function redacted(name: string): string {
  return `REDACTED_SECRET_${name}`;
}

/** Splits a YAML stream into documents (texts), dropping empty ones. */
export function splitDocuments(text: string): string[] {
  return text
    .split(/^---[ \t]*$/m)
    .map((d) => d.replace(/^\n+/, ''))
    .filter((d) => d.trim() !== '');
}

/** Post-build substitution of a build's output, object by object, as Flux does it. */
export function substituteFluxStream(text: string, sub: FluxSubstitution): string {
  if (!sub.active) return text;
  const lookup = (n: string) => (sub.secret.has(n) ? redacted(n) : sub.vars[n]);
  return splitDocuments(text)
    .map((doc) => {
      const obj = parseYamlAll(doc, { schema: 'core' })[0];
      const meta = isObj(obj) && isObj(obj.metadata) ? obj.metadata : {};
      const flag = 'kustomize.toolkit.fluxcd.io/substitute';
      const disabled = (isObj(meta.labels) && meta.labels[flag] === 'disabled') || (isObj(meta.annotations) && meta.annotations[flag] === 'disabled');
      return disabled ? doc : fluxSubstitute(doc, lookup, undefined, (n) => sub.secret.has(n), { strict: sub.strict === true });
    })
    .map((d) => `---\n${d.endsWith('\n') ? d : `${d}\n`}`)
    .join('');
}

/**
 * A Flux Kustomization's `spec.commonMetadata`, set on every object it applies (kustomize-controller
 * PR #817): the labels and annotations are added to `metadata` only — not to pod templates or
 * selectors — and a key the object already has takes the common value. The charts of its
 * HelmReleases are helm-controller's objects and do not get them. Returns the objects given.
 */
export function applyCommonMetadata(objects: readonly Obj[], ks: Obj): readonly Obj[] {
  const spec = isObj(ks.spec) ? ks.spec : {};
  const meta = isObj(spec.commonMetadata) ? spec.commonMetadata : undefined;
  if (!meta) return objects;
  const labels = isObj(meta.labels) ? meta.labels : {};
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  for (const o of objects) {
    if (!isObj(o.metadata)) o.metadata = {};
    const m = o.metadata as Obj;
    if (Object.keys(labels).length) m.labels = { ...(isObj(m.labels) ? m.labels : {}), ...labels };
    if (Object.keys(annotations).length) m.annotations = { ...(isObj(m.annotations) ? m.annotations : {}), ...annotations };
  }
  return objects;
}

/** A HelmRelease's chart, as far as the repository says. */
export interface ReleaseChart {
  /** `namespace/name` of the HelmRelease. */
  release: string;
  releaseName: string;
  namespace: string;
  /** Where the chart comes from, for messages: `oci://…:tag`, `https://… chart@version`, a repository path. */
  display: string;
  /** Chart name (`oci://…` for a registry) and version (exact, a tag, or a range when `range`). */
  chart?: string;
  version?: string;
  /** A Helm HTTP repository's URL (HelmRepository without `type: oci`). */
  repoURL?: string;
  /** OCIRepository `ref.digest`: the chart is pinned to this manifest digest. */
  digest?: string;
  /** The version is a semver range (or none): resolved only against the registry or index, with --fetch (ADR 0281/0301). */
  range?: boolean;
  /** `insecure: true` on the source: source-controller reaches the registry over plain HTTP (ADR 0301). */
  plainHttp?: boolean;
  /** A chart directory in this repository (GitRepository flux-system). */
  repoPath?: string;
  values: unknown;
  /** Why the chart cannot be rendered (a source not found, a valuesFrom not in the repository). */
  problem?: string;
  /** `spec.kubeConfig`: the reference (`<namespace>/<Secret name>`, model/k8s.ts) of the remote cluster helm-controller installs the chart on. */
  kubeConfig?: string;
  /** valuesFrom Secrets whose values were replaced by redaction markers (`Secret/name`). */
  redacted?: string[];
  /**
   * `valuesFiles` of the chart's spec (source-controller): merged in order, they replace the chart's
   * values.yaml. Paths are relative to the source root for a chart of this repository (`repoPath`),
   * to the chart itself for a chart from a Helm repository.
   */
  valuesFiles?: { files: string[]; ignoreMissing: boolean };
  /** Which of the chart's hooks helm-controller's actions run (ADR 0418). */
  hooks: ReleaseHooks;
  /** `spec.commonMetadata` and the origin labels, which helm-controller sets on every chart object (postRenderReleaseObjects). */
  metadata: { common: { labels?: Record<string, string>; annotations?: Record<string, string> }; origin: Record<string, string> };
  /** How many `spec.postRenderers` entries have a `kustomize` post-renderer: not applied by fleetplan. */
  postRenderers: number;
}

/** A string map of the spec (commonMetadata labels or annotations), values as the API server keeps them: strings. */
function stringMap(v: unknown): Record<string, string> | undefined {
  if (!isObj(v)) return undefined;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
}

/**
 * The chart objects as helm-controller applies them (internal/postrender BuildPostRenderers), after
 * its kustomize post-renderers, which fleetplan does not run: `spec.commonMetadata` labels, then its
 * annotations, then the origin labels `helm.toolkit.fluxcd.io/name` and `/namespace` (the
 * HelmRelease's own), each as kustomize's Label/AnnotationsTransformer with the one field spec
 * `metadata/labels` (`metadata/annotations`), created when absent. Origin labels come last and so win
 * a key collision. Helm 4 post-renders hooks too. The objects are changed in place and returned.
 */
export function postRenderReleaseObjects(objects: Obj[], rc: Pick<ReleaseChart, 'metadata'>): Obj[] {
  const { common, origin } = rc.metadata;
  const set = (o: Obj, field: 'labels' | 'annotations', values: Record<string, string> | undefined) => {
    if (values === undefined) return;
    if (!isObj(o.metadata)) o.metadata = {};
    const m = o.metadata as Obj;
    m[field] = { ...(isObj(m[field]) ? m[field] : {}), ...values };
  };
  for (const o of objects) {
    set(o, 'labels', common.labels);
    set(o, 'annotations', common.annotations);
    set(o, 'labels', origin);
  }
  return objects;
}

/**
 * The Helm hooks helm-controller runs for a HelmRelease: those of install and upgrade unless that
 * action's `disableHooks`; test hooks only through `helm test`, run when `spec.test.enable`, with
 * `spec.test.filters` by name (Helm's ReleaseTesting: excluded names out, then, when any name is
 * included, only those). Delete and rollback hooks run at no install or upgrade.
 */
export interface ReleaseHooks {
  install: boolean;
  upgrade: boolean;
  test: boolean;
  include: string[];
  exclude: string[];
}

export function releaseHooks(spec: Obj): ReleaseHooks {
  const off = (k: string) => isObj(spec[k]) && (spec[k] as Obj).disableHooks === true;
  const t = isObj(spec.test) ? spec.test : {};
  const filters = Array.isArray(t.filters) ? t.filters.filter(isObj).filter((f) => typeof f.name === 'string') : [];
  return {
    install: !off('install'),
    upgrade: !off('upgrade'),
    test: t.enable === true,
    include: filters.filter((f) => f.exclude !== true).map((f) => String(f.name)),
    exclude: filters.filter((f) => f.exclude === true).map((f) => String(f.name)),
  };
}

/**
 * Whether helm-controller puts the chart object `o` on the cluster: every manifest, and a hook when
 * one of its events is run (`true`); else why not, for the leaves' note: `test` (tests not enabled or
 * filtered out), `disabled` (disableHooks of its actions) or `other` (delete and rollback hooks).
 */
export function createdByHelmController(o: unknown, hooks: ReleaseHooks): true | 'test' | 'disabled' | 'other' {
  const events = helmHookEvents(o);
  if (events === undefined) return true;
  const name = isObj(o) && isObj(o.metadata) ? String(o.metadata.name) : '';
  const install = events.some((e) => e === 'pre-install' || e === 'post-install');
  const upgrade = events.some((e) => e === 'pre-upgrade' || e === 'post-upgrade');
  if ((install && hooks.install) || (upgrade && hooks.upgrade)) return true;
  if (events.includes('test')) {
    const tested = hooks.test && !hooks.exclude.includes(name) && (hooks.include.length === 0 || hooks.include.includes(name));
    if (tested) return true;
    if (!install && !upgrade) return 'test';
  }
  return install || upgrade ? 'disabled' : 'other';
}

/**
 * The values files source-controller merges into a chart's values.yaml (GetValuesFiles): `valuesFiles`,
 * after the deprecated `valuesFile` of the beta APIs that have it; `values.yaml` alone is the chart as
 * it is (none). A string of what is wrong when the field is not a list of paths.
 */
export function chartValuesFiles(cs: Obj, apiVersion: string): { files: string[]; ignoreMissing: boolean } | string | undefined {
  const files: string[] = [];
  if (cs.valuesFile !== undefined && cs.valuesFile !== '') {
    // Only the beta APIs have valuesFile (HelmChart v1beta1/v1beta2, HelmRelease v2beta1): v1/v2 drop it.
    if (!/\/v\d+beta\d+$/.test(apiVersion)) return `valuesFile is not a field of ${apiVersion} (the API server drops it): list the file in valuesFiles`;
    if (typeof cs.valuesFile !== 'string') return 'valuesFile is not a path';
    files.push(cs.valuesFile);
  }
  if (cs.valuesFiles !== undefined && cs.valuesFiles !== null) {
    if (!Array.isArray(cs.valuesFiles) || cs.valuesFiles.some((f) => typeof f !== 'string')) return 'valuesFiles is not a list of paths';
    files.push(...(cs.valuesFiles as string[]));
  }
  const clean = (f: string) => f.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (files.length === 0 || (files.length === 1 && clean(files[0]!) === 'values.yaml')) return undefined;
  return { files, ignoreMissing: cs.ignoreMissingValuesFiles === true };
}

/** The text that stands for a value from a Secret in rendered charts: never the value itself. */
export function redactedValue(secret: string, key: string): string {
  return `REDACTED_SECRET_${`${secret}_${key}`.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

function redactLeaves(v: unknown, secret: string, path: string): unknown {
  if (Array.isArray(v)) return v.map((x, i) => redactLeaves(x, secret, `${path}_${i}`));
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactLeaves(x, secret, path ? `${path}_${k}` : k)]));
  return v === null ? v : redactedValue(secret, path);
}

/** A `--set`-style value (Helm's strvals, typed): true/false, null and integers keep their type. */
function typedValue(s: string): unknown {
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (s === 'null') return null;
  if (/^-?(0|[1-9][0-9]{0,15})$/.test(s)) return Number(s);
  return s;
}

/** Sets `path` (dotted, `name[0]` for list items) in a copy of `values`. */
export function setPath(values: unknown, path: string, value: unknown): unknown {
  const out = isObj(values) ? clone(values) : {};
  const segs: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new Error(`targetPath ${path} is not a path fleetplan reads`);
    if (m[1]) segs.push(m[1]);
    for (const i of m[2]!.matchAll(/\[(\d+)\]/g)) segs.push(Number(i[1]));
  }
  let at: any = out;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    const nextIsIndex = typeof segs[i + 1] === 'number';
    if (last) at[seg] = value;
    else {
      if (at[seg] === undefined || at[seg] === null || typeof at[seg] !== 'object') at[seg] = nextIsIndex ? [] : {};
      at = at[seg];
    }
  });
  return out;
}

/**
 * One `valuesFrom` entry as helm-controller reads it: the ConfigMap's `data` or the Secret's
 * `data` (base64) and `stringData`, key `valuesKey` (default `values.yaml`); absent object or key
 * skipped when `optional`, else a problem; with `targetPath` the text is set at that path as
 * `helm --set` would (typed), else parsed as YAML and merged. Values from a Secret are replaced by
 * redaction markers, so that no rendered file and no message holds them.
 */
export function valuesFromReference(vf: Obj, src: Obj | undefined): { problem: string } | { skip: true } | { skip?: false; value: unknown; targetPath?: string; secret: boolean } {
  const kind = vf.kind === 'Secret' ? 'Secret' : 'ConfigMap';
  const name = String(vf.name);
  const key = typeof vf.valuesKey === 'string' && vf.valuesKey !== '' ? vf.valuesKey : 'values.yaml';
  if (!src) {
    return vf.optional === true ? { skip: true } : { problem: `valuesFrom ${kind}/${name} is not in the Kustomization's output or the repository (it is created in the cluster)` };
  }
  if (isObj(src.sops)) return { problem: `valuesFrom ${kind}/${name} is SOPS-encrypted in the repository; fleetplan cannot read its values` };
  let raw: string | undefined;
  if (kind === 'Secret') {
    if (isObj(src.stringData) && src.stringData[key] !== undefined) raw = String(src.stringData[key]);
    else if (isObj(src.data) && src.data[key] !== undefined) raw = Buffer.from(String(src.data[key]), 'base64').toString('utf8');
  } else if (isObj(src.data) && src.data[key] !== undefined) raw = String(src.data[key]);
  if (raw === undefined) return vf.optional === true ? { skip: true } : { problem: `valuesFrom ${kind}/${name} has no key ${key}` };
  const secret = kind === 'Secret';
  if (typeof vf.targetPath === 'string' && vf.targetPath !== '') {
    if (/[,\\]/.test(raw) || /[\\,=]/.test(vf.targetPath)) return { problem: `valuesFrom ${kind}/${name} sets targetPath ${vf.targetPath} to a value with "," or "\\", which Helm's --set parsing splits; fleetplan does not emulate it` };
    return { value: secret ? redactedValue(name, vf.targetPath) : typedValue(raw), targetPath: vf.targetPath, secret };
  }
  let parsed: unknown;
  try {
    // As helm-controller reads a values text (sigs.k8s.io/yaml, go-yaml v2; ADR 0389).
    parsed = parseYamlAll(raw, { schema: 'kubernetes' })[0] ?? {};
  } catch (e) {
    return { problem: `valuesFrom ${kind}/${name} key ${key} is not YAML: ${secret ? 'its value is not shown' : (e as Error).message}` };
  }
  if (!isObj(parsed)) return { problem: `valuesFrom ${kind}/${name} key ${key} is not a map of values` };
  return { value: secret ? redactLeaves(parsed, name, '') : parsed, secret };
}

function find(objects: readonly Obj[], kind: string, name: string, namespace: string | undefined): Obj | undefined {
  return objects.find((o) => o.kind === kind && isObj(o.metadata) && o.metadata.name === name && (namespace === undefined || o.metadata.namespace === undefined || o.metadata.namespace === namespace));
}

/** Helm's release name default in Flux: `[targetNamespace-]name`, shortened past 53 characters. */
function defaultReleaseName(name: string, targetNamespace: string | undefined): string {
  return targetNamespace ? `${targetNamespace}-${name}` : name;
}

/**
 * The charts of the HelmReleases in `objects` (a Flux Kustomization's output). `lookup` finds a
 * ConfigMap, Secret or source in the repository when the output does not have it.
 */
export function helmReleaseCharts(objects: readonly Obj[], lookup: (kind: string, name: string, namespace: string) => Obj | undefined, selfRepository: (gitRepo: string, namespace: string) => boolean): ReleaseChart[] {
  const out: ReleaseChart[] = [];
  for (const hr of objects) {
    if (hr.kind !== 'HelmRelease' || typeof hr.apiVersion !== 'string' || !hr.apiVersion.startsWith('helm.toolkit.fluxcd.io/')) continue;
    const meta = isObj(hr.metadata) ? hr.metadata : {};
    const spec = isObj(hr.spec) ? hr.spec : {};
    const ns = typeof meta.namespace === 'string' ? meta.namespace : 'default';
    const name = String(meta.name);
    const targetNamespace = typeof spec.targetNamespace === 'string' ? spec.targetNamespace : undefined;
    const rc: ReleaseChart = {
      release: `${ns}/${name}`,
      releaseName: typeof spec.releaseName === 'string' ? spec.releaseName : defaultReleaseName(name, targetNamespace),
      namespace: targetNamespace ?? ns,
      display: '?',
      values: {},
      hooks: releaseHooks(spec),
      metadata: {
        common: isObj(spec.commonMetadata) ? { labels: stringMap(spec.commonMetadata.labels), annotations: stringMap(spec.commonMetadata.annotations) } : {},
        origin: { 'helm.toolkit.fluxcd.io/name': name, 'helm.toolkit.fluxcd.io/namespace': ns },
      },
      postRenderers: Array.isArray(spec.postRenderers) ? spec.postRenderers.filter((p) => isObj(p) && isObj(p.kustomize)).length : 0,
    };
    const get = (kind: string, n: string, namespace: string) => find(objects, kind, n, namespace) ?? lookup(kind, n, namespace);
    if (rc.releaseName.length > 53) rc.problem = `release name ${rc.releaseName} is longer than 53 characters (Flux shortens it with a hash; fleetplan does not)`;
    const remote = kubeConfigTarget(spec, ns);
    if (remote === null) rc.problem ??= 'spec.kubeConfig names neither a Secret nor a ConfigMap: helm-controller cannot reach the cluster it installs on';
    else if (remote !== undefined) rc.kubeConfig = remote;
    /** The chart of a chart.spec template, or of a HelmChart (its spec has the same fields); `srcNamespace` is where its sourceRef is looked up by default. */
    const chartFromSpec = (cs: Record<string, unknown>, srcNamespace: string, apiVersion: string): void => {
      const vf = chartValuesFiles(cs, apiVersion);
      if (typeof vf === 'string') rc.problem ??= vf;
      else if (vf) rc.valuesFiles = vf;
      const sref = isObj(cs.sourceRef) ? cs.sourceRef : {};
      const kind = String(sref.kind);
      const rns = typeof sref.namespace === 'string' ? sref.namespace : srcNamespace;
      const src = get(kind, String(sref.name), rns);
      const sspec = src && isObj(src.spec) ? src.spec : undefined;
      const chart = String(cs.chart);
      const version = typeof cs.version === 'string' ? cs.version : undefined;
      if (kind === 'GitRepository' && selfRepository(String(sref.name), rns)) {
        rc.repoPath = chart.replace(/^\.\//, '').replace(/\/+$/, '');
        rc.display = `${chart} (GitRepository ${rns}/${String(sref.name)})`;
      } else if (kind === 'HelmRepository' && sspec && typeof sspec.url === 'string') {
        rc.display = `${sspec.url} ${chart}${version ? `@${version}` : ''}`;
        // type: oci: the chart is `<url>/<chart>` in the registry (and `insecure: true` is plain HTTP there).
        const oci = sspec.type === 'oci' || sspec.url.startsWith('oci://');
        rc.chart = oci ? `${sspec.url.replace(/\/+$/, '')}/${chart}` : chart;
        if (!oci) rc.repoURL = sspec.url;
        if (oci && sspec.insecure === true) rc.plainHttp = true;
        if (version !== undefined && /^v?\d+\.\d+\.\d+([-+].*)?$/.test(version)) rc.version = version;
        else {
          if (version !== undefined) rc.version = version;
          rc.range = true;
        }
      } else {
        rc.display = `${kind} ${rns}/${String(sref.name)} ${chart}`;
        rc.problem ??= `the chart's source ${kind} ${rns}/${String(sref.name)} is not in the Kustomization's output or the repository (or is another Git repository)`;
      }
    };
    if (isObj(spec.chartRef)) {
      const ref = spec.chartRef;
      const kind = String(ref.kind);
      const rns = typeof ref.namespace === 'string' ? ref.namespace : ns;
      const src = get(kind, String(ref.name), rns);
      const sspec = src && isObj(src.spec) ? src.spec : undefined;
      if (kind === 'OCIRepository' && sspec && typeof sspec.url === 'string') {
        // source-controller: ref.digest wins over ref.semver, which wins over ref.tag; no ref is tag latest.
        const r = isObj(sspec.ref) ? sspec.ref : {};
        const digest = typeof r.digest === 'string' ? r.digest : undefined;
        const semver = digest === undefined && typeof r.semver === 'string' ? r.semver : undefined;
        const tag = digest === undefined && semver === undefined ? (typeof r.tag === 'string' ? r.tag : 'latest') : undefined;
        rc.display = `${sspec.url}${digest ? `@${digest}` : tag ? `:${tag}` : ` (semver ${semver!})`}`;
        rc.chart = sspec.url;
        if (digest !== undefined) rc.digest = digest;
        if (semver !== undefined) {
          rc.version = semver;
          rc.range = true;
        }
        if (tag !== undefined) rc.version = tag;
        // Helm reads an OCI tag as a chart version: a tag that is not one (`latest`) cannot be pulled with it.
        if (tag !== undefined && !/^v?\d+\.\d+\.\d+([-+].*)?$/.test(tag)) rc.problem ??= `OCIRepository ${rns}/${String(ref.name)} selects tag ${tag}${typeof r.tag === 'string' ? '' : ' (no ref: Flux takes latest)'}, which is not a chart version: Helm cannot pull a chart by it; pin ref.digest or a version tag`;
        if (sspec.insecure === true) rc.plainHttp = true;
        if (typeof sspec.provider === 'string' && sspec.provider !== 'generic') rc.problem ??= `OCIRepository ${rns}/${String(ref.name)} logs in with provider ${sspec.provider}, which fleetplan does not do (give the registry's login with --registry-config)`;
      } else if (kind === 'HelmChart' && sspec) {
        // A HelmChart builds its chart from its own sourceRef, in its own namespace, as a chart.spec template does.
        chartFromSpec(sspec, rns, String(src!.apiVersion));
      } else {
        rc.display = `${kind} ${rns}/${String(ref.name)}`;
        rc.problem ??= `chartRef ${kind} ${rns}/${String(ref.name)} is not in the Kustomization's output or the repository`;
      }
    } else if (isObj(spec.chart) && isObj(spec.chart.spec)) {
      chartFromSpec(spec.chart.spec, ns, hr.apiVersion);
    } else {
      rc.problem = 'the HelmRelease has neither chartRef nor chart.spec';
    }
    // valuesFrom in order, then values (helm-controller's ChartValuesFromReferences).
    let values: unknown = {};
    for (const vf of Array.isArray(spec.valuesFrom) ? spec.valuesFrom.filter(isObj) : []) {
      const r = valuesFromReference(vf, get(vf.kind === 'Secret' ? 'Secret' : 'ConfigMap', String(vf.name), ns));
      if ('problem' in r) {
        rc.problem ??= r.problem;
        continue;
      }
      if (r.skip) continue;
      if (r.secret) rc.redacted = [...(rc.redacted ?? []), `Secret/${String(vf.name)}`];
      values = r.targetPath !== undefined ? setPath(values, r.targetPath, r.value) : deepMerge(values, r.value);
    }
    // Helm keeps an integer beyond 2^53 exactly; the values go to helm as JSON, which carries no BigInt (ADR 0414).
    if (isObj(spec.values)) values = deepMerge(values, withNumbers(spec.values) as Record<string, unknown>);
    rc.values = values;
    out.push(rc);
  }
  return out;
}
