/**
 * Provisioning bundles → the kustomize directory each provisioning app of a hub reads:
 *
 *   <hub>/provision/<app>/kustomization.yaml   resources in apply order, secretGenerator (no hash)
 *   <hub>/provision/<app>/<kind>-<name>.yaml   one object per file
 *   <hub>/provision/<app>/install-config.yaml  hive-aws: the secret generator's input (no credentials)
 *
 * The generated Secret is listed with the install-config file's objects, exactly as
 * `kustomize build` produces it, so that stream and JSON output show every object.
 */
import type { K8sObject } from '../model/k8s.js';
import type { ProvisionBundle } from '../generate/provision/index.js';
import { provisionBundlesFor } from '../generate/provision/index.js';
import type { ClusterLookup } from '../generate/provision/index.js';
import { POLICY_NAMESPACE } from '../model/constants.js';
import type { Fleet } from '../model/fleet.js';
import { clusterDef } from '../model/fleet.js';
import type { RenderedFile } from './files.js';
import { header, toYaml } from '../yaml/serialize.js';

export function renderProvision(fleet: Fleet, hub: string, lookup?: ClusterLookup): RenderedFile[] {
  return provisionBundlesFor(fleet, hub, lookup).flatMap((b) => renderBundle(fleet, b));
}

export function bundleApp(b: ProvisionBundle): string {
  return b.installer === 'acm-gitops' ? 'gitops-bootstrap-policy' : b.cluster;
}

export function objectFileName(o: K8sObject, defaultNamespace: string): string {
  const ns = o.metadata.namespace;
  const parts = [o.kind.toLowerCase(), ...(ns !== undefined && ns !== defaultNamespace ? [ns] : []), o.metadata.name];
  return `${parts.join('-')}.yaml`;
}

export function renderBundle(fleet: Fleet, b: ProvisionBundle): RenderedFile[] {
  const app = bundleApp(b);
  const dir = `${b.hub}/provision/${app}`;
  const from = b.installer === 'acm-gitops' ? [fleet.file] : [clusterDef(fleet, b.cluster)?.file ?? fleet.file];
  const defaultNs = b.installer === 'acm-gitops' ? POLICY_NAMESPACE : b.cluster;
  const files: RenderedFile[] = [];
  const resources: string[] = [];
  for (const o of b.objects) {
    const name = objectFileName(o, defaultNs);
    if (resources.includes(name)) throw new Error(`two provisioning objects would be written to ${dir}/${name}`);
    resources.push(name);
    files.push({ path: `${dir}/${name}`, content: header(from) + toYaml(o), cluster: b.hub, objects: [o], documents: [] });
  }
  const contents = new Map<string, string>();
  for (const f of b.files) {
    const content = header(from) + toYaml(f.value);
    contents.set(f.name, content);
    files.push({ path: `${dir}/${f.name}`, content, cluster: b.hub, objects: [], documents: [] });
  }
  const kustomization: Record<string, unknown> = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources };
  if (b.secretGenerators.length) {
    kustomization.generatorOptions = { disableNameSuffixHash: true };
    kustomization.secretGenerator = b.secretGenerators.map((g) => ({ name: g.name, namespace: g.namespace, files: g.files }));
    // The Secrets kustomize will generate, for stream and JSON output.
    for (const g of b.secretGenerators) {
      const data: Record<string, string> = {};
      for (const f of g.files) data[f] = Buffer.from(contents.get(f) ?? '', 'utf8').toString('base64');
      const secret: K8sObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: g.name, namespace: g.namespace }, type: 'Opaque', data };
      const carrier = files.find((x) => x.path === `${dir}/${g.files[0]}`);
      carrier?.objects.push(secret);
    }
  }
  files.push({ path: `${dir}/kustomization.yaml`, content: header(from) + toYaml(kustomization), cluster: b.hub, objects: [], documents: [] });
  for (const f of files) f.documents = f.objects.map((o) => toYaml(o));
  return files;
}
