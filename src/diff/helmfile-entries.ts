/**
 * Each helmfile release of a cluster as an entry of the diff (./helmfile.ts says what an entry is;
 * this module is apart so that a diff answered from records does not load the merge it needs).
 */
import type { HelmfileRelease } from '../model/graphs.js';
import type { K8sObject } from '../model/k8s.js';
import { deepMerge } from '../model/merge.js';
import { HELMFILE_API, HELMFILE_CRDS, HELMFILE_RELEASE } from './helmfile.js';

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
  // Values files of the repository not read: compared by a digest of their text (./redact.ts marks it).
  const unreadDigests = (r.values ?? []).flatMap((v) => ('file' in v && v.values === undefined && v.digest !== undefined ? [[v.file, v.digest] as const] : []));
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
    ...(unreadDigests.length ? { valuesNotRead: Object.fromEntries(unreadDigests) } : {}),
    ...(r.chartFiles ? { chartFiles: { [r.chartFiles.folder]: r.chartFiles.digest } } : {}),
    ...(notRead.length ? { notRead } : {}),
  };
  return { file: r.file, object };
}

/** The entries of a cluster's helmfile releases. */
export function helmfileReleaseEntries(releases: readonly HelmfileRelease[] | undefined): { file: string; object: K8sObject }[] {
  return (releases ?? []).map(helmfileReleaseEntry);
}

