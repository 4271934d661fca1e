/**
 * The helmfile + Flux layout (seed 003): a helmfile bootstrap (`bootstrap/helmfile.yaml`,
 * `bootstrap/helmfile.d/*.yaml` or `bootstrap/helmfile/*.yaml`, a CRD phase rendered with
 * `--include-crds` and an apps phase chained with `needs`) that installs Flux, then Flux
 * Kustomizations (`**\/ks.yaml`) ordered by `dependsOn`.
 *
 * Becomes a Fleet with one cluster whose apps are the releases (`helmfile:<ns>/<name>`) and the
 * Kustomizations (`flux:<ns>/<name>`), placed in waves by topological depth: the CRD phase, then
 * the apps phase by `needs`, then Flux by `dependsOn`. The graphs themselves, with file and line
 * for every edge, are kept in `fleet.graphs` for the graph rules. Go templates are not executed:
 * a templated chart is read from the app's Flux OCIRepository, as the layout's own template does.
 * Decisions: docs/adr/0102-helmfile-flux-layout.md.
 */
import { parseAllDocuments, lineCounter, isMap, isPair, isScalar, isSeq, kyamlTags } from '../../yaml/index.js';
import type { YamlNode, Document } from '../../yaml/index.js';
import type { Finding } from '../../model/finding.js';
import type { ClusterDef, Fleet, GroupDef } from '../../model/fleet.js';
import { createHash } from 'node:crypto';
import type { FleetGraphs, FluxKustomization, GraphRef, HelmfileHook, HelmfileRelease, HelmfileSet, HelmfileValues } from '../../model/graphs.js';
import { releaseApp, releaseBaseDir, kustomizationApp } from '../../model/graphs.js';
import type { AppSpec } from '../../model/spec.js';
import type { RepoFileSystem } from '../../ports/filesystem.js';
import type { LoadResult } from '../../load/native.js';
import type { SourceFile, YamlPath } from '../../model/source.js';
import { FLEET_FILE } from '../../model/constants.js';
import { helmCharts, chartName } from '../../model/catalog/operators.js';
import { joinRelative, isObj } from '../../load/manifests.js';
import { PHASE_LABEL } from '../../model/constants.js';
import { deepMerge } from '../../model/merge.js';
import { emptyFleet } from '../../model/fleet.js';
import { dumpYaml, parseYamlAll } from '../../yaml/index.js';
import { fluxSubstitute, FluxSubstituteError, fluxSubstitutionHint } from '../../model/flux-substitute.js';
import { KUSTOMIZATION_FILES, applyListing, applyPatches, listingChains, notEmulated } from './listing.js';
import type { ListingPatch, ListingStep } from './listing.js';
import { RepoConfigIndex, fluxVariables, repositoryYamlFiles, setFluxBuildScopes } from '../../load/flux-variables.js';
import { helmfileFluxGate } from './flux-gate.js';
import { STRICT_HINT, UNSET_HINT } from '../flux/feature-gates.js';
import type { StrictGate } from '../flux/feature-gates.js';
import { readHelmfileEnvironments } from '../../load/helmfile-environments.js';
import { applyStateValues, resolveStateValues } from '../../load/helmfile-state-values.js';
import type { HelmfileStateValues, ResolvedStateValues } from '../../load/helmfile-state-values.js';
import { HelmfileTemplateError, releaseTemplateData, renderHelmfileTemplate } from './template.js';
import { DEFAULT_HELMFILE_ENVIRONMENT, selectEnvironment } from '../../order/helmfile-plan.js';
import type { HelmfileTemplateContext } from './template.js';
import { isFluxKustomization as isFluxKustomizationObject } from '../../model/k8s.js';
import { resourceSetsNotRead } from '../flux/resourceset.js';

export const CLUSTER_NAME = 'cluster';

/** What `plan` says about the waves of this layout. */
export const HELMFILE_FLUX_PLAN_NOTE =
  'waves are the topological depth of the dependency graphs, not Argo CD sync waves: the helmfile CRD phase (0), then helmfile releases by needs, then Flux Kustomizations by dependsOn (a Kustomization also waits for the one whose path creates it); apps in one wave run in parallel';

export function helmfileFiles(fs: RepoFileSystem): string[] {
  const out: string[] = [];
  // bootstrap/ at the root (onedr0p/home-ops) or under kubernetes/ (bjw-s-labs/home-ops).
  // At the root, what `helmfile` finds with no --file: helmfile.yaml(.gotmpl), else helmfile.d/ (a plain helmfile repository).
  for (const f of ['bootstrap/helmfile.yaml', 'bootstrap/helmfile.yaml.gotmpl', 'kubernetes/bootstrap/helmfile.yaml', 'kubernetes/bootstrap/helmfile.yaml.gotmpl', 'helmfile.yaml', 'helmfile.yaml.gotmpl']) if (fs.exists(f) && !fs.isDirectory(f)) out.push(f);
  const rootFile = out.some((f) => !f.includes('/'));
  for (const d of ['bootstrap/helmfile.d', 'bootstrap/helmfile', 'kubernetes/bootstrap/helmfile.d', 'kubernetes/bootstrap/helmfile', ...(rootFile ? [] : ['helmfile.d'])]) {
    if (!fs.isDirectory(d)) continue;
    for (const f of fs.list(d)) if (/\.ya?ml(\.gotmpl)?$/.test(f) && !fs.isDirectory(`${d}/${f}`)) out.push(`${d}/${f}`);
  }
  // A phase in a folder of its own: `bootstrap/crds/helmfile.yaml` beside `bootstrap/helmfile.yaml` (mirceanton/home-ops).
  for (const d of ['bootstrap', 'kubernetes/bootstrap']) {
    if (!fs.isDirectory(d)) continue;
    for (const sub of [...fs.list(d)].sort()) {
      if (sub.startsWith('.') || ['helmfile.d', 'helmfile', 'templates'].includes(sub) || !fs.isDirectory(`${d}/${sub}`)) continue;
      for (const f of ['helmfile.yaml', 'helmfile.yaml.gotmpl']) if (fs.exists(`${d}/${sub}/${f}`) && !fs.isDirectory(`${d}/${sub}/${f}`)) out.push(`${d}/${sub}/${f}`);
    }
  }
  return out;
}

/**
 * The command line's state values for each top-level state file of `helmfileFiles`, as helmfile
 * gives them when it runs on the file's folder (`helmfile -f bootstrap/helmfile.yaml`, or
 * `-f helmfile.d`): a state read alone takes a relative `--state-values-file` from its own folder,
 * the states of a helmfile.d/ (or helmfile/) folder of several files from the current folder (ADR 0405).
 */
export function stateValuesOfFiles(fs: RepoFileSystem, files: readonly string[], given: HelmfileStateValues | undefined): (file: string) => { stateValues?: ResolvedStateValues } {
  if (given === undefined) return () => ({});
  return (file) => {
    const dir = dirOf(file);
    const alone = !/(^|\/)helmfile(\.d)?$/.test(dir) || files.filter((f) => dirOf(f) === dir).length === 1;
    return { stateValues: resolveStateValues(given, file, alone, fs) };
  };
}

const entryFilesCache = new WeakMap<RepoFileSystem, { folders: ReadonlySet<string>; files: ReadonlySet<string> }>();

/** A flux-instance sync of a document: `instance.sync` of the chart's values file, a HelmRelease's values, or a FluxInstance's `spec.sync`. */
function instanceSync(doc: unknown): unknown {
  if (!isObj(doc)) return undefined;
  if (isObj(doc.instance)) return doc.instance.sync;
  const spec = isObj(doc.spec) ? doc.spec : {};
  if (doc.kind === 'FluxInstance') return spec.sync;
  return doc.kind === 'HelmRelease' && isObj(spec.values) && isObj(spec.values.instance) ? spec.values.instance.sync : undefined;
}

