/**
 * Local Kubernetes manifests for the bootstrap: the upstream Argo CD install manifests (which
 * fleetplan never downloads: the user passes a file or directory), a ClusterSecretStore file,
 * and a spoke's kubeconfig handed to the client library through a private temporary file.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { InputError } from '../errors/index.js';
import type { K8sObject } from '../model/k8s.js';
import { readTextFile } from './fs.js';
import { parseYamlAll } from '../yaml/index.js';

/** Every object in a YAML file, or in the `.yaml`/`.yml`/`.json` files of a directory (sorted, recursive). */
export function readManifests(path: string, cwd: string): K8sObject[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new InputError(`manifest path ${path} does not exist`, { code: 'manifests-missing' });
  }
  const files = st.isDirectory() ? listManifestFiles(path) : [path];
  const out: K8sObject[] = [];
  for (const file of files) {
    const display = relative(cwd, file) || file;
    let docs: unknown[];
    try {
      docs = parseYamlAll(readTextFile(file, display, 64 * 1024 * 1024));
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${display}: not valid YAML: ${(err as Error).message}`, { code: 'manifests-invalid', location: { file: display }, cause: err });
    }
    for (const [i, d] of docs.entries()) {
      if (d === null || d === undefined) continue;
      const o = d as Partial<K8sObject> & { items?: unknown[] };
      if (o.kind === 'List' && Array.isArray(o.items)) {
        out.push(...(o.items as K8sObject[]));
        continue;
      }
      if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
        throw new InputError(`${display}: document ${i + 1} is not a Kubernetes object with apiVersion, kind and metadata.name`, {
          code: 'manifests-invalid', location: { file: display },
        });
      }
      out.push(o as K8sObject);
    }
  }
  return out;
}

function listManifestFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listManifestFiles(p));
    else if (/\.(ya?ml|json)$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * Runs `fn` with `text` in a file only this user can read, removed afterwards (the client library
 * reads kubeconfigs from files).
 */
export async function withPrivateFile<T>(text: string, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-'));
  const file = join(dir, 'kubeconfig');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    return await fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
