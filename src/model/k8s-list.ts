/**
 * A list document (`kind: List`, `ConfigMapList`, …) expanded into its items, as the tools that
 * apply manifests do: Argo CD's repo-server (reposerver/repository GenerateManifests, every source
 * type) and Flux's kustomize-controller (fluxcd/pkg ssa ReadObjects) both ask apimachinery's
 * `Unstructured.IsList()` — the document has an `items` field that is an array, whatever its
 * kind — and then take each item as an object (`EachListItem`): items keep their own apiVersion
 * and kind, a list inside a list is not expanded again, and an item that is not a mapping is an
 * error. Argo CD drops a document whose `items` is null and that has no `spec` or `status`
 * (`isNullList`). Everything else is one object, as written. ADR 0300.
 */

/** Thrown for a list whose items are not all mappings (apimachinery: "items member is not an object"). */
export class ListItemError extends Error {}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the document is a list as apimachinery decides (`items` is an array). */
export function isListDocument(doc: unknown): doc is Record<string, unknown> & { items: unknown[] } {
  return isMap(doc) && Array.isArray(doc.items);
}

/**
 * The objects one parsed document stands for: its items for a list, nothing for Argo CD's null
 * list, else the document itself. Throws ListItemError for a list with an item that is not a mapping.
 */
export function expandListDocument(doc: unknown): unknown[] {
  if (isListDocument(doc)) {
    doc.items.forEach((item, i) => {
      if (!isMap(item)) throw new ListItemError(`item ${i + 1} of ${typeof doc.kind === 'string' ? doc.kind : 'the list'} is not an object (items member is not an object)`);
    });
    return doc.items;
  }
  if (isMap(doc) && 'items' in doc && doc.items === null && !('spec' in doc) && !('status' in doc)) return [];
  return [doc];
}
