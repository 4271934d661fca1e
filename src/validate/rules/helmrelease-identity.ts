/**
 * A helmfile release that a Flux HelmRelease takes over later (seed 003: helmfile installs Cilium,
 * CoreDNS, …, the Flux operator; then Flux reconciles the same apps) must be the Helm release
 * helm-controller looks for, or Flux installs a second release instead of adopting the first
 * (duplicate objects, ownership conflicts). helm-controller's identity of a HelmRelease
 * (fluxcd/helm-controller api/v2 GetReleaseName, GetReleaseNamespace, GetStorageNamespace and
 * internal/release ShortenName):
 *
 *   release name       spec.releaseName, else `<spec.targetNamespace>-<name>` when targetNamespace
 *                      is set, else metadata.name; over 53 characters it is shortened
 *                      (`<first 40>-<12 hex of its SHA-256>`)
 *   release namespace  spec.targetNamespace, else the HelmRelease's namespace
 *   storage namespace  spec.storageNamespace, else the HelmRelease's namespace
 *
 * The helm CLI (helmfile) installs release `name` into and stores it in `namespace`. The
 * HelmRelease of a release is the one named like it in its namespace (its own, its targetNamespace,
 * or the namespace of the Kustomization that applies it), found under the Flux Kustomizations'
 * paths and at the layout's convention `kubernetes/apps/<ns>/<name>/app/helmrelease.yaml`.
 * Decisions: docs/adr/0263-helmrelease-identity.md.
 */
import { createHash } from 'node:crypto';
import type { Finding } from '../../model/finding.js';
import type { FluxKustomization, HelmfileRelease } from '../../model/graphs.js';
import { releaseId } from '../../model/graphs.js';
import type { ManifestObject } from '../../load/manifests.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { at } from '../context.js';

