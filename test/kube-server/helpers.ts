// Shared setup for the test server's suites: a started server, a kubeconfig file for it, and
// the real @kubernetes/client-node pointed at it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startKubeServer, type KubeServer, type StartOptions } from '../support/kube-server/index.js';

export interface Harness {
  server: KubeServer;
  kubeconfigPath: string;
  kc: k8s.KubeConfig;
  api: SsaObjectApi;
  close(): Promise<void>;
}

/**
 * KubernetesObjectApi with a server-side apply that sends the object as is: the library's own
 * `patch(..., ServerSideApply)` runs built-in kinds through its model serializer first.
 */
export class SsaObjectApi extends k8s.KubernetesObjectApi {
  async apply(obj: k8s.KubernetesObject & Record<string, unknown>, opts: { fieldManager: string; force?: boolean; dryRun?: boolean }): Promise<any> {
    const path = await this.specUriPath({ ...obj, metadata: { ...obj.metadata } }, 'patch');
    const ctx = this.configuration.baseServer.makeRequestContext(path, k8s.HttpMethod.PATCH);
    ctx.setHeaderParam('Accept', 'application/json');
    ctx.setHeaderParam('Content-Type', 'application/apply-patch+yaml');
    ctx.setQueryParam('fieldManager', opts.fieldManager);
    if (opts.force) ctx.setQueryParam('force', 'true');
    if (opts.dryRun) ctx.setQueryParam('dryRun', 'All');
    ctx.setBody(JSON.stringify(obj));
    return this.requestPromise(ctx);
  }
}

export async function harness(opts: StartOptions = {}): Promise<Harness> {
  const server = await startKubeServer(opts);
  const dir = mkdtempSync(join(tmpdir(), 'kube-server-'));
  const kubeconfigPath = server.writeKubeconfig(join(dir, 'kubeconfig'));
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const api = kc.makeApiClient(SsaObjectApi);
  return {
    server, kubeconfigPath, kc, api,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Status body of a failed client-node call. */
export async function statusOf(p: Promise<unknown>): Promise<{ code: number; body: any; headers: Record<string, string> }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: number; body?: unknown; headers?: Record<string, string> };
    if (typeof e.code !== 'number') throw err;
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, body, headers: e.headers ?? {} };
  }
  throw new Error('expected the request to fail');
}

export function configMap(name: string, data: Record<string, string> = {}, extra: Record<string, unknown> = {}): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...extra }, data };
}

export function deployment(name: string, replicas = 1, ns = 'default'): any {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'example.invalid/app:1' }] } },
    },
  };
}

/** Waits (without a wall-clock assertion) until `check` holds, re-checking on every store change. */
export function until(server: KubeServer, check: () => boolean): Promise<void> {
  return server.waitFor(() => check());
}
