/**
 * Which objects of an Argo CD Application's chart a sync creates (ADR 0419), by gitops-engine's
 * reading of hook annotations (pkg/sync/hook, hook/helm, ignore, sync_phase.go):
 *
 * - An annotation is read as comma-separated values, each trimmed, empties dropped
 *   (resource.GetAnnotationCSVs); names are compared exactly, without Helm's lower-casing.
 * - `argocd.argoproj.io/hook` types are PreSync, Sync, PostSync, SyncFail and Skip; when it names
 *   none of them, the `helm.sh/hook` events are read instead: pre-install and pre-upgrade are
 *   PreSync, post-install and post-upgrade PostSync, anything else no type.
 * - An object is a hook when it has `argocd.argoproj.io/hook` (unless its only type is Skip) or a
 *   `helm.sh/hook` other than `crd-install`. A hook with no type is ignored: no sync creates it
 *   (test, delete and rollback hooks; Argo CD's own PreDelete/PostDelete, which its application
 *   controller runs when the Application is deleted). An object whose only type is Skip is never
 *   applied; a hook is created at a sync when it has one of PreSync, Sync, PostSync (SyncFail alone:
 *   only when a sync fails).
 * - Kubernetes' unstructured reads no annotations at all when one of them is not a string.
 */
import { isPlainObject } from '../../model/merge.js';
import { parseYamlAll } from '../../yaml/index.js';

/** Why a sync does not create an object, for the leaves' note. */
export type ArgoLeftOut = 'test' | 'delete' | 'rollback' | 'unknown' | 'skip' | 'syncfail';

const ARGO_TYPES = new Set(['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip']);
const HELM_TYPES: Record<string, string> = { 'pre-install': 'PreSync', 'pre-upgrade': 'PreSync', 'post-install': 'PostSync', 'post-upgrade': 'PostSync' };

/** GetAnnotationCSVs: split at commas, trimmed, no empty values, each once. */
const csv = (v: string | undefined): string[] => (v === undefined ? [] : [...new Set(v.split(',').map((s) => s.trim()).filter((s) => s !== ''))]);

/** The object's annotations as unstructured.GetAnnotations gives them (none when a value is not a string). */
function annotationsOf(o: unknown): Record<string, string> {
  const meta = isPlainObject(o) && isPlainObject(o.metadata) ? o.metadata : undefined;
  const a = meta && isPlainObject(meta.annotations) ? meta.annotations : undefined;
  if (a === undefined || Object.values(a).some((v) => typeof v !== 'string')) return {};
  return a as Record<string, string>;
}

/** `true` when an Argo CD sync creates `o`; else why not. */
export function argoCdSyncCreates(o: unknown): true | ArgoLeftOut {
  const a = annotationsOf(o);
  const argo = Object.hasOwn(a, 'argocd.argoproj.io/hook') ? a['argocd.argoproj.io/hook'] : undefined;
  const helm = Object.hasOwn(a, 'helm.sh/hook') ? a['helm.sh/hook'] : undefined;
  if (argo === undefined && (helm === undefined || helm === 'crd-install')) return true;
  const argoTypes = csv(argo).filter((t) => ARGO_TYPES.has(t));
  const helmEvents = csv(helm);
  const types = argoTypes.length ? argoTypes : helmEvents.filter((e) => Object.hasOwn(HELM_TYPES, e)).map((e) => HELM_TYPES[e]!);
  if (types.length === 1 && types[0] === 'Skip') return 'skip';
  if (types.some((t) => t === 'PreSync' || t === 'Sync' || t === 'PostSync')) return true;
  if (types.includes('SyncFail')) return 'syncfail';
  // No sync phase: say which kind of hook it was.
  const argoValues = csv(argo);
  if (argoValues.includes('PreDelete') || argoValues.includes('PostDelete')) return 'delete';
  if (helmEvents.some((e) => e === 'test' || e === 'test-success')) return 'test';
  if (helmEvents.some((e) => e === 'pre-delete' || e === 'post-delete')) return 'delete';
  if (helmEvents.some((e) => e === 'pre-rollback' || e === 'post-rollback')) return 'rollback';
  return 'unknown';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The notes of what was left out, one per reason. */
export function argoLeftOutNotes(left: ReadonlyMap<ArgoLeftOut, number>): string[] {
  const notes: string[] = [];
  const n = (k: ArgoLeftOut) => left.get(k) ?? 0;
  if (n('test')) notes.push(`${plural(n('test'), 'Helm test hook', 'Helm test hooks')} left out: Argo CD gives test hooks no sync phase (it never runs helm test)`);
  if (n('delete')) notes.push(`${plural(n('delete'), 'delete hook', 'delete hooks')} left out: Argo CD runs them only when the Application is deleted (PreDelete/PostDelete, in the Argo CD versions that have them), never at a sync`);
  if (n('rollback')) notes.push(`${plural(n('rollback'), 'rollback hook', 'rollback hooks')} left out: Argo CD does no Helm rollback`);
  if (n('unknown')) notes.push(`${plural(n('unknown'), 'hook', 'hooks')} left out: a hook annotation Argo CD does not read as a sync hook (gitops-engine compares the helm.sh/hook events pre-install, pre-upgrade, post-install, post-upgrade as written)`);
  if (n('skip')) notes.push(`${plural(n('skip'), 'object', 'objects')} left out: argocd.argoproj.io/hook: Skip`);
  if (n('syncfail')) notes.push(`${plural(n('syncfail'), 'SyncFail hook', 'SyncFail hooks')} left out: Argo CD creates it only when a sync fails`);
  return notes;
}

/**
 * The built text less the documents no sync creates, and how many of each reason. Documents are cut
 * at their `---` lines (a document marker ends a block scalar too); a document that does not parse
 * alone is kept, for the manifests' own parse to report. A text that names no hook is returned as is.
 */
export function argoSyncedText(text: string): { text: string; left: Map<ArgoLeftOut, number> } {
  const left = new Map<ArgoLeftOut, number>();
  if (!text.includes('/hook')) return { text, left };
  const starts = [0, ...[...text.matchAll(/^---(?=[ \t]|\r?$)/gm)].map((m) => m.index).filter((i) => i > 0), text.length];
  let kept = '';
  for (let i = 0; i + 1 < starts.length; i++) {
    const chunk = text.slice(starts[i], starts[i + 1]);
    let created: true | ArgoLeftOut = true;
    if (chunk.includes('/hook')) {
      try {
        const docs = parseYamlAll(chunk);
        if (docs.length === 1) created = argoCdSyncCreates(docs[0]);
      } catch {
        created = true;
      }
    }
    if (created === true) kept += chunk;
    else left.set(created, (left.get(created) ?? 0) + 1);
  }
  return { text: left.size ? kept : text, left };
}