/** helm-controller's ShortenName: names over 53 characters become `<first 40>-<12 hex of sha256>`. */
export function shortenReleaseName(name: string): string {
  if (name.length <= 53) return name;
  return `${name.slice(0, 40)}-${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

export interface FluxHelmReleaseIdentity {
  file: string;
  line: number;
  name: string;
  /** The HelmRelease's own namespace: metadata.namespace, else what applies it sets; undefined when unknown. */
  namespace?: string;
  releaseName: string;
  /** Why the release name is what it is, for the message. */
  releaseNameFrom: string;
  releaseNamespace?: string;
  storageNamespace?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** helm-controller's identity of one HelmRelease document. */
export function helmReleaseIdentity(o: ManifestObject, namespace: string | undefined): FluxHelmReleaseIdentity {
  const spec = (typeof o.body.spec === 'object' && o.body.spec !== null ? o.body.spec : {}) as Record<string, unknown>;
  const name = o.name ?? '';
  const target = str(spec.targetNamespace);
  const explicit = str(spec.releaseName);
  const full = explicit ?? (target !== undefined ? `${target}-${name}` : name);
  const releaseName = shortenReleaseName(full);
  const releaseNameFrom = explicit !== undefined ? 'spec.releaseName' : target !== undefined ? `spec.targetNamespace "${target}" + "-" + metadata.name, no spec.releaseName` : 'metadata.name';
  const storage = str(spec.storageNamespace) ?? namespace;
  const releaseNs = target ?? namespace;
  return {
    file: o.file,
    line: o.line,
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    releaseName,
    releaseNameFrom: full !== releaseName ? `${releaseNameFrom}, shortened from "${full}" past 53 characters` : releaseNameFrom,
    ...(releaseNs !== undefined ? { releaseNamespace: releaseNs } : {}),
    ...(storage !== undefined ? { storageNamespace: storage } : {}),
  };
}

/** YAML files at most `depth` folders below `dir`. */
function yamlFiles(ctx: RuleContext, dir: string, depth: number, out: Set<string>): void {
  if (depth < 0 || !ctx.fs.isDirectory(dir)) return;
  let entries: string[];
  try {
    entries = ctx.fs.list(dir);
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.startsWith('.')) continue;
    const p = dir === '.' ? e : `${dir}/${e}`;
    if (ctx.fs.isDirectory(p)) yamlFiles(ctx, p, depth - 1, out);
    else if (/\.ya?ml$/.test(e)) out.add(p);
  }
}

/** The Kustomization that applies `file`: the deepest whose path holds it. */
function applier(flux: readonly FluxKustomization[], file: string): FluxKustomization | undefined {
  return flux
    .filter((k) => k.path !== undefined && k.path !== '.' && (file.startsWith(`${k.path}/`)))
    .sort((a, b) => b.path!.length - a.path!.length)[0];
}

/** The Flux HelmReleases a helmfile release may be taken over by, with helm-controller's identity. */
function candidates(ctx: RuleContext, releases: readonly HelmfileRelease[], flux: readonly FluxKustomization[]): FluxHelmReleaseIdentity[] {
  const files = new Set<string>();
  for (const r of releases) {
    const conventional = `kubernetes/apps/${r.namespace}/${r.name}/app/helmrelease.yaml`;
    if (ctx.fs.exists(conventional)) files.add(conventional);
  }
  for (const k of flux) if (k.path !== undefined && k.path !== '.') yamlFiles(ctx, k.path, 2, files);
  const out: FluxHelmReleaseIdentity[] = [];
  for (const f of [...files].sort()) {
    for (const o of ctx.manifests.file(f)) {
      if (o.kind !== 'HelmRelease' || o.group !== 'helm.toolkit.fluxcd.io' || o.name === undefined) continue;
      const meta = (o.body.metadata ?? {}) as Record<string, unknown>;
      const conventional = /^kubernetes\/apps\/([^/]+)\/[^/]+\/app\/helmrelease\.ya?ml$/.exec(f)?.[1];
      const ns = str(meta.namespace) ?? applier(flux, f)?.targetNamespace ?? o.namespace ?? conventional;
      out.push(helmReleaseIdentity(o, ns));
    }
  }
  return out;
}

export const helmReleaseIdentityRule: RuleDefinition = {
  name: 'helmrelease-identity',
  codes: {
    'helmrelease-identity': {
      severity: 'error',
      summary: 'a helmfile release is not the Helm release its Flux HelmRelease adopts',
      help: 'helm-controller looks for the release named spec.releaseName (else <targetNamespace>-<name> when targetNamespace is set, else the HelmRelease name), stored in spec.storageNamespace (else the HelmRelease namespace). When that is not the release helmfile installed (name, -n namespace), Flux installs a second release instead of adopting it. Set spec.releaseName and spec.storageNamespace (or drop targetNamespace) so both agree, or rename the helmfile release.',
    },
  },
  run(ctx) {
    const graphs = ctx.fleet.graphs;
    if (!graphs) return [];
    const releases = graphs.helmfile.filter((r) => r.phase === 'apps');
    if (releases.length === 0) return [];
    const hrs = candidates(ctx, releases, graphs.flux);
    const out: Finding[] = [];
    for (const r of releases) {
      const named = hrs.filter((h) => h.name === r.name && (h.namespace === r.namespace || h.releaseNamespace === r.namespace || h.storageNamespace === r.namespace));
      // Taken over as it is: some HelmRelease is exactly this release.
      if (named.length === 0 || hrs.some((h) => h.releaseName === r.name && h.storageNamespace === r.namespace && h.releaseNamespace === r.namespace)) continue;
      for (const h of named) {
        const diffs: string[] = [];
        if (h.releaseName !== r.name) diffs.push(`release name "${h.releaseName}" (${h.releaseNameFrom}), helmfile installs "${r.name}"`);
        if (h.storageNamespace !== undefined && h.storageNamespace !== r.namespace) diffs.push(`storage namespace "${h.storageNamespace}" (${h.storageNamespace === h.namespace ? 'the HelmRelease namespace, no spec.storageNamespace' : 'spec.storageNamespace'}), helmfile stores it in "${r.namespace}"`);
        if (h.releaseNamespace !== undefined && h.releaseNamespace !== r.namespace) diffs.push(`release namespace "${h.releaseNamespace}", helmfile installs into "${r.namespace}"`);
        if (diffs.length === 0) continue;
        out.push(at(r.file, r.line, {
          severity: 'error',
          code: 'helmrelease-identity',
          message: `helmfile release ${releaseId(r)} (${r.file}:${r.line}) is not the release Flux HelmRelease ${h.namespace ?? '?'}/${h.name} (${h.file}:${h.line}) adopts: ${diffs.join('; ')}; Flux would install a second release instead of adopting this one`,
          hint: h.releaseName !== r.name
            ? `set spec.releaseName: ${r.name} in ${h.file}${h.storageNamespace !== r.namespace ? ` and spec.storageNamespace: ${r.namespace}` : ''}, or rename the helmfile release`
            : `set spec.storageNamespace: ${r.namespace} (and spec.targetNamespace: ${r.namespace}) in ${h.file}, or move the helmfile release to namespace ${h.storageNamespace ?? '?'}`,
        }));
      }
    }
    return out;
  },
};