/** The folder a sync or Kustomization path names, unless it is a template (`${…}`, `{{…}}`). */
function pathFolder(path: unknown): string | undefined {
  return typeof path === 'string' && !/\$\{|\{\{/.test(path) ? joinRelative('.', path) || '.' : undefined;
}

/**
 * Where Flux's entry is, beside the ks.yaml files and `kubernetes/flux/cluster/` (ADR 0411):
 * - the folders the flux-instance values or a FluxInstance under kubernetes/ or bootstrap/ sync
 *   (`instance.sync.path: kubernetes/main/flux/config`): their YAML files are the entry's Kustomizations;
 * - the older cluster-template's entry, a Kustomization applied by hand beside the GitRepository it
 *   syncs and whose path holds its file (`kubernetes/flux/config/cluster.yaml`, path `./kubernetes/flux`):
 *   the YAML files of its own folder and of its path folder.
 */
function entryFiles(fs: RepoFileSystem): { folders: ReadonlySet<string>; files: ReadonlySet<string> } {
  const known = entryFilesCache.get(fs);
  if (known) return known;
  const folders = new Set<string>();
  const files = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    if (depth > 8 || !fs.isDirectory(dir)) return;
    for (const e of fs.list(dir)) {
      if (e.startsWith('.')) continue;
      const p = `${dir}/${e}`;
      if (fs.isDirectory(p)) walk(p, depth + 1);
      else if (/\.ya?ml$/.test(e)) {
        let docs: unknown[];
        try {
          const text = fs.readText(p);
          if (!/\bsync:|^kind:\s*GitRepository\s*$/m.test(text)) continue;
          docs = parseYamlAll(text, { schema: 'core' });
        } catch {
          continue;
        }
        const repos = new Set(docs.filter((d) => isObj(d) && d.kind === 'GitRepository' && isObj(d.metadata)).map((d) => String(((d as Record<string, unknown>).metadata as Record<string, unknown>).name)));
        for (const d of docs) {
          const sync = instanceSync(d);
          const synced = isObj(sync) ? pathFolder(sync.path) : undefined;
          if (synced !== undefined) folders.add(synced);
          if (!isFluxKustomizationObject(d) || !isObj(d.spec) || !isObj(d.spec.sourceRef) || !repos.has(String(d.spec.sourceRef.name))) continue;
          const own = pathFolder(d.spec.path);
          if (own !== undefined && (own === '.' || p.startsWith(`${own}/`))) {
            folders.add(own);
            // Its folder is applied with it (`kubectl apply --kustomize kubernetes/flux/config`: flux.yaml beside cluster.yaml).
            folders.add(dir);
            files.add(p);
          }
        }
      }
    }
  };
  walk('kubernetes', 0);
  walk('bootstrap', 0);
  const out = { folders, files };
  entryFilesCache.set(fs, out);
  return out;
}

function ksFiles(fs: RepoFileSystem, dir: string, depth: number, out: string[], kustomizations?: string[], yamls?: string[]): string[] {
  if (depth > 8) return out;
  const entries = entryFiles(fs);
  const entry = dir.endsWith('flux/cluster') || entries.folders.has(dir);
  for (const e of fs.list(dir)) {
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (e.startsWith('.')) continue;
    if (fs.isDirectory(p)) ksFiles(fs, p, depth + 1, out, kustomizations, yamls);
    else {
      if (e === 'ks.yaml' || e === 'ks.yml' || (entry && /\.ya?ml$/.test(e)) || entries.files.has(p)) out.push(p);
      if (KUSTOMIZATION_FILES.includes(e)) kustomizations?.push(p);
      else if (/\.ya?ml$/.test(e)) yamls?.push(p);
    }
  }
  return out;
}

/**
 * Where the repository runs Flux's controllers with `--no-cross-namespace-refs` (or `=true`):
 * the first YAML file under kubernetes/, bootstrap/ or clusters/ whose text sets it — the
 * controllers' args are patched in a FluxInstance (`spec.kustomize.patches`), in the flux-instance
 * chart's values, in a kustomization.yaml over gotk-components, or in a helmfile's values; each is
 * a string `--no-cross-namespace-refs[=true]` somewhere in a YAML file. `=false` does not count.
 * (docs/adr/0192-flux-cross-namespace-refs.md)
 */
export function findNoCrossNamespaceRefs(fs: RepoFileSystem, files: readonly string[]): { file: string; line: number } | undefined {
  for (const f of [...files].sort()) {
    let text: string;
    try {
      text = fs.readText(f);
    } catch {
      continue;
    }
    if (!text.includes('--no-cross-namespace-refs')) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!.replace(/#.*$/, '');
      if (/--no-cross-namespace-refs(?![\w-])(?!=\s*["']?false)/.test(l)) return { file: f, line: i + 1 };
    }
  }
  return undefined;
}

function yamlFilesUnder(fs: RepoFileSystem, dir: string, depth: number, out: string[]): string[] {
  if (depth > 10 || !fs.isDirectory(dir)) return out;
  for (const e of fs.list(dir)) {
    if (e.startsWith('.')) continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (fs.isDirectory(p)) yamlFilesUnder(fs, p, depth + 1, out);
    else if (/\.ya?ml(\.gotmpl|\.j2)?$/.test(e)) out.push(p);
  }
  return out;
}

/**
 * The folder that holds the layout's ks.yaml files: kubernetes/, else the top-level folders that
 * hold ks.yaml files (`k8s/`: the same shape under another name).
 */
function ksRoots(fs: RepoFileSystem): string[] {
  if (fs.isDirectory('kubernetes')) return ['kubernetes'];
  return [...fs.list('.')].sort().filter((d) => !d.startsWith('.') && fs.isDirectory(d) && ksFiles(fs, d, 0, []).some((f) => /(^|\/)ks\.ya?ml$/.test(f)));
}

/**
 * True when kubernetes/ holds files named ks.yaml: the layout's own Kustomizations. The files of
 * kubernetes/flux/cluster/ alone do not count — they are the Flux entry's folder, which the flux
 * layout follows to every Kustomization, whatever its file name (ADR 0384).
 */
export function hasKsYamlFiles(fs: RepoFileSystem): boolean {
  return fs.isDirectory('kubernetes') && ksFiles(fs, 'kubernetes', 0, []).some((f) => /(^|\/)ks\.ya?ml$/.test(f));
}

/** True when the repository has a helmfile bootstrap (the layout's defining file). */
export function hasHelmfile(fs: RepoFileSystem): boolean {
  return helmfileFiles(fs).length > 0;
}

/** True when kubernetes/ holds Flux Kustomization files of this layout's shape (ks.yaml files, YAML files of a flux/cluster folder). */
export function hasKsFiles(fs: RepoFileSystem): boolean {
  return fs.isDirectory('kubernetes') && ksFiles(fs, 'kubernetes', 0, []).length > 0;
}

export function detectHelmfileFlux(fs: RepoFileSystem): boolean {
  if (fs.exists(FLEET_FILE)) return false;
  if (helmfileFiles(fs).length > 0) return true;
  return hasKsFiles(fs);
}

/** A YAML file with positions for any path, all documents kept. */
interface Located {
  docs: { value: unknown; locate(path: YamlPath): { line: number; column: number } }[];
  errors: Finding[];
}

/**
 * `merge`: YAML merge keys (`<<: *anchor`) merged, as go-yaml reads a helmfile state. `kustomize`:
 * scalars as kustomize (kyaml) reads a resource it builds, `metadata.annotations` kept as written
 * (kustomize writes their text: `0755` stays "0755" there, and is 493 elsewhere).
 */
function parseLocated(file: string, text: string, merge = false, kustomize = false): Located {
  const lc = lineCounter();
  // logLevel error: the yaml package's warnings (a flow map as a key, stringified) would go to the
  // process's stderr; a key like `{{ … }}` in a template read as YAML is said by the findings instead.
  const docs = parseAllDocuments(text, { lineCounter: lc, merge, logLevel: 'error', ...(kustomize ? { customTags: kyamlTags } : {}) });
  const errors: Finding[] = [];
  const list = Array.isArray(docs) ? docs : [];
  const out: Located['docs'] = [];
  for (const doc of list as Document[]) {
    for (const err of doc.errors) {
      const pos = lc.linePos(err.pos[0]);
      errors.push({ severity: 'warning', code: 'unreadable-file', message: err.message.replace(/ at line \d+, column \d+[\s\S]*$/, ''), file, line: pos.line, column: pos.col, hint: 'fix the YAML syntax' });
    }
    if (doc.errors.length) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch {
      continue;
    }
    if (kustomize) annotationsAsWritten(doc, value);
    out.push({
      value,
      locate(path) {
        let node = doc.contents as YamlNode | null;
        let offset = node?.range?.[0] ?? 0;
        for (const seg of path) {
          if (isMap(node)) {
            const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
            if (!pair) break;
            const v = pair.value as YamlNode | null;
            offset = (pair.key as YamlNode).range?.[0] ?? offset;
            node = v;
          } else if (isSeq(node) && typeof seg === 'number') {
            const item = node.items[seg] as YamlNode | undefined;
            if (!item) break;
            offset = item.range?.[0] ?? offset;
            node = item;
          } else break;
        }
        const p = lc.linePos(offset);
        return { line: p.line, column: p.col };
      },
    });
  }
  return { docs: out, errors };
}

/** kustomize keeps each annotation's text: a plain scalar (a number, a timestamp) gets the text written. */
function annotationsAsWritten(doc: Document, value: unknown): void {
  const annotations = isObj(value) && isObj(value.metadata) ? value.metadata.annotations : undefined;
  if (!isObj(annotations)) return;
  const node = doc.getIn(['metadata', 'annotations'], true);
  if (!isMap(node)) return;
  for (const pair of node.items) {
    if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
    const key = String(pair.key.value);
    const source = (pair.value as { source?: unknown }).source;
    if (pair.value.type === 'PLAIN' && annotations[key] !== null && typeof source === 'string') annotations[key] = source;
  }
}

function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i < 0 ? '.' : file.slice(0, i);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Where each release is written in its file (`releases[i]`), and where each Kustomization's spec.path is. */
const releasePaths = new WeakMap<HelmfileRelease, YamlPath>();
const ksPathPositions = new WeakMap<FluxKustomization, { line: number; column: number }>();
/** Each Kustomization as the repository writes it: `render` emits it as it is (AppSpec.manifest). */
const ksManifests = new WeakMap<FluxKustomization, Record<string, unknown>>();

/** The documents of a YAML file, its parse errors added to `findings`; none when it cannot be read. */
export function readDocs(fs: RepoFileSystem, file: string, findings: Finding[]): ReturnType<typeof parseLocated>['docs'] {
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return [];
  }
  const parsed = parseLocated(file, text, false, true);
  findings.push(...parsed.errors);
  return parsed.docs;
}

/** A release template (`templates.<name>`), with where it is written. */
interface ReleaseTemplate {
  body: Record<string, unknown>;
  file: string;
  locate(path: YamlPath): { line: number; column: number };
}

/** A template that reads the state's or environment's values. */
const READS_VALUES = /\.(Values|StateValues)\b/;

/** One layer of a helmfile state: a document of a base or of the file itself, with where it is written. */
interface StateLayer {
  file: string;
  /** The state's base path: the file's folder, or for a base the folder of the file that names it (helmfile loads a base with its includer's baseDir). */
  dir: string;
  value: Record<string, unknown>;
  locate(path: YamlPath): { line: number; column: number };
}

/** The `templates:` of the state's layers (bases first; a later layer's template of one name wins). */
function helmfileTemplates(layers: readonly StateLayer[]): Record<string, ReleaseTemplate> {
  const out: Record<string, ReleaseTemplate> = {};
  for (const l of layers) {
    if (!isObj(l.value.templates)) continue;
    for (const [k, x] of Object.entries(l.value.templates)) if (isObj(x)) out[k] = { body: x, file: l.file, locate: (p) => l.locate(['templates', k, ...p]) };
  }
  return out;
}

/** A path as a message names it: `releases[0].values[1].password`. */
function fieldName(path: YamlPath): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

/**
 * The vals `ref+…` references in a value (helmfile resolves them with vals when it runs: a secret
 * store fleetplan never reads): one `helmfile-value-not-read` per reference at its file, line and
 * field (ADR 0364). Returns how many were found.
 */
function reportRefs(v: unknown, path: YamlPath, file: string, locate: (p: YamlPath) => { line: number; column: number }, findings: Finding[], what: string, scope: string): number {
  if (typeof v === 'string') {
    if (!v.startsWith('ref+')) return 0;
    const at = locate(path);
    if (!findings.some((f) => f.code === 'helmfile-value-not-read' && f.file === file && f.line === at.line && f.message.startsWith(`${scope}${fieldName(path)}`))) {
      findings.push({ severity: 'warning', code: 'helmfile-value-not-read', message: `${scope}${fieldName(path)}: ${v} is a vals secret reference that helmfile resolves when it runs; fleetplan reads no secret store, so ${what} is not known`, file, line: at.line, column: at.column, hint: 'plan shows it as not read and render --leaves does not build it; render it with the secret where the secret is' });
    }
    return 1;
  }
  let n = 0;
  if (Array.isArray(v)) v.forEach((x, i) => (n += reportRefs(x, [...path, i], file, locate, findings, what, scope)));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) n += reportRefs(x, [...path, k], file, locate, findings, what, scope);
  return n;
}

/** Environment values as known so far: `known` is false once any could not be read (ADR 0364). */
interface EnvValues {
  values: Record<string, unknown>;
  known: boolean;
}

/**
 * One `values:` list of helmfile's environment values loader, merged over `start` in order: files
 * relative to `file`'s folder (`.gotmpl` files rendered with the values so far), inline maps as
 * written. `at` is the list's path in `file` (`environments.default.values`, `helmfiles[0].values`).
 */
function loadValuesList(fs: RepoFileSystem, list: readonly unknown[], file: string, dir: string, at: YamlPath, locate: (p: YamlPath) => { line: number; column: number }, start: EnvValues, findings: Finding[], env: ReadonlyMap<string, string>, options: HelmfileReadOptions, missingFileHandler = 'Error'): EnvValues {
  let { values, known } = start;
  const scope = options.scope ? `${options.scope}: ` : '';
  list.forEach((item: unknown, j: number) => {
    const path: YamlPath = [...at, j];
    if (isObj(item)) {
      if (reportRefs(item, path, file, locate, findings, `the environment value`, scope)) known = false;
      values = deepMerge(values, item) as Record<string, unknown>;
      return;
    }
    if (typeof item !== 'string') return;
    const target = joinRelative(dir, item);
    const notRead = (message: string, line = locate(path).line) => {
      known = false;
      findings.push({ severity: 'warning', code: 'helmfile-value-not-read', message: `${scope}${fieldName(path)}: environment values ${item} not read: ${message}`, file, line, hint: 'templates that read the environment values are not read either' });
    };
    if ((target === undefined || !fs.exists(target) || fs.isDirectory(target)) && ['Warn', 'Info', 'Debug'].includes(missingFileHandler)) {
      // helmfile skips it with a log line (storage.resolveFile): the values are those of the other entries.
      findings.push({ severity: 'info', code: 'helmfile-value-skipped', message: `${scope}${fieldName(path)}: environment values ${item} is not in the repository; helmfile skips it (missingFileHandler: ${missingFileHandler}), and so does fleetplan`, file, line: locate(path).line });
      return;
    }
    if (target === undefined || !fs.exists(target) || fs.isDirectory(target)) return notRead(`${target ?? item} is not a file of this repository (helmfile fails the same way unless missingFileHandler says otherwise)`);
    let text = fs.readText(target);
    if (target.endsWith('.gotmpl')) {
      try {
        text = renderHelmfileTemplate(text, stateTemplateData(options.environment ?? 'default', values), { fs, baseDir: dirOf(target), env, envNotGiven: noteEnv(findings, options) }, { file: target, firstLine: 1 });
      } catch (e) {
        if (!(e instanceof HelmfileTemplateError)) throw e;
        return notRead(e.message);
      }
    }
    const parsed = parseLocated(target, text);
    const doc = parsed.docs[0];
    if (parsed.errors.length || !doc) return notRead(parsed.errors[0]?.message ?? 'empty');
    if (!isObj(doc.value)) return;
    if (reportRefs(doc.value, [], target, doc.locate, findings, 'the environment value', scope)) known = false;
    values = deepMerge(values, doc.value) as Record<string, unknown>;
  });
  return { values, known };
}

/**
 * The values of the environment (`default` unless told) as helmfile merges them over `start` (the
 * values of the parts before): every layer's `environments.<name>.values` in order (bases first).
 * Its `secrets:` are sops-encrypted files helmfile decrypts when it runs: each is one
 * `helmfile-value-not-read` at its entry, and the values are then not known (helmfile merges them
 * last, over everything). `known: false` when anything was not read (templates that read the
 * values are then not read either).
 */
function environmentValues(fs: RepoFileSystem, layers: readonly StateLayer[], environment: string, findings: Finding[], env: ReadonlyMap<string, string>, options: HelmfileReadOptions, start: EnvValues = { values: {}, known: true }): EnvValues {
  let acc = start;
  const scope = options.scope ? `${options.scope}: ` : '';
  for (const l of layers) {
    const spec = isObj(l.value.environments) ? l.value.environments[environment] : undefined;
    if (!isObj(spec)) continue;
    if (Array.isArray(spec.values)) acc = loadValuesList(fs, spec.values, l.file, l.dir, ['environments', environment, 'values'], l.locate, acc, findings, env, options, str(spec.missingFileHandler));
    (Array.isArray(spec.secrets) ? spec.secrets : []).forEach((item: unknown, j: number) => {
      const path: YamlPath = ['environments', environment, 'secrets', j];
      const at = l.locate(path);
      acc = { ...acc, known: false };
      findings.push({
        severity: 'warning',
        code: 'helmfile-value-not-read',
        message: `${scope}${fieldName(path)}: environment secrets ${typeof item === 'string' ? item : JSON.stringify(item)} not read: helmfile decrypts them with sops (helm-secrets) when it runs and merges them over the environment values; fleetplan holds no keys, so the environment values are not known`,
        file: l.file,
        line: at.line,
        column: at.column,
        hint: 'templates that read the environment values are not read (plan says so, render --leaves does not build those releases); render them where the keys are',
      });
    });
  }
  return acc;
}

/** How helmfile templates are read: the environment the bootstrap runs them with (ADR 0320). */
export interface HelmfileReadOptions {
  env?: ReadonlyMap<string, string>;
  /** Said in messages: `cluster main`. */
  scope?: string;
  /** The helmfile environment whose values are read (`default`). */
  environment?: string;
  /** A sub-helmfile's `values:` (helmfile's override values, merged over its environment values). */
  override?: Record<string, unknown>;
  /** The command line's state values (a top-level helmfile only: helmfile does not pass them to its `helmfiles:`). */
  stateValues?: ResolvedStateValues;
  /** A sub-helmfile's `selectors:` (or its parent's, inherited): only matching releases are read. */
  selectors?: readonly string[];
  /** The helmfiles being read, outermost first (a sub-helmfile that includes one of them is a loop). */
  stack?: readonly string[];
  /** Every state file read through `helmfiles:` is added here. */
  nested?: Set<string>;
  /**
   * Where releases written `installed: false` go (read as the others, with `installed: false`,
   * their findings left out: nothing installs them); absent: they are not read (ADR 0395).
   */
  uninstalled?: HelmfileRelease[];
  /** Digest each local chart's files (`chartFiles`, for diff only: ADR 0395); absent, they are not read. */
  chartDigests?: boolean;
}

/** Templates a release inherits: its `inherit: [{template}]`, else the document's `defaultInherit`. */
function inheritedTemplates(r: Record<string, unknown>, v: Record<string, unknown>): string[] {
  if (Array.isArray(r.inherit)) return r.inherit.flatMap((x: unknown) => (isObj(x) && typeof x.template === 'string' ? [x.template] : []));
  if (typeof v.defaultInherit === 'string') return [v.defaultInherit];
  return [];
}

/**
 * A release field as helmfile gives it: the first non-empty of the inherited templates' values
 * (helmfile merges the templates, then the release, with mergo without override: a field a
 * template sets is kept), else the release's own; with the file and line where it is written.
 */
function releaseField(r: Record<string, unknown>, inherited: readonly ReleaseTemplate[], key: string, file: string, locate: (p: YamlPath) => { line: number }): { value: string; file: string; line: number } | undefined {
  for (const t of inherited) {
    const v = str(t.body[key]);
    if (v !== undefined && v !== '') return { value: v, file: t.file, line: t.locate([key]).line };
  }
  const v = str(r[key]);
  return v === undefined || v === '' ? undefined : { value: v, file, line: locate([key]).line };
}

/**
 * The note for an `env` a template read of a variable fleetplan was not given: it read "", as helmfile
 * reads an unset variable, which is right only when the shell that runs helmfile does not set it
 * (docs/adr/0413). One finding per file, line and variable.
 */
function noteEnv(findings: Finding[], options: HelmfileReadOptions): (variable: string, file: string, line: number) => void {
  const scope = options.scope ? `${options.scope}: ` : '';
  return (variable, file, line) => {
    const message = `${scope}env "${variable}" read as "" (helmfile's value for an unset variable): fleetplan does not read the environment of the shell that runs helmfile`;
    if (findings.some((f) => f.code === 'helmfile-env-not-read' && f.file === file && f.line === line && f.message === message)) return;
    findings.push({ severity: 'warning', code: 'helmfile-env-not-read', message, file, line, hint: `if that shell sets it, give the value with --helmfile-env ${variable}=VALUE (plan, render, validate and diff)` });
  };
}

/** A template not read: one finding per template place and reason (several releases share a template). */
function templateNotRead(findings: Finding[], e: HelmfileTemplateError, release: string, what: string, options: HelmfileReadOptions): void {
  const scope = options.scope ? `${options.scope}: ` : '';
  const how =
    e.kind === 'env'
      ? `helmfile reads ${e.variable} from the shell that runs it, which fleetplan does not read${options.env?.size ? ` (it sets only ${[...options.env.keys()].join(', ')})` : ''}; give it with --helmfile-env ${e.variable}=VALUE, or write the value into the helmfile (environments:, values:)`
      : e.kind === 'exec'
        ? 'fleetplan never runs commands from a repository; read the value from a file (readFile) or write it into the helmfile'
        : e.kind === 'file'
          ? 'readFile reads only files of this repository; commit the file or fix the path'
          : 'fix the template; helmfile fails the same way';
  const message = `${scope}helmfile template not read, so ${what} of release ${release} is not known: ${e.message}`;
  if (findings.some((f) => f.code === 'helmfile-template-not-read' && f.file === e.file && f.line === e.line && f.message.endsWith(e.message) && f.message.startsWith(scope))) return;
  findings.push({ severity: 'warning', code: 'helmfile-template-not-read', message, file: e.file, line: e.line, hint: `${how}; plan shows the release without it and render --leaves does not build it` });
}

/** The data a whole state file is rendered with (helmfile's NewEnvironmentTemplateData): no `.Release`. */
function stateTemplateData(environment: string, values: Record<string, unknown>): Record<string, unknown> {
  return { Environment: { Name: environment, KubeContext: '', Values: values }, Namespace: '', Values: values, StateValues: values };
}

/** The parts of a state file as helmfile's loader splits it (on `\n---\n`, CRLF as LF), each with the line it starts on. */
function stateParts(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let line = 1;
  for (const part of text.replace(/\r\n/g, '\n').split('\n---\n')) {
    out.push({ text: part, line });
    line += part.split('\n').length + 1;
  }
  return out;
}

/** A key YAML reads from an unquoted `{{ … }}` (a flow map in a flow map, stringified). */
function hasActionKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasActionKey);
  if (!isObj(v)) return false;
  return Object.entries(v).some(([k, x]) => /^\{.*\}$/s.test(k) || hasActionKey(x));
}

/**
 * A state's text that helmfile v1 cannot read as written but a template engine can: it does not
 * parse as YAML, or an unquoted `{{ … }}` parses as a flow map (`namespace: {{ .Values.ns }}`),
 * which v1 fails to read as the field's string.
 */
function notYamlUntilRendered(parsed: Located): boolean {
  return parsed.errors.length > 0 || parsed.docs.some((d) => hasActionKey(d.value));
}

/** A state file read: its layers (bases before the part that names them), and the environment values after its last part. */
interface StateRead extends EnvValues {
  layers: StateLayer[];
  /** The file could not be read (helmfile fails it): a finding says why. */
  failed?: boolean;
}

/**
 * A helmfile state as helmfile's desired-state loader reads it (pkg/app/desired_state_file_loader.go,
 * pkg/state/create.go): the file is split into parts; a `.gotmpl` file's parts are each rendered
 * as a Go template (no `.Release`) with the environment values of the parts before them, then
 * read; each part's `bases:` (relative to the file, rendered with the same values) come before it;
 * after each part its environments (and its bases') are merged over the values so far, and a
 * sub-helmfile's override values over those (ADR 0383; ADR 0340 rendered the file whole with no
 * values). A part that cannot be rendered fails the file, as in helmfile: one
 * `helmfile-template-not-read` at its line, no releases. Positions are the file's lines.
 */
function readState(fs: RepoFileSystem, file: string, findings: Finding[], env: ReadonlyMap<string, string>, options: HelmfileReadOptions, start: EnvValues, base?: { dir: string }): StateRead {
  const isBase = base !== undefined;
  const dir = base?.dir ?? dirOf(file);
  let text: string;
  try {
    text = fs.readText(file);
  } catch {
    return { layers: [], ...start };
  }
  const environment = options.environment ?? 'default';
  // Override values (a sub-helmfile entry's `values:`, the command line's state values) are merged
  // over the environment values at the start and after every part, as helmfile's loader does.
  const override = (v: EnvValues): EnvValues => {
    if (isBase || (!options.override && !options.stateValues)) return v;
    const values = options.override ? (deepMerge(v.values, options.override) as Record<string, unknown>) : v.values;
    return { values: options.stateValues ? applyStateValues(values, options.stateValues) : values, known: v.known };
  };
  let acc = override(start);
  const scope = options.scope ? `${options.scope}: ` : '';
  // helmfile v1 renders only `.gotmpl` state files; before v1 it rendered every one. A state that
  // is not YAML until rendered is read as the helmfile that can read it does (ADR 0404).
  let rendered = file.endsWith('.gotmpl') && text.includes('{{');
  if (!rendered && text.includes('{{') && notYamlUntilRendered(parseLocated(file, text, true))) {
    rendered = true;
    findings.push({ severity: 'warning', code: 'helmfile-state-not-yaml', message: `${scope}${file} is a Go template that is not YAML until rendered, and its name does not end in .gotmpl: fleetplan renders it as helmfile before v1 rendered every state file; helmfile v1 renders only .gotmpl files (unless HELMFILE_RENDER_YAML=true) and fails on it as written`, file, line: 1, hint: `rename it ${file}.gotmpl (and its includes) for helmfile v1` });
  }
  const layers: StateLayer[] = [];
  const fail = (message: string, line: number, hint: string): StateRead => {
    findings.push({ severity: 'warning', code: 'helmfile-template-not-read', message: `${scope}helmfile template not read, so the releases of ${file} are not known: ${message}`, file, line, hint });
    return { layers: [], ...acc, failed: true };
  };
  for (const part of rendered ? stateParts(text) : [{ text, line: 1 }]) {
    let body = part.text;
    if (rendered && body.includes('{{')) {
      if (!acc.known && READS_VALUES.test(body)) return fail('it reads environment values that are not known (see helmfile-value-not-read)', part.line, 'plan leaves these releases out; helmfile renders each part of the state file with the environment values before it');
      try {
        body = renderHelmfileTemplate(body, stateTemplateData(environment, acc.values), { fs, baseDir: dir, env, envNotGiven: noteEnv(findings, options) }, { file, firstLine: part.line });
      } catch (e) {
        if (!(e instanceof HelmfileTemplateError)) throw e;
        return fail(e.message, e.line, e.kind === 'env' ? `helmfile reads ${e.variable ?? 'the variable'} from the shell, which fleetplan never does: give it with --helmfile-env ${e.variable ?? 'NAME'}=VALUE; plan leaves these releases out` : 'plan leaves these releases out; helmfile renders each part of the state file with the environment values of the parts before it, and fails the same way');
      }
    }
    // Lines of a rendered part are the template's as long as no action removes a line.
    const parsed = parseLocated(file, '\n'.repeat(part.line - 1) + body, true);
    findings.push(...parsed.errors);
    const partLayers: StateLayer[] = [];
    for (const d of parsed.docs) {
      if (!isObj(d.value)) continue;
      // helmfile reads no bases of a base ("nested `base` helmfile is unsupported").
      for (const [k, b] of (isBase || !Array.isArray(d.value.bases) ? [] : d.value.bases).entries()) {
        if (typeof b !== 'string' || b.includes('{{')) continue;
        // helmfile fails the whole state when one of its bases cannot be loaded (loadBases).
        const target = joinRelative(dir, b);
        const line = d.locate(['bases', k]).line;
        const hint = 'plan leaves these releases out; helmfile fails the state when a base cannot be loaded';
        if (target === undefined || !fs.exists(target) || fs.isDirectory(target)) return fail(`bases[${k}] ${b} is not a file of this repository`, line, hint);
        const base = readState(fs, target, findings, env, options, acc, { dir });
        if (base.failed) return fail(`bases[${k}] ${b} is not read (see the helmfile-template-not-read at ${target})`, line, hint);
        partLayers.push(...base.layers);
      }
      partLayers.push({ file, dir, value: d.value, locate: d.locate });
    }
    layers.push(...partLayers);
    if (!isBase && partLayers.some((l) => isObj(l.value.environments))) acc = override(environmentValues(fs, partLayers, environment, findings, env, options, acc));
  }
  return { layers, ...acc };
}

export function readHelmfile(fs: RepoFileSystem, file: string, findings: Finding[], releases: HelmfileRelease[], options: HelmfileReadOptions = {}): void {
  const env = options.env ?? new Map<string, string>();
  const stack = [...(options.stack ?? []), file];
  const state = readState(fs, file, findings, env, options, { values: {}, known: true });
  const layers = state.layers;
  // Merged as mergo with WithAppendSlice and WithOverride: lists appended in layer order, the last value of a field wins.
  const args = layers.flatMap((l) => (isObj(l.value.helmDefaults) && Array.isArray(l.value.helmDefaults.args) ? l.value.helmDefaults.args.map(String) : []));
  const repositories = layers.flatMap((l) => (Array.isArray(l.value.repositories) ? l.value.repositories : []));
  const defaultInherit = layers.map((l) => l.value.defaultInherit).filter((x) => typeof x === 'string').pop();
  // The state's `namespace:` overrides every release's (helmfile's OverrideNamespace, ApplyOverrides).
  const stateNamespace = layers.map((l) => str(l.value.namespace)).filter((x) => x !== undefined && x !== '').pop();
  const commonLabels = Object.assign({}, ...layers.map((l) => (isObj(l.value.commonLabels) ? l.value.commonLabels : {}))) as Record<string, unknown>;
  const templates = helmfileTemplates(layers);
  const environment = options.environment ?? 'default';
  const stateValues: EnvValues = { values: state.values, known: state.known };
  readSubHelmfiles(fs, layers, findings, releases, { ...options, stack });
  const phase: HelmfileRelease['phase'] = args.includes('--include-crds') && args.includes('--no-hooks') ? 'crds' : /(^|\/)(\d+-)?crds\.ya?ml/.test(file) ? 'crds' : 'apps';
  const v = { repositories, ...(defaultInherit !== undefined ? { defaultInherit } : {}) };
  for (const layer of layers) {
    if (!Array.isArray(layer.value.releases)) continue;
    const doc = layer;
    const file = layer.file;
    const dir = layer.dir;
    layer.value.releases.forEach((r: unknown, i: number) => {
      if (!isObj(r) || typeof r.name !== 'string') return;
      const pos = doc.locate(['releases', i]);
      const inherited = inheritedTemplates(r, v).flatMap((t) => (templates[t] ? [templates[t]!] : []));
      const at = (p: YamlPath) => doc.locate(['releases', i, ...p]);
      const chartField = releaseField(r, inherited, 'chart', file, at);
      const versionField = releaseField(r, inherited, 'version', file, at);
      // The state's `namespace:` replaces the release's before helmfile renders it (ApplyOverrides).
      const identity = releaseIdentity({ name: r.name, namespace: stateNamespace ?? str(r.namespace) ?? 'default', ...(stateNamespace === undefined ? { field: 'namespace' } : {}) }, { file, at, index: i, known: stateValues.known, values: stateValues.values, environment, ctx: { fs, baseDir: dir, env, envNotGiven: noteEnv(findings, options) }, findings, options });
      if (identity === undefined) return;
      const { name: releaseName, namespace: ns } = identity;
      const id = `${ns}/${releaseName}`;
      const notRead: string[] = [];
      // Where this release's findings go: none for a release helmfile uninstalls (set below).
      let sink = findings;
      // helmfile renders every release field that holds a template, with the release's data and the
      // state file's directory as readFile's base (state_exec_tmpl.go), then trims chart and version.
      const fieldValue = (f: typeof chartField, what: string): string | undefined => {
        if (f === undefined) return undefined;
        if (!f.value.includes('{{')) return f.value;
        if (!stateValues.known && READS_VALUES.test(f.value)) {
          notRead.push(`${what} (${f.file}:${f.line}: it reads environment values that are not known: see helmfile-value-not-read)`);
          return undefined;
        }
        try {
          const data = releaseTemplateData({ name: releaseName, namespace: ns, chart: chartField?.value, version: versionField?.value }, environment, stateValues.values);
          return renderHelmfileTemplate(f.value, data, { fs, baseDir: dir, env, envNotGiven: noteEnv(findings, options) }, { file: f.file, firstLine: f.line }).trim();
        } catch (e) {
          if (!(e instanceof HelmfileTemplateError)) throw e;
          templateNotRead(sink, e, id, what, options);
          notRead.push(`${what} (${e.file}:${e.line}: ${e.message})`);
          return undefined;
        }
      };
      const chart = fieldValue(chartField, 'the chart');
      const version = fieldValue(versionField, 'the chart version');
      // What `helmfile template` renders: desired releases (installed, condition) that the selectors pick.
      // One written `installed: false` (helmfile uninstalls it) is read for the caller that asks (diff), its findings left out.
      const uninstalled = r.installed === false || (typeof r.installedTemplate === 'string' && fieldValue({ value: r.installedTemplate, file, line: at(['installedTemplate']).line }, 'installed') === 'false');
      if (uninstalled && options.uninstalled === undefined) return;
      if (uninstalled) sink = [];
      if (typeof r.condition === 'string' && r.condition !== '') {
        if (!stateValues.known) notRead.push(`condition ${r.condition} (${file}:${at(['condition']).line}: it reads environment values that are not known: see helmfile-value-not-read)`);
        else if (!conditionEnabled(r.condition, stateValues.values)) return;
      }
      if (options.selectors?.length && !options.selectors.some((sel) => selectorMatches(sel, releaseLabels(r, releaseName, ns, chart, commonLabels)))) return;
      const needs: GraphRef[] = [];
      (Array.isArray(r.needs) ? r.needs : []).forEach((written: unknown, j: number) => {
        if (typeof written !== 'string') return;
        const p = doc.locate(['releases', i, 'needs', j]);
        const n = fieldValue({ value: written, file, line: p.line }, `needs[${j}] ${written}`);
        if (n === undefined) return;
        const parts = n.split('/');
        const name = parts[parts.length - 1]!;
        const namespace = parts.length >= 2 ? parts[parts.length - 2] : undefined;
        needs.push({ name, ...(namespace !== undefined ? { namespace } : {}), file, line: p.line, column: p.column });
      });
      const waits: string[] = [];
      const applies: string[] = [];
      for (const h of Array.isArray(r.hooks) ? r.hooks : []) {
        if (!isObj(h) || h.command !== 'kubectl' || !Array.isArray(h.args)) continue;
        const hargs = h.args.map((a) => String(a).replace(/\{\{\s*\.Release\.Namespace\s*\}\}/g, ns).replace(/\{\{\s*\.Release\.Name\s*\}\}/g, releaseName));
        if (hargs[0] === 'wait') {
          for (const a of hargs) {
            const m = /^crds?\/[^.]+\.(.+)$/.exec(a) ?? /^customresourcedefinitions?\/[^.]+\.(.+)$/.exec(a);
            if (m) waits.push(m[1]!);
          }
        } else if (hargs[0] === 'apply') {
          for (const a of hargs) {
            const m = /^(?:--filename|-f)=(.+)$/.exec(a);
            const target = m ? joinRelative(dirOf(file), m[1]!) : undefined;
            if (target) applies.push(target);
          }
        }
      }
      const hooks: HelmfileHook[] = [];
      (Array.isArray(r.hooks) ? r.hooks : []).forEach((h: unknown, j: number) => {
        if (!isObj(h) || typeof h.command !== 'string') return;
        const fill = (a: unknown) => String(a).replace(/\{\{\s*\.Release\.Namespace\s*\}\}/g, ns).replace(/\{\{\s*\.Release\.Name\s*\}\}/g, releaseName);
        hooks.push({ events: Array.isArray(h.events) ? h.events.map(String) : [], command: h.command, args: Array.isArray(h.args) ? h.args.map(fill) : [], line: doc.locate(['releases', i, 'hooks', j]).line });
      });
      const missingFileHandler = str(r.missingFileHandler) ?? inherited.map((t) => str(t.body.missingFileHandler)).find((x) => x !== undefined);
      // A release's `secrets:` are sops-encrypted values files helm-secrets decrypts when helmfile runs:
      // said not read, unless the file is absent and missingFileHandler lets helmfile skip it. Each
      // one kept is recorded with a digest of its encrypted text, so that diff tells a change of it
      // without reading or showing a value (ADR 0395).
      const secretFiles: NonNullable<HelmfileRelease['secrets']> = [];
      const secretEntries = [...inherited.flatMap((t) => (Array.isArray(t.body.secrets) ? (t.body.secrets as unknown[]).map((x, k) => ({ x, file: t.file, line: t.locate(['secrets', k]).line, field: `templates.${inheritedTemplates(r, v).find((n) => templates[n] === t) ?? '?'}.secrets[${k}]` })) : [])), ...(Array.isArray(r.secrets) ? r.secrets.map((x: unknown, k: number) => ({ x, file, line: at(['secrets', k]).line, field: `releases[${i}].secrets[${k}]` })) : [])].filter((e) => {
        let name = typeof e.x === 'string' ? e.x : isObj(e.x) && typeof e.x.path === 'string' ? e.x.path : undefined;
        for (let pass = 0; name !== undefined && pass < 6 && name.includes('{{'); pass++) {
          const next = fieldValue({ value: name, file: e.file, line: e.line }, `the secrets path ${name}`);
          if (next === undefined || next === name) break;
          name = next;
        }
        const target = name === undefined || name.includes('{{') ? undefined : joinRelative(dir, name);
        const skipped = target !== undefined && !fs.exists(target) && ['Warn', 'Info', 'Debug'].includes(missingFileHandler ?? 'Error');
        if (!skipped) secretFiles.push({ file: name ?? JSON.stringify(e.x), ...(target !== undefined && fs.exists(target) && !fs.isDirectory(target) ? { digest: textDigest(fs.readText(target)) } : {}) });
        return !skipped;
      });
      if (secretEntries.length) {
        const scope = options.scope ? `${options.scope}: ` : '';
        for (const e of secretEntries) {
          const name = typeof e.x === 'string' ? e.x : isObj(e.x) && typeof e.x.path === 'string' ? e.x.path : JSON.stringify(e.x);
          sink.push({ severity: 'warning', code: 'helmfile-value-not-read', message: `${scope}${e.field}: secret values ${name} of release ${id} not read: helmfile decrypts them with helm-secrets (sops) when it runs; fleetplan holds no keys, so the release's values are not known`, file: e.file, line: e.line, hint: 'plan shows the release as not read and render --leaves does not build it; render it where the keys are' });
        }
        notRead.push(`secrets (${secretEntries.length} sops-encrypted values file${secretEntries.length === 1 ? '' : 's'}: see helmfile-value-not-read)`);
      }
      const valueEntries = [...inherited.flatMap((t) => (Array.isArray(t.body.values) ? (t.body.values as unknown[]) : [])), ...(Array.isArray(r.values) ? r.values : [])];
      const ownValues = Array.isArray(r.values) ? r.values : [];
      const inheritedCount = valueEntries.length - ownValues.length;
      const values = valueEntries.flatMap((x: unknown, k: number): HelmfileValues[] => {
        if (isObj(x)) {
          const scope = options.scope ? `${options.scope}: ` : '';
          if (k >= inheritedCount && reportRefs(x, ['releases', i, 'values', k - inheritedCount], file, doc.locate, sink, `a value of release ${id}`, scope)) notRead.push(`values (a vals ref+ secret reference: see helmfile-value-not-read)`);
          return [{ inline: x }];
        }
        if (typeof x !== 'string') return [];
        // helmfile renders a release's fields until they no longer change (up to 6 passes), so a
        // values path written {{`{{ .Release.Name }}`}} becomes the release's name (ExecuteTemplates).
        let name = x;
        for (let pass = 0; pass < 6 && name.includes('{{'); pass++) {
          const next = fieldValue({ value: name, file, line: at(['values', k - inheritedCount]).line }, `the values path ${x}`);
          if (next === undefined || next === name) break;
          name = next;
        }
        const path = joinRelative(dir, name);
        if (path === undefined || !fs.exists(path) || fs.isDirectory(path)) {
          // helmfile skips a missing values file when the release's missingFileHandler says so.
          // A templated name stays for plan and bootstrap (another environment may have the file); in
          // the environment read it gives no values.
          if (['Warn', 'Info', 'Debug'].includes(missingFileHandler ?? 'Error')) return x.includes('{{') ? [{ file: x, values: {} }] : [];
          return [{ file: x }];
        }
        if (!name.endsWith('.gotmpl')) {
          // A plain values file of the repository: its values (in the environment read, ADR 0383), as
          // helm reads it (-f), for render --leaves; the name stays as written for plan and bootstrap,
          // which fill in the environment they run.
          const plain = fs.readText(path);
          const parsed = parseLocated(path, plain).docs[0];
          return isObj(parsed?.value) ? [{ file: x, values: parsed.value }] : [{ file: x, digest: textDigest(plain) }];
        }
        // A values template: rendered with the release's data and its own directory as readFile's base.
        // One not read keeps a digest of its text, so that diff tells a change of it (ADR 0395).
        const source = fs.readText(path);
        const unread = (): HelmfileValues[] => [{ file: x, digest: textDigest(source) }];
        try {
          if (!stateValues.known && READS_VALUES.test(source)) {
            notRead.push(`values ${x} (${path}: it reads environment values that are not known: see helmfile-value-not-read)`);
            return unread();
          }
          const data = releaseTemplateData({ name: releaseName, namespace: ns, ...(chart !== undefined ? { chart } : {}), ...(version !== undefined ? { version } : {}) }, environment, stateValues.values);
          const text = renderHelmfileTemplate(source, data, { fs, baseDir: dirOf(path), env, envNotGiven: noteEnv(findings, options) }, { file: path, firstLine: 1 });
          const parsed = parseYamlAll(text, { schema: 'core' })[0] ?? {};
          if (!isObj(parsed)) throw new HelmfileTemplateError(`the rendered values are not a map of values`, path, 1, 'template');
          const rendered = parseLocated(path, text).docs[0];
          const scope = options.scope ? `${options.scope}: ` : '';
          if (rendered && reportRefs(rendered.value, [], path, rendered.locate, sink, `a value of release ${id}`, scope)) {
            notRead.push(`values ${x} (a vals ref+ secret reference: see helmfile-value-not-read)`);
            return unread();
          }
          return [{ inline: parsed, from: `${path} (helmfile template)` }];
        } catch (e) {
          const err = e instanceof HelmfileTemplateError ? e : new HelmfileTemplateError(`the rendered values are not YAML: ${(e as Error).message.split('\n')[0]}`, path, 1, 'template');
          templateNotRead(sink, err, id, `the values of ${x}`, options);
          notRead.push(`values ${x} (${err.file}:${err.line}: ${err.message})`);
          return unread();
        }
      });
      // Labels and setTemplate values, rendered as helmfile renders them (not trimmed); one not read
      // keeps its text and is said in fieldsNotRead: it reaches neither plan nor render, so no finding.
      const fieldsNotRead: string[] = [];
      const renderQuietly = (value: string, line: number, what: string): string => {
        if (!value.includes('{{')) return value;
        if (!stateValues.known && READS_VALUES.test(value)) {
          fieldsNotRead.push(`${what} (${file}:${line}: it reads environment values that are not known: see helmfile-value-not-read)`);
          return value;
        }
        try {
          const data = releaseTemplateData({ name: r.name as string, namespace: ns, ...(chart !== undefined ? { chart } : {}), ...(version !== undefined ? { version } : {}) }, environment, stateValues.values);
          return renderHelmfileTemplate(value, data, { fs, baseDir: dir, env, envNotGiven: noteEnv(findings, options) }, { file, firstLine: line });
        } catch (e) {
          if (!(e instanceof HelmfileTemplateError)) throw e;
          fieldsNotRead.push(`${what} (${e.file}:${e.line}: ${e.message})`);
          return value;
        }
      };
      const set = releaseSet(r, inherited, (value, j) => renderQuietly(value, j >= 0 ? at(['setTemplate', j]).line : pos.line, 'a setTemplate entry'));
      const labels = releaseLabelsAsGiven(r, inherited, commonLabels, (value, key) => renderQuietly(value, at(['labels', key]).line, `the label ${key}`));
      const repoName = chart !== undefined && !chart.startsWith('.') && !chart.startsWith('/') && !chart.includes('://') ? chart.split('/')[0] : undefined;
      const repo = repoName !== undefined && Array.isArray(v.repositories) ? v.repositories.find((x: unknown) => isObj(x) && x.name === repoName) : undefined;
      const release: HelmfileRelease = {
        name: releaseName,
        namespace: ns,
        phase,
        ...(chart !== undefined ? { chart } : {}),
        ...(version !== undefined ? { version } : {}),
        file,
        ...(dir !== dirOf(file) ? { baseDir: dir } : {}),
        line: pos.line,
        column: pos.column,
        needs,
        waitsForGroups: [...new Set(waits)].sort(),
        applies,
        ...(values.length ? { values } : {}),
        ...(hooks.length ? { hooks } : {}),
        ...(isObj(repo) && typeof repo.url === 'string' ? { repository: { name: repoName!, url: repo.url, oci: repo.oci === true } } : {}),
        ...(notRead.length ? { notRead } : {}),
        ...(set.length ? { set } : {}),
        ...(labels !== undefined ? { labels } : {}),
        ...(fieldsNotRead.length ? { fieldsNotRead } : {}),
        ...(secretFiles.length ? { secrets: secretFiles } : {}),
        ...(options.chartDigests ? localChartDigest(fs, dir, chart) : {}),
        ...(uninstalled ? { installed: false as const } : {}),
      };
      releasePaths.set(release, ['releases', i]);
      (uninstalled ? options.uninstalled! : releases).push(release);
    });
  }
}

/** Where a release is written and what its templates are rendered with. */
interface IdentityContext {
  file: string;
  at: (p: YamlPath) => { line: number };
  index: number;
  known: boolean;
  values: Record<string, unknown>;
  environment: string;
  ctx: HelmfileTemplateContext;
  findings: Finding[];
  options: HelmfileReadOptions;
}

/**
 * A release's name and namespace as helmfile renders them in every state file (release.go
 * ExecuteTemplateExpressions, repeated with the release's new fields until nothing changes, at most
 * six passes). When a field cannot be rendered (it reads environment values that are not known, or
 * the template fails) the release has no identity: one `helmfile-template-not-read` at the field,
 * and undefined (the release is left out, never named by its template text). `field` is absent
 * when the namespace is the state's `namespace:`, which helmfile does not render.
 */
function releaseIdentity(written: { name: string; namespace: string; field?: 'namespace' }, c: IdentityContext): { name: string; namespace: string } | undefined {
  const scope = c.options.scope ? `${c.options.scope}: ` : '';
  const fields = [{ key: 'name' as const, text: written.name, path: ['name'] }, ...(written.field ? [{ key: 'namespace' as const, text: written.namespace, path: ['namespace'] }] : [])].filter((f) => f.text.includes('{{'));
  let cur = { name: written.name, namespace: written.namespace };
  for (const f of fields) {
    if (c.known || !READS_VALUES.test(f.text)) continue;
    const line = c.at(f.path).line;
    c.findings.push({ severity: 'warning', code: 'helmfile-template-not-read', message: `${scope}helmfile template not read, so release ${written.name} is not read: releases[${c.index}].${f.key} ${f.text} reads environment values that are not known (see helmfile-value-not-read)`, file: c.file, line, hint: 'plan, render and validate leave the release out; helmfile renders it with the decrypted secrets, so render it where the keys are' });
    return undefined;
  }
  let fixed = fields.length === 0;
  for (let pass = 0; pass < 6 && !fixed; pass++) {
    const next = { ...cur };
    for (const f of fields) {
      try {
        next[f.key] = renderHelmfileTemplate(f.text, releaseTemplateData(cur, c.environment, c.values), c.ctx, { file: c.file, firstLine: c.at(f.path).line }).trim();
      } catch (e) {
        if (!(e instanceof HelmfileTemplateError)) throw e;
        c.findings.push({ severity: 'warning', code: 'helmfile-template-not-read', message: `${scope}helmfile template not read, so release ${written.name} is not read: releases[${c.index}].${f.key}: ${e.message}`, file: e.file, line: e.line, hint: 'plan, render and validate leave the release out; helmfile fails the same way' });
        return undefined;
      }
    }
    fixed = next.name === cur.name && next.namespace === cur.namespace;
    cur = next;
  }
  if (!fixed) {
    c.findings.push({ severity: 'warning', code: 'helmfile-template-not-read', message: `${scope}helmfile template not read, so release ${written.name} is not read: its name and namespace still change after six passes (helmfile: "recursive references can't be resolved")`, file: c.file, line: c.at([]).line, hint: 'plan, render and validate leave the release out; helmfile fails the same way' });
    return undefined;
  }
  return cur;
}

/** helmfile's ConditionEnabled: `foo.enabled` is true in the environment values (a missing `enabled` is false). */
function conditionEnabled(condition: string, values: Record<string, unknown>): boolean {
  if (condition.toLowerCase() === 'true' || condition.toLowerCase() === 'false') return condition.toLowerCase() === 'true';
  let at: unknown = values;
  for (const k of condition.split('.')) {
    if (!isObj(at)) return false;
    at = at[k];
  }
  return at === true;
}

/**
 * A chart in this repository (`./charts/web`, from the state's folder): its folder and a digest of
 * every file in it, paths and text, so that diff tells a change of its templates, values.yaml or
 * Chart.yaml without building it (ADR 0395). Every file, because a template reads any of them
 * through `.Files`. Nothing for a chart that is not a folder of the repository.
 */
function localChartDigest(fs: RepoFileSystem, dir: string, chart: string | undefined): Pick<HelmfileRelease, 'chartFiles'> {
  if (chart === undefined || !/^\.\.?(\/|$)/.test(chart)) return {};
  const folder = joinRelative(dir, chart);
  if (folder === undefined || !fs.isDirectory(folder)) return {};
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of fs.list(d)) {
      const path = d === '.' ? name : `${d}/${name}`;
      if (fs.isDirectory(path)) walk(path);
      else hash.update(`${path.slice(folder.length)}\0${chartFileText(fs, path)}\0`);
    }
  };
  walk(folder);
  return { chartFiles: { folder, digest: hash.digest('hex').slice(0, 16) } };
}

