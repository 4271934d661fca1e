/**
 * A helmfile release as diff compares it (docs/adr/0395-diff-helmfile-releases.md): one entry per
 * release a cluster's helmfile bootstrap lists, keyed as plan names the release's app
 * (`helmfile:<namespace>/<name>`, `helmfile-crds:<namespace>/<name>` for the CRD phase), holding
 * what helmfile gives helm: the chart (and its repository), the version, the values merged as
 * helm merges its `--values` files, `set`, `needs`, whether it is installed, its labels. Its
 * sops-encrypted `secrets:` appear as a digest only, which the redaction turns into a marker
 * (./redact.ts); what the reader could not read is listed in `notRead`, never guessed.
 */
import type { K8sObject } from '../model/k8s.js';
import { releaseApp } from '../model/release-app.js';
import type { ObjectDiff, OrderChange } from './types.js';

/** The apiVersion of an entry that is a helmfile release, not a Kubernetes object. */
export const HELMFILE_API = 'helmfile';
/** The kinds of the two phases: a release helmfile installs, and one whose CRDs alone are applied. */
export const HELMFILE_RELEASE = 'HelmfileRelease';
export const HELMFILE_CRDS = 'HelmfileCRDs';

export function isHelmfileEntry(o: { apiVersion?: unknown } | undefined): boolean {
  return o !== undefined && o.apiVersion === HELMFILE_API;
}

/** The plan's app name of an entry. */
function appOf(o: { kind: string; name: string; namespace?: string }): string {
  return releaseApp({ name: o.name, namespace: o.namespace ?? '', phase: o.kind === HELMFILE_CRDS ? 'crds' : 'apps' });
}
/**
 * What a reviewer must know beside the fields: a release no longer listed stays installed
 * (helmfile uninstalls only releases written `installed: false`), and a changed release with
 * inputs fleetplan could not read may differ there too.
 */
export function helmfileReleaseNotes(objects: readonly ObjectDiff[], sides: readonly (readonly { object: K8sObject }[])[]): string[] {
  const notes: string[] = [];
  const entries = (o: ObjectDiff) => sides.flatMap((s) => s.filter((x) => x.object.apiVersion === HELMFILE_API && x.object.kind === o.kind && x.object.metadata.name === o.name && x.object.metadata.namespace === o.namespace).map((x) => x.object));
  for (const o of objects) {
    if (!isHelmfileEntry(o)) continue;
    if (o.change === 'removed' && o.kind === HELMFILE_RELEASE && entries(o).some((x) => x.installed === true)) {
      notes.push(`${appOf(o)} is no longer listed: helmfile leaves the installed release in the cluster (write installed: false to have it uninstalled)`);
    }
    if (o.change === 'added' && o.kind === HELMFILE_RELEASE && entries(o).every((x) => x.installed === false)) {
      notes.push(`${appOf(o)} is listed with installed: false: helmfile installs nothing, and uninstalls the release if the cluster has it`);
    }
    if (o.change !== 'changed') continue;
    const [before, after] = entries(o);
    // Files compared by digest (./redact.ts): what changed, said in words, never the digest.
    const digests = (x: K8sObject | undefined, field: string) => (x && typeof x[field] === 'object' && x[field] !== null ? (x[field] as Record<string, unknown>) : {});
    for (const [file, digest] of Object.entries(digests(after, 'valuesNotRead'))) {
      const was = digests(before, 'valuesNotRead')[file];
      if (was === undefined || was === digest) continue;
      const why = (Array.isArray(after!.notRead) ? (after!.notRead as string[]) : []).find((n) => n.startsWith(`values ${file} (`));
      notes.push(`${appOf(o)}: values file ${file} changed (not read: ${why ? why.slice(`values ${file} (`.length, -1) : 'no values read from it'})`);
    }
    for (const [folder, digest] of Object.entries(digests(after, 'chartFiles'))) {
      const was = digests(before, 'chartFiles')[folder];
      if (was !== undefined && was !== digest) notes.push(`${appOf(o)}: chart files changed (${folder}: --leaves shows what they render)`);
    }
    const unread = new Set(entries(o).flatMap((x) => (Array.isArray(x.notRead) ? (x.notRead as string[]) : [])));
    if (unread.size) notes.push(`${appOf(o)}: not read, so what a change there does to the release is not shown: ${[...unread].join('; ')}`);
  }
  return notes;
}

/**
 * The order changes without the `needs` of a release whose entry already shows its `needs` field
 * changed (helmfile-flux gives the plan the releases' needs): a reviewer sees the change once, as
 * written in the helmfile, as on the flux layout whose releases have no needs in the plan (ADR 0395).
 */
export function withoutReleaseNeeds(order: readonly OrderChange[], objects: readonly ObjectDiff[]): OrderChange[] {
  const shown = new Set(objects.filter((o) => isHelmfileEntry(o) && o.change === 'changed' && o.fields.some((f) => f.path === 'needs' || f.path.startsWith('needs['))).map(appOf));
  return shown.size ? order.filter((c) => !(c.what === 'needs' && c.app !== undefined && shown.has(c.app))) : [...order];
}
