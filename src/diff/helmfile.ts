/**
 * A helmfile release as diff compares it (docs/adr/0395-diff-helmfile-releases.md): one entry per
 * release a cluster's helmfile bootstrap lists, keyed as plan names the release's app
 * (`helmfile:<namespace>/<name>`, `helmfile-crds:<namespace>/<name>` for the CRD phase), holding
 * what helmfile gives helm: the chart (and its repository), the version, the values merged as
 * helm merges its `--values` files, `set`, `needs`, whether it is installed, its labels. Its
 * sops-encrypted `secrets:` appear as a digest only, which the redaction turns into a marker
 * (./redact.ts); what the reader could not read is listed in `notRead`, never guessed.
 */
import type { HelmfileRelease } from '../model/graphs.js';
import { releaseApp } from '../model/graphs.js';
import type { K8sObject } from '../model/k8s.js';
import { deepMerge } from '../model/merge.js';
import type { ObjectDiff } from './types.js';

/** The apiVersion of an entry that is a helmfile release, not a Kubernetes object. */
export const HELMFILE_API = 'helmfile';
/** The kinds of the two phases: a release helmfile installs, and one whose CRDs alone are applied. */
export const HELMFILE_RELEASE = 'HelmfileRelease';
export const HELMFILE_CRDS = 'HelmfileCRDs';

export function isHelmfileEntry(o: { apiVersion?: unknown } | undefined): boolean {
  return o !== undefined && o.apiVersion === HELMFILE_API;
}

/** The merged values of a release (files, inline maps and templates in order, as helm merges them), and the files whose values were not read. */
function mergedValues(r: HelmfileRelease): { values: Record<string, unknown>; unread: string[] } {
  let values: Record<string, unknown> = {};
  const unread: string[] = [];
  for (const v of r.values ?? []) {
    if ('file' in v) {
      if (v.values !== undefined) values = deepMerge(values, v.values);
      else unread.push(v.file);
    } else values = deepMerge(values, 'inline' in v ? v.inline : v.values);
  }
  return { values, unread };
}

/** One release as an entry of the diff, with the file it is written in. */
export function helmfileReleaseEntry(r: HelmfileRelease): { file: string; object: K8sObject } {
  const { values, unread } = mergedValues(r);
  const said = [...(r.notRead ?? []), ...(r.fieldsNotRead ?? [])];
  // A values file not read that the reader's notes do not already name: not a file of the repository, or no map of values in it.
  const notRead = [...said, ...unread.filter((f) => !said.some((n) => n.startsWith(`values ${f} `))).map((f) => `values ${f} (not a file of the repository, or not a map of values)`)];
  const object: K8sObject = {
    apiVersion: HELMFILE_API,
    kind: r.phase === 'crds' ? HELMFILE_CRDS : HELMFILE_RELEASE,
    metadata: { name: r.name, namespace: r.namespace },
    chart: r.chart ?? null,
    ...(r.repository !== undefined ? { repository: r.repository.url } : {}),
    ...(r.version !== undefined ? { version: r.version } : {}),
    installed: r.installed !== false,
    values,
    ...(r.set?.length ? { set: r.set } : {}),
    needs: r.needs.map((n) => (n.namespace !== undefined ? `${n.namespace}/${n.name}` : n.name)),
    ...(r.labels !== undefined ? { labels: r.labels } : {}),
    ...(r.secrets?.length ? { secrets: Object.fromEntries(r.secrets.map((s) => [s.file, s.digest ?? '(not in the repository)'])) } : {}),
    ...(notRead.length ? { notRead } : {}),
  };
  return { file: r.file, object };
}

/** The entries of a cluster's helmfile releases. */
export function helmfileReleaseEntries(releases: readonly HelmfileRelease[] | undefined): { file: string; object: K8sObject }[] {
  return (releases ?? []).map(helmfileReleaseEntry);
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
    const unread = new Set(entries(o).flatMap((x) => (Array.isArray(x.notRead) ? (x.notRead as string[]) : [])));
    if (unread.size) notes.push(`${appOf(o)}: not read, so a change there is not shown: ${[...unread].join('; ')}`);
  }
  return notes;
}
