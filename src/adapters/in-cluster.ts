/**
 * In-cluster credentials: how a process in a pod reaches its own cluster's API server, as
 * client-go's `rest.InClusterConfig` and kubectl do (ADR 0238):
 *
 *   server   https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (IPv6 in brackets; always
 *            https, unlike @kubernetes/client-node's loadFromCluster, which turns ports 80/8080/8001
 *            into plain http)
 *   token    <dir>/token, re-read as the kubelet rotates it (client-node's tokenFile provider)
 *   CA       <dir>/ca.crt
 *   namespace <dir>/namespace, when present
 *
 * with <dir> = /var/run/secrets/kubernetes.io/serviceaccount unless a test injects another.
 * They are used only when nothing names a kubeconfig: no --kubeconfig, no KUBECONFIG, no
 * ~/.kube/config and no --context (src/adapters/kube.ts kubeSource).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterCredentials {
  server: string;
  tokenFile: string;
  caFile: string;
  /** The pod's namespace, when the service account directory has it. */
  namespace?: string;
}

export interface InClusterOptions {
  /** The environment (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT); passed in, never read here. */
  env: Readonly<Record<string, string | undefined>>;
  /** The service account directory (default SERVICE_ACCOUNT_DIR); tests point it at a temp dir. */
  dir?: string;
  exists?: (path: string) => boolean;
  read?: (path: string) => string;
}

/**
 * The pod's service account credentials, or undefined when this is not a pod (no service
 * environment, or no token: `automountServiceAccountToken: false`). A token without its CA is an
 * error: connecting without verifying the server is never what a pod wants.
 */
export function inClusterCredentials(opts: InClusterOptions): InClusterCredentials | undefined {
  const host = opts.env.KUBERNETES_SERVICE_HOST;
  const port = opts.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return undefined;
  const dir = opts.dir ?? SERVICE_ACCOUNT_DIR;
  const exists = opts.exists ?? existsSync;
  const read = opts.read ?? ((p: string) => readFileSync(p, 'utf8'));
  const tokenFile = join(dir, 'token');
  if (!exists(tokenFile)) return undefined;
  const caFile = join(dir, 'ca.crt');
  if (!exists(caFile)) {
    throw new InputError(`in-cluster credentials: the service account token ${tokenFile} exists but its CA ${caFile} does not`, {
      code: 'in-cluster-ca-missing',
      hint: 'mount the service account with its ca.crt (the default projected volume has it), or pass --kubeconfig',
    });
  }
  const nsFile = join(dir, 'namespace');
  const namespace = exists(nsFile) ? read(nsFile).trim() : '';
  const hostPart = isIPv6(host) ? `[${host}]` : host;
  return { server: `https://${hostPart}:${port}`, tokenFile, caFile, ...(namespace ? { namespace } : {}) };
}
