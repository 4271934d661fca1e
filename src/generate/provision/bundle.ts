/** What provisioning generates for one app on the hub: objects, extra files and Secret generators. */
import type { K8sObject } from '../../model/k8s.js';
import type { Installer } from '../../model/spec.js';

export interface ProvisionBundle {
  /** The provisioned cluster, or the hub for the hub-wide ACM–GitOps wiring. */
  cluster: string;
  hub: string;
  installer: Installer | 'acm-gitops';
  /** Objects in apply order. */
  objects: K8sObject[];
  /** Extra files of the app's kustomize directory (YAML values, written as YAML). */
  files: { name: string; value: unknown }[];
  /** kustomize secretGenerator entries over those files (no name-suffix hash). */
  secretGenerators: { name: string; namespace: string; files: string[] }[];
}
