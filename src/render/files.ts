/** What render produces: files, each with the objects it holds. Writing them is an adapter's job. */
import type { K8sObject } from '../model/k8s.js';

export interface RenderedFile {
  /** Path relative to the output directory, forward slashes. */
  path: string;
  content: string;
  cluster: string;
  objects: K8sObject[];
  /** The YAML of each object (the content without its header), in order. */
  documents: string[];
}