/**
 * A chart file's text for the digest; one fleetplan does not read (larger than its input limit)
 * counts by the reason, so that plan and render of the repository go on (a change of that file
 * alone is then not told).
 */
function chartFileText(fs: RepoFileSystem, path: string): string {
  try {
    return fs.readText(path);
  } catch (e) {
    return `not read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** A short digest of a file's text: tells that it changed without holding what it says. */
function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * A release's `setTemplate:` entries (each name and value rendered; helmfile puts them first),
 * then its `set:` entries as written (helmfile does not render those), with the inherited
 * templates' entries before the release's own; values as strings, as helmfile's SetValue holds
 * them. An entry whose template is not read keeps its text (the release's notRead says why).
 */
function releaseSet(r: Record<string, unknown>, inherited: readonly ReleaseTemplate[], render: (value: string, own: number) => string): HelmfileSet[] {
  const entry = (x: unknown, fill?: (v: string) => string): HelmfileSet[] => {
    if (!isObj(x) || x.name === undefined) return [];
    const text = (v: unknown) => (fill ? fill(String(v)) : String(v));
    return [{ name: text(x.name), ...(x.value !== undefined && x.value !== null ? { value: text(x.value) } : {}), ...(typeof x.file === 'string' ? { file: text(x.file) } : {}), ...(Array.isArray(x.values) ? { values: x.values.map((v) => (typeof v === 'string' ? text(v) : v)) } : {}) }];
  };
  const list = (body: Record<string, unknown>, key: string) => (Array.isArray(body[key]) ? (body[key] as unknown[]) : []);
  const templated = [...inherited.flatMap((t) => list(t.body, 'setTemplate')), ...list(r, 'setTemplate')];
  const own = list(r, 'setTemplate').length;
  return [
    // `own`: the index among the release's own setTemplate entries (-1 for an inherited one), for the line said.
    ...templated.flatMap((x, j) => entry(x, (v) => render(v, j - (templated.length - own)))),
    ...[...inherited.flatMap((t) => list(t.body, 'set')), ...list(r, 'set')].flatMap((x) => entry(x)),
  ];
}

/** A release's labels as helmfile gives them: commonLabels, the inherited templates', then its own; templated values rendered. Undefined when it has none. */
function releaseLabelsAsGiven(r: Record<string, unknown>, inherited: readonly ReleaseTemplate[], common: Record<string, unknown>, render: (value: string, key: string) => string): Record<string, string> | undefined {
  const merged: Record<string, unknown> = Object.assign({}, common, ...inherited.map((t) => (isObj(t.body.labels) ? t.body.labels : {})), isObj(r.labels) ? r.labels : {});
  const keys = Object.keys(merged);
  if (keys.length === 0) return undefined;
  return Object.fromEntries(keys.map((k) => {
    return [k, render(String(merged[k]), k)];
  }));
}

/** The labels a selector sees: the state's commonLabels, the release's, and helmfile's own name, namespace and chart. */
function releaseLabels(r: Record<string, unknown>, name: string, namespace: string, chart: string | undefined, common: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...common, ...(isObj(r.labels) ? r.labels : {}) })) out[k] = String(v);
  out.name = name;
  out.namespace = namespace;
  if (chart !== undefined) out.chart = chart.split('/').pop()!;
  return out;
}

/** One helmfile selector (`k=v,k2!=v2`, all must hold) over a release's labels. */
function selectorMatches(selector: string, labels: Record<string, string>): boolean {
  return selector.split(',').every((term) => {
    const ne = term.indexOf('!=');
    if (ne >= 0) return labels[term.slice(0, ne).trim()] !== term.slice(ne + 2).trim();
    const eq = term.indexOf('=');
    return eq >= 0 && labels[term.slice(0, eq).trim()] === term.slice(eq + 1).trim();
  });
}

/** The state files a `helmfiles:` path names (pkg/app findDesiredStateFiles, ExpandPaths): a file, a glob, or a folder's `*.y*ml` then `*.y*ml.gotmpl`. */
function subHelmfileTargets(fs: RepoFileSystem, path: string): string[] {
  if (!/[*?[]/.test(path)) {
    if (fs.isDirectory(path)) {
      const files = [...fs.list(path)].filter((f) => !fs.isDirectory(`${path}/${f}`)).sort();
      return [...files.filter((f) => /\.y[^.]*ml$/.test(f)), ...files.filter((f) => /\.y[^.]*ml\.gotmpl$/.test(f))].map((f) => (path === '.' ? f : `${path}/${f}`));
    }
    return fs.exists(path) ? [path] : [];
  }
  const glob = (seg: string) => new RegExp(`^${seg.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  let dirs = ['.'];
  const segs = path.split('/');
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    const next: string[] = [];
    for (const d of dirs) {
      const join = (e: string) => (d === '.' ? e : `${d}/${e}`);
      if (!/[*?[]/.test(seg)) {
        const p = join(seg);
        if (fs.exists(p) && (last || fs.isDirectory(p))) next.push(p);
        continue;
      }
      if (!fs.isDirectory(d)) continue;
      for (const e of [...fs.list(d)].sort()) if (glob(seg).test(e) && (last ? !fs.isDirectory(join(e)) : fs.isDirectory(join(e)))) next.push(join(e));
    }
    dirs = next;
  });
  return dirs;
}

/**
 * A state's `helmfiles:` (every layer's, in order), read as helmfile reads them before the state's
 * own releases (pkg/app processNestedHelmfiles): each path (relative to the file that writes it; a
 * glob or a folder gives several) is a state of its own in the same environment, with the entry's
 * `values:` as override values over its environment values (the parent's values are not inherited)
 * and the entry's `selectors:` (else the parent's) picking its releases. A remote path, a path with
 * no file, or a loop is one `helmfile-state-not-read` at the entry (ADR 0383).
 */
function readSubHelmfiles(fs: RepoFileSystem, layers: readonly StateLayer[], findings: Finding[], releases: HelmfileRelease[], options: HelmfileReadOptions): void {
  const env = options.env ?? new Map<string, string>();
  const scope = options.scope ? `${options.scope}: ` : '';
  for (const l of layers) {
    (Array.isArray(l.value.helmfiles) ? l.value.helmfiles : []).forEach((entry: unknown, j: number) => {
      const spec = isObj(entry) ? entry : { path: entry };
      const path = str(spec.path);
      const at = l.locate(['helmfiles', j]);
      const notRead = (why: string) =>
        findings.push({ severity: 'warning', code: 'helmfile-state-not-read', message: `${scope}helmfiles[${j}]: ${path ?? JSON.stringify(entry)} not read: ${why}; its releases are not in the plan`, file: l.file, line: at.line, column: at.column, hint: 'plan, render and validate leave these releases out' });
      if (path === undefined) return notRead('an entry without a path');
      if (/^[a-z0-9]+::|^[a-z]+:\/\//i.test(path)) return notRead('a remote helmfile (helmfile fetches it when it runs; fleetplan reads only this repository)');
      if (path.includes('{{')) return notRead(`a template in ${l.file}, which helmfile does not render (only .gotmpl state files are templates), so no file matches`);
      const base = joinRelative(l.dir, path);
      const targets = base === undefined ? [] : subHelmfileTargets(fs, base);
      if (!targets.length) return notRead(`no file of this repository matches ${base ?? path} (helmfile fails: "no matches for path")`);
      let override: EnvValues = { values: {}, known: true };
      if (Array.isArray(spec.values)) override = loadValuesList(fs, spec.values, l.file, l.dir, ['helmfiles', j, 'values'], l.locate, override, findings, env, options);
      const selectors = Array.isArray(spec.selectors) && spec.selectorsInherited !== true ? spec.selectors.map(String) : options.selectors;
      for (const target of targets) {
        if (options.stack?.includes(target)) {
          notRead(`${target} includes a helmfile that includes it (helmfile refuses the recursion)`);
          continue;
        }
        options.nested?.add(target);
        if (!override.known) {
          findings.push({ severity: 'warning', code: 'helmfile-state-not-read', message: `${scope}helmfiles[${j}]: ${target} not read: its values are not known (see helmfile-value-not-read)`, file: l.file, line: at.line, column: at.column, hint: 'plan, render and validate leave these releases out' });
          continue;
        }
        const { override: _parent, selectors: _sel, stateValues: _cli, ...rest } = options;
        readHelmfile(fs, target, findings, releases, { ...rest, ...(Object.keys(override.values).length ? { override: override.values } : {}), ...(selectors?.length ? { selectors } : {}) });
      }
    });
  }
}

/**
 * Where a release's chart comes from, as an app source: an `oci://` chart, or a chart of a
 * `repositories:` entry, with the version and the values helmfile gives it (inline maps and read
 * templates, in order). Anything else (a local chart, a chart not read) keeps `repoURL: helmfile`,
 * which render --leaves does not build (ADR 0320).
 */
export function releaseSource(r: HelmfileRelease): Pick<AppSpec, 'chart' | 'repoURL' | 'targetRevision' | 'helm' | 'path'> {
  const chart = r.chart ?? `${r.namespace}/${r.name}`;
  let values: Record<string, unknown> | undefined;
  let complete = true;
  for (const v of r.values ?? []) {
    if ('file' in v) {
      if (v.values) values = deepMerge(values ?? {}, v.values) as Record<string, unknown>;
      else complete = false;
    } else values = deepMerge(values ?? {}, 'inline' in v ? v.inline : v.values) as Record<string, unknown>;
  }
  const version = r.version !== undefined ? { targetRevision: r.version } : {};
  const helm = { helm: { releaseName: r.name, ...(values ? { values } : {}) } };
  if (r.chart !== undefined && complete && !r.notRead?.length) {
    if (chart.startsWith('oci://')) return { chart, repoURL: chart.slice(0, chart.lastIndexOf('/')), ...version, ...helm };
    if (r.repository && !r.repository.oci) return { chart: chart.slice(r.repository.name.length + 1), repoURL: r.repository.url, ...version, ...helm };
    // A chart in this repository (`./charts/app`): built from its folder, as helm template builds it (ADR 0383).
    const local = /^\.\.?(\/|$)/.test(chart) ? joinRelative(releaseBaseDir(r), chart) : undefined;
    if (local !== undefined && local !== '.') return { path: local, ...helm };
    if (r.repository?.oci) return { chart: `oci://${r.repository.url.replace(/\/+$/, '')}/${chart.slice(r.repository.name.length + 1)}`, repoURL: `oci://${r.repository.url.replace(/\/+$/, '')}`, ...version, ...helm };
  }
  return { chart, repoURL: HELMFILE_UNBUILT, ...version };
}

/** The repoURL of a helmfile release whose chart render --leaves does not build (see releaseSource). */
export const HELMFILE_UNBUILT = 'helmfile';

/** A Flux Kustomization document of a ks.yaml: as written, and as its listing kustomizations give it. */
interface RawKs {
  file: string;
  doc: Located['docs'][number];
  /** After the listing kustomizations (namespace, patches). */
  listed: Record<string, unknown>;
  /** True when a kustomization.yaml lists the file. */
  hasListing: boolean;
}

/** A Flux Kustomization (model/k8s.ts) that has a name. */
function isFluxKustomization(v: unknown): v is Record<string, unknown> & { metadata: Record<string, unknown>; spec?: unknown } {
  return isFluxKustomizationObject(v) && isObj(v.metadata) && typeof v.metadata.name === 'string';
}

function readKsDocs(fs: RepoFileSystem, file: string, findings: Finding[], chain: readonly ListingStep[] | undefined, out: RawKs[]): void {
  for (const doc of readDocs(fs, file, findings)) {
    const v = doc.value;
    if (!isFluxKustomization(v)) continue;
    let listed: Record<string, unknown>;
    try {
      listed = chain ? applyListing(v, chain) : v;
    } catch (e) {
      findings.push({ severity: 'error', code: 'flux-listing-patch', message: `a patch of ${chain?.map((c) => c.file).join(', ')} cannot be applied to Kustomization ${String(v.metadata.name)}: ${(e as Error).message}`, file, line: doc.locate(['metadata', 'name']).line, hint: 'kustomize build of the listing directory fails the same way; fix the patch' });
      listed = v;
    }
    out.push({ file, doc, listed, hasListing: chain !== undefined && chain.length > 0 });
  }
}

function specPath(v: Record<string, unknown>): string | undefined {
  const spec = isObj(v.spec) ? v.spec : {};
  const p = str(spec.path)?.replace(/^\.\//, '').replace(/\/+$/, '');
  return p === undefined ? undefined : p === '' ? '.' : p;
}

/** The patches of a Flux Kustomization (`spec.patches`), which Flux adds to the kustomization of its path. */
function fluxPatches(k: Record<string, unknown>, from: string): ListingPatch[] {
  const spec = isObj(k.spec) ? k.spec : {};
  const out: ListingPatch[] = [];
  (Array.isArray(spec.patches) ? spec.patches : []).forEach((p: unknown, i: number) => {
    if (!isObj(p) || typeof p.patch !== 'string') return;
    let body: unknown;
    try {
      body = parseYamlAll(p.patch, { schema: 'kyaml' })[0];
    } catch {
      return;
    }
    const patch = Array.isArray(body) ? body.filter(isObj) : isObj(body) ? body : undefined;
    if (patch) out.push({ patch, ...(isObj(p.target) ? { target: p.target } : {}), from: `${from} (spec.patches[${i}])` });
  });
  return out;
}

/**
 * What the parent Flux Kustomization (the one whose path builds the ks.yaml) does to it: its
 * `spec.patches`, `targetNamespace`, `namePrefix`/`nameSuffix`, then its post-build substitution.
 */
function underParent(child: Record<string, unknown>, parent: Record<string, unknown>, parentFile: string, index: RepoConfigIndex, gate: StrictGate, findings: Finding[], at: { file: string; line: number }): Record<string, unknown> {
  let out = applyPatches(child, fluxPatches(parent, parentFile));
  const pspec = isObj(parent.spec) ? parent.spec : {};
  const meta = isObj(out.metadata) ? out.metadata : {};
  if (typeof pspec.targetNamespace === 'string') meta.namespace = pspec.targetNamespace;
  if (typeof meta.name === 'string' && (typeof pspec.namePrefix === 'string' || typeof pspec.nameSuffix === 'string')) {
    meta.name = `${str(pspec.namePrefix) ?? ''}${meta.name}${str(pspec.nameSuffix) ?? ''}`;
  }
  out.metadata = meta;
  const vars = fluxVariables(parent, index);
  const labels = isObj(meta.labels) ? meta.labels : {};
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const disabled = labels['kustomize.toolkit.fluxcd.io/substitute'] === 'disabled' || annotations['kustomize.toolkit.fluxcd.io/substitute'] === 'disabled';
  if (!vars.active || disabled) return out;
  const pname = `${str((parent.metadata as Record<string, unknown>).namespace) ?? '?'}/${String((parent.metadata as Record<string, unknown>).name)}`;
  if (vars.unresolved.length) {
    findings.push({
      severity: 'warning',
      code: 'flux-substitution-unresolved',
      message: `Kustomization ${pname} substitutes variables into ${String(meta.name)} from ${vars.unresolved.map((u) => `${u.source} (${u.reason})`).join(', ')}; fleetplan shows ${String(meta.name)} unsubstituted`,
      file: at.file,
      line: at.line,
      hint: 'the values exist only in the cluster; plan and render show ${...} where Flux would put them',
    });
    return out;
  }
  const unset = new Set<string>();
  try {
    // As kustomize-controller: in kustomize's output, read back with go-yaml v2 (ADR 0389); an
    // unset variable fails the build with the strict gate, else is empty (ADR 0411, 0421).
    const text = fluxSubstitute(dumpYaml(out, { schema: 'kubernetes' }), (n) => (vars.secret.has(n) ? `REDACTED_SECRET_${n}` : vars.vars[n]), undefined, (n) => vars.secret.has(n), gate.strict ? { strict: true } : { unset });
    const back = parseYamlAll(text, { schema: 'kubernetes' })[0];
    if (isObj(back)) out = back;
  } catch (e) {
    const strictNote = gate.strict && e instanceof FluxSubstituteError && !e.notEvaluated && /strict mode/.test(e.message) ? ` (${gate.why})` : '';
    findings.push({ severity: 'error', code: 'flux-substitution', message: `post-build substitution of Kustomization ${pname} fails on ${String(meta.name)}: ${e instanceof FluxSubstituteError ? e.message : (e as Error).message}${strictNote}`, file: at.file, line: at.line, hint: strictNote ? STRICT_HINT : fluxSubstitutionHint(e) });
  }
  if (unset.size) {
    findings.push({
      severity: 'warning',
      code: 'flux-substitution-unset',
      message: `Kustomization ${pname} substitutes ${[...unset].map((v) => `\${${v}}`).join(', ')}, which none of its variables defines, in Kustomization ${String(meta.name)} (${at.file}): kustomize-controller writes an empty string there (${gate.why})`,
      file: at.file,
      line: at.line,
      hint: UNSET_HINT,
    });
  }
  return out;
}

function toKustomization(raw: RawKs, v: Record<string, unknown>): FluxKustomization {
  const { file, doc } = raw;
  const meta = isObj(v.metadata) ? v.metadata : {};
  const spec = isObj(v.spec) ? v.spec : {};
  const pos = doc.locate(['metadata', 'name']);
  const dependsOn: GraphRef[] = [];
  (Array.isArray(spec.dependsOn) ? spec.dependsOn : []).forEach((d: unknown, j: number) => {
    if (!isObj(d) || typeof d.name !== 'string') return;
    const p = doc.locate(['spec', 'dependsOn', j]);
    dependsOn.push({ name: d.name, ...(typeof d.namespace === 'string' ? { namespace: d.namespace } : {}), file, line: p.line, column: p.column });
  });
  const path = specPath(v);
  const inferredNs = /^kubernetes\/apps\/([^/]+)\//.exec(file)?.[1];
  const k: FluxKustomization = {
    name: String(meta.name),
    namespace: str(meta.namespace) ?? (raw.hasListing ? undefined : inferredNs) ?? 'flux-system',
    ...(path !== undefined ? { path } : {}),
    ...(str(spec.targetNamespace) !== undefined ? { targetNamespace: str(spec.targetNamespace)! } : {}),
    file,
    line: pos.line,
    column: pos.column,
    dependsOn,
    components: (Array.isArray(spec.components) ? spec.components : []).flatMap((c: unknown, j: number) => {
      if (typeof c !== 'string') return [];
      const p = doc.locate(['spec', 'components', j]);
      return [{ name: c, file, line: p.line, column: p.column }];
    }),
  };
  if (path !== undefined) ksPathPositions.set(k, doc.locate(['spec', 'path']));
  ksManifests.set(k, v);
  return k;
}

/** The ResourceSet documents of the YAML files below the paths of the Flux Kustomizations. */
function resourceSetDocs(fs: RepoFileSystem, yamls: readonly string[], flux: readonly FluxKustomization[]): { obj: Record<string, unknown>; file: string; locate: (path: YamlPath) => { line: number; column: number } }[] {
  const paths = [...new Set(flux.flatMap((k) => (k.path !== undefined ? [k.path] : [])))];
  return yamls
    .filter((f) => paths.some((p) => p === '.' || f.startsWith(`${p}/`)))
    .filter((f) => /^kind:\s*ResourceSet\s*$/m.test(readTextOr(fs, f)))
    .flatMap((f) => readDocs(fs, f, []).flatMap((d) => (isObj(d.value) ? [{ obj: d.value, file: f, locate: d.locate }] : [])));
}

function readTextOr(fs: RepoFileSystem, f: string): string {
  try {
    return fs.readText(f);
  } catch {
    return '';
  }
}

/**
 * Reads every Flux Kustomization of the repository as Flux applies it: the ks.yaml, then the
 * kustomization.yaml files that list it (listing.ts), then its parent Flux Kustomization's
 * patches, targetNamespace and post-build substitution (parents first).
 */
function readFlux(fs: RepoFileSystem, findings: Finding[]): { flux: FluxKustomization[]; yamls: string[]; index: RepoConfigIndex; gate: StrictGate } {
  const kustomizationFiles: string[] = [];
  const yamls: string[] = [];
  const roots = ksRoots(fs);
  const ks = roots.flatMap((root) => ksFiles(fs, root, 0, [], kustomizationFiles, yamls));
  const index = new RepoConfigIndex(fs, () => yamls);
  // Flux is a helmfile release here: the gate comes from the flux-instance values (ADR 0421).
  const gate = helmfileFluxGate(fs, [...yamls, ...helmfileFiles(fs), ...yamlFilesUnder(fs, 'bootstrap', 0, []), ...yamlFilesUnder(fs, 'clusters', 0, [])]);
  const chains = listingChains(fs, kustomizationFiles, findings);
  const inComponents = (f: string): boolean => roots.some((root) => f.startsWith(`${root}/components/`));
  const holdsKustomization = (f: string): boolean => {
    try {
      const t = fs.readText(f);
      return /^apiVersion:\s*kustomize\.toolkit\.fluxcd\.io\//m.test(t) && /^kind:\s*Kustomization\s*$/m.test(t);
    } catch {
      return false;
    }
  };
  // A file of another name that a kustomization lists beside the ks.yaml files (`./teslamate/grafana-ks.yaml`)
  // is applied by the same build: read it as one of them.
  const known = new Set(ks);
  const files = [...ks, ...yamls.filter((f) => !known.has(f) && chains.has(f) && !inComponents(f) && holdsKustomization(f))];
  const raws: RawKs[] = [];
  for (const f of files) readKsDocs(fs, f, findings, chains.get(f), raws);
  findings.push(...notEmulated(raws.flatMap((r) => (chains.has(r.file) ? [chains.get(r.file)!] : []))));
  // Flux Kustomizations in files this layout does not read (not ks.yaml, not listed by a kustomization, not kubernetes/flux/cluster
  // or the entry's folders): named, so that a plan that leaves them out says so.
  const read = new Set(files);
  const unread = yamls.filter((f) => !read.has(f) && !inComponents(f) && holdsKustomization(f));
  if (unread.length) {
    findings.push({
      severity: 'warning',
      code: 'flux-kustomization-not-read',
      message: `${unread.length} file${unread.length === 1 ? '' : 's'} with Flux Kustomizations ${unread.length === 1 ? 'is' : 'are'} not read by the helmfile + Flux layout (it reads ks.yaml files, the files a kustomization lists, kubernetes/flux/cluster/ and the entry's folders): ${unread.slice(0, 5).join(', ')}${unread.length > 5 ? ', …' : ''}`,
      file: unread[0]!,
      line: 1,
      hint: 'plan, render and validate leave these Kustomizations out; name them ks.yaml, or read this repository another way',
    });
  }
  const parentOfRaw = (r: RawKs) =>
    raws
      .filter((p) => p !== r && specPath(p.listed) !== undefined && (specPath(p.listed) === '.' || r.file.startsWith(specPath(p.listed)! + '/')))
      .sort((a, b) => specPath(b.listed)!.length - specPath(a.listed)!.length)[0];
  // Flux builds a Kustomization's path with its kustomization.yaml, or with one it generates over
  // every file below, except that a folder with its own kustomization file is built as that
  // (fluxcd/pkg/kustomize generator). A ks.yaml that the first kustomization file between its
  // parent's path and its folder does not reach is never applied: no app, and said (ADR 0384).
  const kustomizationIn = new Map(kustomizationFiles.map((f) => [dirOf(f), f]));
  const skippedBy = new Map<RawKs, string>();
  const skipping = (r: RawKs, seen = new Set<RawKs>()): string | undefined => {
    if (skippedBy.has(r)) return skippedBy.get(r);
    const parent = seen.has(r) ? undefined : parentOfRaw(r);
    if (!parent) return undefined;
    seen.add(r);
    const inherited = skipping(parent, seen);
    if (inherited !== undefined) return inherited;
    const top = specPath(parent.listed)!;
    const fileDir = dirOf(r.file);
    let cur = top;
    let first = kustomizationIn.get(top);
    for (const seg of (top === '.' ? fileDir : fileDir.slice(top.length + 1)).split('/').filter((x) => x !== '' && fileDir !== top)) {
      if (first !== undefined) break;
      cur = cur === '.' ? seg : `${cur}/${seg}`;
      first = kustomizationIn.get(cur);
    }
    const reached = first === undefined || (chains.get(r.file) ?? []).some((c) => c.file === first);
    if (!reached) skippedBy.set(r, first!);
    return reached ? undefined : first;
  };
  const notListed = raws.filter((r) => skipping(r) !== undefined);
  if (notListed.length) {
    for (const r of notListed) {
      const by = skippedBy.get(r) ?? skipping(r)!;
      findings.push({ severity: 'warning', code: 'flux-kustomization-not-listed', message: `Kustomization ${String((r.listed.metadata as Record<string, unknown>).name)} in ${r.file} is not applied: ${by} does not list it (directly or through the folders it lists), and Flux builds that folder with it`, file: r.file, line: r.doc.locate(['metadata', 'name']).line, hint: `list it in ${by} (resources:), or remove the file; plan, render and validate leave it out` });
    }
    const keep = new Set(raws.filter((r) => !notListed.includes(r)));
    raws.splice(0, raws.length, ...keep);
  }
  const effective = new Map<RawKs, Record<string, unknown>>();
  const visiting = new Set<RawKs>();
  const effectiveOf = (r: RawKs): Record<string, unknown> => {
    const known = effective.get(r);
    if (known) return known;
    const parent = visiting.has(r) ? undefined : parentOfRaw(r);
    visiting.add(r);
    const v = parent ? underParent(r.listed, effectiveOf(parent), parent.file, index, gate, findings, { file: r.file, line: r.doc.locate(['metadata', 'name']).line }) : r.listed;
    visiting.delete(r);
    effective.set(r, v);
    return v;
  };
  const flux = raws.map((r) => toKustomization(r, effectiveOf(r)));
  // kustomize-controller applies a built tree as one server-side apply and refuses all of it when
  // a namespaced object has no namespace ("Kustomization/<name> namespace not specified").
  flux.forEach((k, i) => {
    const raw = raws[i]!;
    if (str((effective.get(raw)!.metadata as Record<string, unknown>).namespace) !== undefined) return;
    const parent = parentOfRaw(raw);
    const by = parent ? `Kustomization ${String((effective.get(parent)?.metadata as Record<string, unknown> | undefined)?.name)}` : 'its parent';
    findings.push(raw.hasListing
      ? {
          severity: 'error',
          code: 'flux-kustomization-namespace-unset',
          message: `Kustomization ${k.name} has no metadata.namespace after kustomize build of the directories that list it (${chains.get(raw.file)!.map((c) => c.file).join(', ')}); Flux refuses to apply ${by}'s objects ("namespace not specified")`,
          file: k.file,
          line: k.line,
          hint: `set namespace: in ${chains.get(raw.file)![0]!.file}, or metadata.namespace in the file; fleetplan assumes ${k.namespace} meanwhile`,
        }
      : {
          severity: 'warning',
          code: 'flux-kustomization-namespace-unset',
          message: `Kustomization ${k.name} has no metadata.namespace and no kustomization.yaml lists ${k.file}; Flux refuses an object without a namespace ("namespace not specified"); fleetplan assumes ${k.namespace}${raw.file.startsWith('kubernetes/apps/') ? ' from the folder' : ''}`,
          file: k.file,
          line: k.line,
          hint: 'add the kustomization.yaml that lists it with namespace:, or set metadata.namespace',
        });
  });
  return { flux, yamls, index, gate };
}

/** Resolves a helmfile `needs` entry against the releases of one helmfile. */
export function findRelease(releases: readonly HelmfileRelease[], from: HelmfileRelease, ref: GraphRef): HelmfileRelease | undefined {
  const same = releases.filter((r) => r.file === from.file && r.name === ref.name);
  if (ref.namespace !== undefined) return same.find((r) => r.namespace === ref.namespace);
  return same.find((r) => r.namespace === from.namespace) ?? (same.length === 1 ? same[0] : undefined);
}

export function findKustomization(all: readonly FluxKustomization[], from: FluxKustomization, ref: GraphRef): FluxKustomization | undefined {
  const ns = ref.namespace ?? from.namespace;
  return all.find((k) => k.name === ref.name && k.namespace === ns && k.cluster === from.cluster);
}

/** Depth of each node in a graph; edges that close a cycle or name nothing are left out. */
function depths<T>(nodes: readonly T[], edges: (n: T) => T[]): { depth: Map<T, number>; kept: Map<T, T[]> } {
  const depth = new Map<T, number>();
  const kept = new Map<T, T[]>();
  const state = new Map<T, 1 | 2>();
  const visit = (n: T): number => {
    const s = state.get(n);
    if (s === 2) return depth.get(n)!;
    state.set(n, 1);
    let d = 0;
    const k: T[] = [];
    for (const m of edges(n)) {
      if (state.get(m) === 1) continue; // closes a cycle
      d = Math.max(d, visit(m) + 1);
      k.push(m);
    }
    state.set(n, 2);
    depth.set(n, d);
    kept.set(n, k);
    return d;
  };
  for (const n of nodes) visit(n);
  return { depth, kept };
}

/** Where an app of this layout is written: its entry, and fields that have a place of their own. */
export interface AppPlace {
  line: number;
  column: number;
  /** YAML path of the entry in its file (`releases[2]`, `metadata.name`). */
  path: YamlPath;
  fields: Record<string, { line: number; column: number; path: YamlPath }>;
}

/**
 * A SourceFile over a helmfile or ks.yaml seen as a group (`spec.apps.<app>.<field>`): positions
 * and printed paths are those of the real file.
 */
export function groupSource(file: string, apps: Record<string, AppSpec>, at: Map<string, AppPlace>): SourceFile {
  const lookup = (path: YamlPath) => {
    const p = typeof path[2] === 'string' ? at.get(path[2]) : undefined;
    const f = p && typeof path[3] === 'string' ? p.fields[path[3]] : undefined;
    return { p, f };
  };
  return {
    file,
    value: { spec: { apps } },
    locate(path) {
      const { p, f } = lookup(path);
      return f ?? p ?? { line: 1, column: 1 };
    },
    displayPath(path) {
      const { p, f } = lookup(path);
      return f?.path ?? p?.path ?? [];
    },
  };
}

export function loadHelmfileFlux(fs: RepoFileSystem, context: { helmfileEnvironment?: string; helmfileStateValues?: HelmfileStateValues; helmfileChartDigests?: boolean; helmfileEnv?: Record<string, string> } = {}): LoadResult {
  const environment = context.helmfileEnvironment;
  const stateValues = context.helmfileStateValues;
  const findings: Finding[] = [];
  const releases: HelmfileRelease[] = [];
  // A state file another one includes through `helmfiles:` is read there, with that entry's values and selectors.
  const nested = new Set<string>();
  const uninstalled: HelmfileRelease[] = [];
  const topLevel = helmfileFiles(fs);
  const cliValues = stateValuesOfFiles(fs, topLevel, stateValues);
  for (const f of topLevel) if (!nested.has(f)) readHelmfile(fs, f, findings, releases, { nested, uninstalled, ...(context.helmfileEnv ? { env: new Map(Object.entries(context.helmfileEnv)) } : {}), ...(environment !== undefined ? { environment } : {}), ...cliValues(f), ...(context.helmfileChartDigests ? { chartDigests: true } : {}) });
  const { flux, yamls, gate } = readFlux(fs, findings);
  const noCrossNamespaceRefs = findNoCrossNamespaceRefs(fs, [...yamls, ...yamlFilesUnder(fs, 'bootstrap', 0, []), ...yamlFilesUnder(fs, 'clusters', 0, [])]);
  const helmfileEnvironments = readHelmfileEnvironments(fs, helmfileFiles(fs));
  const graphs: FleetGraphs = { helmfile: releases, flux, ...(noCrossNamespaceRefs ? { noCrossNamespaceRefs } : {}), ...(helmfileEnvironments.length ? { helmfileEnvironments } : {}), ...(environment !== undefined ? { helmfileEnvironment: environment } : {}), ...(stateValues?.given.length ? { helmfileStateValues: stateValues.given } : {}) };

  // Waves: CRD phase 0; apps phase 1 + depth of needs; Flux after the bootstrap by dependsOn depth.
  const crds = releases.filter((r) => r.phase === 'crds');
  const apps = releases.filter((r) => r.phase === 'apps');
  const rel = depths(apps, (r) => r.needs.map((n) => findRelease(apps, r, n)).filter((x): x is HelmfileRelease => x !== undefined && x.phase === 'apps'));
  // A Kustomization whose path holds another's ks.yaml creates it: the child waits for its parent.
  const parentOf = (k: FluxKustomization) => flux.filter((p) => p !== k && p.path !== undefined && (p.path === '.' || k.file.startsWith(p.path + '/'))).sort((a, b) => b.path!.length - a.path!.length)[0];
  const ks = depths(flux, (k) => {
    const deps = k.dependsOn.map((d) => findKustomization(flux, k, d)).filter((x): x is FluxKustomization => x !== undefined);
    const parent = parentOf(k);
    return parent ? [...deps, parent] : deps;
  });
  const fluxBase = (apps.length ? Math.max(...apps.map((r) => rel.depth.get(r)!)) + 2 : crds.length ? 1 : 0);

  const groups = new Map<string, GroupDef>();
  const sources = new Map<string, SourceFile>();
  const byFile = new Map<string, { apps: Record<string, AppSpec>; at: Map<string, AppPlace> }>();
  const addApp = (file: string, name: string, spec: AppSpec, pos: AppPlace) => {
    let g = byFile.get(file);
    if (!g) byFile.set(file, (g = { apps: {}, at: new Map() }));
    g.apps[name] = spec;
    g.at.set(name, pos);
  };
  for (const r of releases) {
    const chart = r.chart ?? `${r.namespace}/${r.name}`;
    const spec: AppSpec = {
      ...releaseSource(r),
      namespace: r.namespace,
      wave: r.phase === 'crds' ? 0 : 1 + rel.depth.get(r)!,
      labels: { [PHASE_LABEL]: r.phase === 'crds' ? 'crds' : 'bootstrap' },
      provides: [...(helmCharts[chartName(chart)] ?? [])],
    };
    const needs = r.phase === 'apps' ? (rel.kept.get(r) ?? []).map(releaseApp) : [];
    if (needs.length) spec.needs = needs;
    const entry = { line: r.line, column: r.column, path: releasePaths.get(r) ?? [] };
    addApp(r.file, releaseApp(r), spec, { ...entry, fields: r.needs[0] ? { needs: { line: r.needs[0].line, column: r.needs[0].column, path: [...entry.path, 'needs'] } } : {} });
  }
  const foreign: { k: FluxKustomization; src: string }[] = [];
  for (const k of flux) {
    const spec: AppSpec = {
      path: k.path ?? dirOf(k.file),
      namespace: k.targetNamespace ?? k.namespace,
      wave: fluxBase + ks.depth.get(k)!,
    };
    const manifest = ksManifests.get(k);
    if (manifest) spec.manifest = manifest;
    // A Kustomization of an ExternalArtifact, OCIRepository or Bucket: its path is in that source, which
    // this layout does not map to the repository (the flux layout maps ArtifactGenerators): said, and
    // its path not looked for here (ADR 0339).
    const mspec = manifest && isObj(manifest.spec) ? manifest.spec : {};
    const ref = isObj(mspec.sourceRef) ? mspec.sourceRef : undefined;
    if (ref && typeof ref.kind === 'string' && ref.kind !== 'GitRepository') {
      const src = `${ref.kind} ${typeof ref.namespace === 'string' ? ref.namespace : k.namespace}/${String(ref.name)}`;
      spec.repoURL = src;
      foreign.push({ k, src });
    }
    const parent = parentOf(k);
    const needs = (ks.kept.get(k) ?? []).filter((x) => x !== parent || k.dependsOn.some((d) => findKustomization(flux, k, d) === x)).map(kustomizationApp);
    if (needs.length) spec.needs = needs;
    const entry = { line: k.line, column: k.column, path: ['metadata', 'name'] };
    const fields: AppPlace['fields'] = {};
    const pathAt = ksPathPositions.get(k);
    if (pathAt) fields.path = { ...pathAt, path: ['spec', 'path'] };
    if (k.dependsOn[0]) fields.needs = { line: k.dependsOn[0].line, column: k.dependsOn[0].column, path: ['spec', 'dependsOn'] };
    addApp(k.file, kustomizationApp(k), spec, { ...entry, fields });
  }
  if (foreign.length) {
    const first = foreign[0]!;
    findings.push({
      severity: 'info',
      code: 'flux-source-not-read',
      message: `${foreign.length} Flux Kustomization${foreign.length === 1 ? '' : 's'} build${foreign.length === 1 ? 's' : ''} a source that is not this repository's GitRepository (${[...new Set(foreign.map((f) => f.src.split(' ')[0]))].join(', ')}): ${foreign.slice(0, 5).map((f) => `${kustomizationApp(f.k)} (${f.src})`).join(', ')}${foreign.length > 5 ? ', …' : ''}; fleetplan lists them but not the objects they apply`,
      file: first.k.file,
      line: first.k.line,
      hint: 'the objects come from the artifact in the cluster; plan, render and validate do not read them',
    });
  }
  // flux-operator ResourceSets in the folders the Kustomizations build: named, as the flux layout names them (ADR 0416).
  const resourceSets = resourceSetsNotRead(resourceSetDocs(fs, yamls, flux), CLUSTER_NAME);
  findings.push(...resourceSets.findings);
  const groupNames: string[] = [];
  [...byFile.entries()].forEach(([file, g], i) => {
    const name = `layout-${i}`;
    groupNames.push(name);
    groups.set(name, { name, file, metadata: { name }, spec: { apps: g.apps } });
    sources.set(file, groupSource(file, g.apps, g.at));
  });
  const listed = selectEnvironment({ ...graphs, helmfile: [...releases, ...uninstalled] }, environment ?? DEFAULT_HELMFILE_ENVIRONMENT).releases;
  const cluster: ClusterDef = {
    name: CLUSTER_NAME,
    file: helmfileFiles(fs)[0] ?? flux[0]?.file ?? '.',
    metadata: { name: CLUSTER_NAME },
    spec: { role: 'standalone', platform: 'kubernetes', groups: groupNames },
    notes: [HELMFILE_FLUX_PLAN_NOTE, ...resourceSets.notes],
    // What helmfile runs in the environment (the helmfiles that define it), for diff.
    ...(listed.length ? { helmfileReleases: listed } : {}),
  };
  const fleet: Fleet = {
    ...emptyFleet(fs.root, 'helmfile-flux', { bootstrap: false, renderRepositoryObjects: true, repositoryArgoConfig: true, promote: false, leafVariables: false, appVariables: false, engineApisFirst: 'after-bootstrap', helmfileEnvironments: true }),
    // leafVariables: false — Flux substitutes its own post-build variables and helmfile none; fleetplan's never reach these leaves.
    // helmfile bootstraps the cluster and Flux reads the repository's own Kustomizations.
    name: fs.root.split('/').filter(Boolean).pop() ?? 'fleet',
    file: cluster.file,
    repoURL: 'local',
    platform: 'kubernetes',
    engine: 'flux',
    gitopsNamespace: 'flux-system',
    clusters: [cluster],
    groups,
    sources,
    loadFindings: findings,
    graphs,
  };
  // render --leaves builds each Kustomization's path as kustomize-controller does: with the strict
  // gate, an unset variable fails it (ADR 0421). Replaces what an earlier load of this root recorded.
  const lookup = gate.strict ? new RepoConfigIndex(fs, () => repositoryYamlFiles(fs)) : undefined;
  setFluxBuildScopes(fs.root, lookup ? flux.flatMap((k) => (ksManifests.has(k) ? [{ cluster: cluster.name, manifest: ksManifests.get(k)!, scope: { lookup, strictSubstitution: true } }] : [])) : []);
  return { fleet, findings };
}
