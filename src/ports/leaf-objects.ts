/**
 * Leaf objects per app, from a leaf rendering (kustomize/Helm builds): the port through which
 * rules see what an app really applies. Return undefined for an app that was not rendered; the
 * rules then read its directory statically.
 */
export interface LeafObjects {
  objects(cluster: string, app: string): readonly Record<string, unknown>[] | undefined;
}
