/**
 * `fleetplan serve`: the fleet dashboard over node:http (docs/adr/0250-fleetplan-serve.md).
 * One page with its script and style served from this module (no external loads, a CSP that
 * forbids them), JSON views computed through the library, Server-Sent Events that tell the page
 * when the repository changed or a bootstrap made progress.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { UsageError, FleetplanError } from '../../errors/index.js';
import { nodeFileSystem } from '../../adapters/node-fs.js';
import type { LoadResult } from '../../load/native.js';
import { diffText } from '../../diff/format.js';
import { diffFleet } from '../diff.js';
import { buildServeModel } from './model.js';
import type { ServeModel } from './model.js';
import { watchTree } from './watch.js';
import type { TreeWatcher } from './watch.js';
import { emptyProgress, followProgress } from './progress.js';
import type { ProgressState } from './progress.js';
import { APP_CSS, APP_JS, INDEX_HTML } from './page.js';

export interface ServeOptions {
  root: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 7420; 0 picks a free port. */
  port?: number;
  /** Listen on a host that is not a loopback address (the dashboard has no authentication). */
  allowRemote?: boolean;
  /** Follow this file of `fleetplan bootstrap -o json` events. */
  progressFile?: string;
  complete?: (result: LoadResult, root: string) => Promise<void>;
  env?: Readonly<Record<string, string | undefined>>;
  /** Lines for the operator (reloads, failures); default: nothing. */
  log?: (line: string) => void;
  watch?: { debounceMs?: number; pollMs?: number; forcePoll?: boolean };
}

