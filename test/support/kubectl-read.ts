/**
 * What kubectl sends for a YAML text: `kubectl create --dry-run=client -o json -f -` against the
 * test API server (kubectl needs discovery to map kinds). kubectl turns YAML into JSON with
 * sigs.k8s.io/yaml (go-yaml v2), as Argo CD, Helm and Flux do: the reader a rendered manifest
 * must mean the same thing to.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { requireTools, tempDir, removeDir } from '../helpers/tools.js';
import { CRD_SETS, startKubeServer } from './kube-server/index.js';
import type { KubeServer } from './kube-server/index.js';

export interface KubectlReader {
  /** The objects kubectl reads from `text`, in order. */
  read(text: string): Promise<unknown[]>;
  /** kubectl's JSON for `text` as it prints it (integers beyond 2^53 keep their digits). */
  readText(text: string): Promise<string>;
  close(): Promise<void>;
}

export async function startKubectlReader(): Promise<KubectlReader> {
  const { kubectl } = requireTools();
  // Argo CD's kinds too, for Applications.
  const server: KubeServer = await startKubeServer({ crds: CRD_SETS.argocd });
  const home = tempDir('kubectl-read');
  const kubeconfig = server.writeKubeconfig(join(home, 'kubeconfig'));
  const readText = (text: string): Promise<string> =>
    // Asynchronous: the server answers kubectl's discovery from this process.
    new Promise<string>((resolve, reject) => {
      const args = ['--kubeconfig', kubeconfig, 'create', '--dry-run=client', '--validate=false', '-o', 'json', '-f', '-'];
      const child = execFile(kubectl, args, { env: { PATH: '/usr/bin:/bin', HOME: home }, encoding: 'utf8' }, (err, stdout, stderr) =>
        err ? reject(new Error(`kubectl: ${stderr || err.message}`)) : resolve(stdout),
      );
      child.stdin!.end(text);
    });
  return {
    readText,
    async read(text: string): Promise<unknown[]> {
      const out = await readText(text);
      // One pretty-printed JSON object per manifest, one after the other.
      return JSON.parse(`[${out.trim().replace(/\n\}\n\{/g, '\n},\n{')}]`) as unknown[];
    },
    async close() {
      await server.close();
      removeDir(home);
    },
  };
}