export interface RunningServe {
  url: string;
  /** How changes are noticed: `fs.watch` or `poll`. */
  watchMode: string;
  /** The model version now served (1 after the first read; +1 per reload). */
  version(): number;
  /** Reads the repository again now (what a change does), resolving when the new model is served. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether `host` is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
};

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote) {
    throw new UsageError(`--host ${host} is not a loopback address: the dashboard has no authentication and shows the whole repository`, {
      code: 'serve-not-loopback',
      hint: 'leave --host out (127.0.0.1), or pass --allow-remote to listen on it anyway',
    });
  }
  const log = options.log ?? (() => {});
  let model: ServeModel = await buildServeModel(options, 1);
  let modelJson = JSON.stringify(model.view);
  let version = 1;
  const clients = new Set<ServerResponse>();
  const send = (event: string, data: string) => {
    for (const res of clients) res.write(`event: ${event}\ndata: ${data}\n\n`);
  };

  // Reloads run one at a time; a change during a reload starts one more after it.
  let running: Promise<void> | undefined;
  let again = false;
  const reload = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const started = Date.now();
        try {
          const next = await buildServeModel(options, version + 1);
          version++;
          model = next;
          modelJson = JSON.stringify(model.view);
          log(`reloaded the fleet (version ${version}, ${Date.now() - started} ms)`);
          send('model', JSON.stringify({ version }));
        } catch (e) {
          log(`could not reload the fleet: ${e instanceof Error ? e.message : String(e)}`);
        }
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const progress: ProgressState = emptyProgress(options.progressFile ?? null);
  const follower = options.progressFile ? followProgress(options.progressFile, progress, () => send('progress', JSON.stringify(progress))) : undefined;

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`request ${req.url ?? ''} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) json(res, 500, { error: 'internal error', message: e instanceof Error ? e.message : String(e) });
      else res.end();
    });
  });

  let boundPort = 0;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS rebinding: a page of another site that resolves its name to 127.0.0.1 sends its own Host.
    if (!hostAllowed(req.headers.host, host, boundPort, options.allowRemote === true)) {
      return text(res, 421, 'text/plain; charset=utf-8', 'fleetplan serve: unexpected Host header\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return text(res, 405, 'text/plain; charset=utf-8', 'fleetplan serve is read-only\n');
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const q = url.searchParams;
    switch (url.pathname) {
      case '/':
      case '/file':
        return text(res, 200, 'text/html; charset=utf-8', INDEX_HTML);
      case '/app.js':
        return text(res, 200, 'text/javascript; charset=utf-8', APP_JS);
      case '/app.css':
        return text(res, 200, 'text/css; charset=utf-8', APP_CSS);
      case '/favicon.ico':
        res.writeHead(204, COMMON_HEADERS);
        return void res.end();
      case '/api/model':
        return text(res, 200, 'application/json; charset=utf-8', modelJson);
      case '/api/cluster': {
        const name = q.get('name') ?? '';
        const plan = model.plans.get(name);
        if (!plan) return json(res, 404, { error: `no cluster named ${name}` });
        const def = model.view.clusters.find((c) => c.name === name);
        return json(res, 200, { version, cluster: def, plan, findings: model.view.findings.filter((f) => f.cluster === name) });
      }
      case '/api/file':
        return json(res, ...readRepoFile(options.root, q.get('path') ?? ''));
      case '/api/progress':
        return json(res, 200, progress);
      case '/api/diff':
        return json(res, ...(await runDiff(options, q.get('from') ?? '', q.get('to') ?? '', q.get('cluster') ?? '')));
      case '/events': {
        res.writeHead(200, { ...COMMON_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
        res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ version })}\n\n`);
        clients.add(res);
        req.on('close', () => clients.delete(res));
        return;
      }
      default:
        return json(res, 404, { error: `no page ${url.pathname}` });
    }
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 7420, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  boundPort = (server.address() as AddressInfo).port;
  const heartbeat = setInterval(() => {
    for (const res of clients) res.write(': keep-alive\n\n');
  }, 15000);
  heartbeat.unref();

  let watcher: TreeWatcher | undefined = watchTree(options.root, () => void reload(), options.watch);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}/`,
    watchMode: watcher.mode,
    version: () => version,
    reload,
    async close() {
      watcher?.close();
      watcher = undefined;
      follower?.close();
      clearInterval(heartbeat);
      for (const res of clients) res.end();
      clients.clear();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      if (running) await running;
    },
  };
}

function hostAllowed(header: string | undefined, host: string, port: number, remote: boolean): boolean {
  if (remote) return true;
  if (header === undefined) return false;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':')[0]!;
  const headerPort = header.slice(name.length + 1);
  if (headerPort !== '' && headerPort !== String(port)) return false;
  return isLoopback(name) || name.toLowerCase() === host.toLowerCase();
}

/** A repository file's lines, read through the same guarded file system as the loaders (nothing outside the repository, nothing under .git). */
export function readRepoFile(root: string, path: string): [number, unknown] {
  if (path === '' || path.startsWith('/') || path.includes('\\') || path.split('/').some((p) => p === '..' || p === '.git')) {
    return [400, { error: `fleetplan serve shows files inside the repository only, not "${path}"` }];
  }
  const fs = nodeFileSystem(root);
  const link = fs.outsideLinks?.().find((l) => l.link === path || path.startsWith(`${l.link}/`));
  if (link) return [400, { error: `${link.link} is a symlink to ${link.target}, outside the repository: fleetplan serve does not follow it` }];
  try {
    if (!fs.exists(path) || fs.isDirectory(path)) return [404, { error: `no file ${path} in the repository` }];
    const content = fs.readText(path);
    return [200, { path, lines: content.split('\n') }];
  } catch (e) {
    if (e instanceof FleetplanError) return [400, { error: e.message, hint: e.hint }];
    throw e;
  }
}

async function runDiff(options: ServeOptions, from: string, to: string, cluster: string): Promise<[number, unknown]> {
  try {
    const d = await diffFleet({
      root: options.root,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(cluster ? { clusters: [cluster] } : {}),
      ...(options.complete ? { complete: options.complete } : {}),
    });
    return [200, { text: diffText(d) }];
  } catch (e) {
    if (e instanceof FleetplanError) return [400, { error: e.message, hint: e.hint }];
    throw e;
  }
}

function text(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  text(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}
