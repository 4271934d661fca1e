/**
 * The Kubernetes API test server: real HTTP on 127.0.0.1 with a random port, so the real
 * `@kubernetes/client-node` (and a CLI in a child process) talks to it as to a cluster.
 *
 * Everything tests need to look at or steer is on the `KubeServer` object: the store (objects,
 * snapshot), the request log, fault injection, the controllers, and hooks on incoming requests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { Controllers, type ControllerOptions } from './controllers.js';
import { Faults, type RequestMatch, matches } from './faults.js';
import { discoveryEntries } from './resources.js';
import { serveOpenApi } from './openapi.js';
import { PROTOBUF, protobufToJson } from './protobuf.js';
import { parseRequest, type RequestInfo, type RequestLogEntry } from './router.js';

export type { RequestLogEntry } from './router.js';
import { parseFieldSelector, parseLabelSelector, type Matcher } from './selectors.js';
import {
  badRequest, expired, internalError, methodNotAllowed, notFound, pageNotFound, serviceUnavailable, StatusError, tooManyRequests,
} from './status.js';
import { ObjectStore, patchTypeOf } from './store.js';
import { apiVersionOf, systemClock, typeKey, type Clock, type Obj, type ResourceType, type StoreEvent, type WriteOptions } from './types.js';

export interface KubeServerOptions {
  clock?: Clock;
  /** Events watches can resume from (default 10,000). */
  historyLimit?: number;
  /** When set, requests must carry `Authorization: Bearer <token>` (the kubeconfig has it). */
  token?: string;
  controllers?: ControllerOptions;
  /** Largest request body accepted (default 16 MiB). */
  maxBodyBytes?: number;
  /** Serve HTTPS with this key and certificate (PEM), as a real API server (in-cluster credentials). */
  tls?: { key: string; cert: string };
}

interface OpenWatch {
  info: RequestInfo;
  res: ServerResponse;
  bookmarks: boolean;
  close(how: 'end' | 'destroy'): void;
  bookmark(): void;
}

export class KubeServer {
  readonly store: ObjectStore;
  readonly faults = new Faults();
  readonly controllers: Controllers;
  readonly log: RequestLogEntry[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly watches = new Set<OpenWatch>();
  private readonly hooks = new Set<(r: RequestLogEntry) => void>();
  private frozen: Array<() => void> | undefined;
  private hangers: Array<() => void> = [];
  private closing = false;
  private seq = 0;
  private port = 0;

  private constructor(private readonly opts: KubeServerOptions) {
    this.store = new ObjectStore({ clock: opts.clock ?? systemClock, historyLimit: opts.historyLimit ?? 10_000 });
    this.controllers = new Controllers(this.store, opts.controllers ?? {}, opts.clock ?? systemClock);
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) this.sendStatus(res, internalError(String(err)));
        else res.destroy();
      });
    };
    this.server = opts.tls ? createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : createServer(handler);
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(opts: KubeServerOptions = {}): Promise<KubeServer> {
    const s = new KubeServer(opts);
    await new Promise<void>((resolve, reject) => {
      s.server.once('error', reject);
      s.server.listen(0, '127.0.0.1', () => resolve());
    });
    const addr = s.server.address();
    s.port = typeof addr === 'object' && addr ? addr.port : 0;
    s.controllers.start();
    return s;
  }

  get url(): string {
    return `${this.opts.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  /** A kubeconfig (YAML) whose current context points at this server. */
  kubeconfig(opts: { context?: string; namespace?: string; cluster?: string; user?: string } = {}): string {
    const context = opts.context ?? 'test';
    const cluster = opts.cluster ?? 'test-cluster';
    const user = opts.user ?? 'test-user';
    return yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: cluster, cluster: { server: this.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: user, user: { token: this.opts.token ?? 'test-token' } }],
      contexts: [{ name: context, context: { cluster, user, ...(opts.namespace ? { namespace: opts.namespace } : {}) } }],
      'current-context': context,
    }, { lineWidth: -1 });
  }

  /** Writes `kubeconfig()` to `path` and returns the path. */
  writeKubeconfig(path: string, opts: Parameters<KubeServer['kubeconfig']>[0] = {}): string {
    writeFileSync(path, this.kubeconfig(opts), { mode: 0o600 });
    return path;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.controllers.stop();
    this.thaw();
    for (const w of [...this.watches]) w.close('destroy');
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // ---- steering -----------------------------------------------------------------------------

  /** Stop answering: requests are accepted but get no answer until `thaw()` (or `close()`). */
  freeze(): void {
    this.frozen ??= [];
  }

  /** Answer everything held by `freeze()` and `faults.hangNext()`. */
  thaw(): void {
    const waiting = [...(this.frozen ?? []), ...this.hangers];
    this.frozen = undefined;
    this.hangers = [];
    for (const go of waiting) go();
  }

  /** Destroy every open connection (clients see resets; open watches end). */
  dropConnections(): void {
    for (const w of [...this.watches]) w.close('destroy');
    for (const s of [...this.sockets]) s.destroy();
  }

  /** Close every open watch stream now. */
  closeWatches(how: 'end' | 'destroy' = 'end'): void {
    for (const w of [...this.watches]) w.close(how);
  }

  /** Send a BOOKMARK event on every open watch that asked for them. */
  sendBookmarks(): void {
    for (const w of this.watches) if (w.bookmarks) w.bookmark();
  }

  get openWatches(): number {
    return this.watches.size;
  }

  /** Called for every request as it arrives (before faults and handlers). */
  onRequest(fn: (r: RequestLogEntry) => void): () => void {
    this.hooks.add(fn);
    return () => this.hooks.delete(fn);
  }

  /** Resolves with the first request (from now on) that matches. */
  waitForRequest(match: RequestMatch): Promise<RequestLogEntry> {
    return new Promise((resolve) => {
      const off = this.onRequest((r) => {
        if (matches(match, r)) {
          off();
          resolve(r);
        }
      });
    });
  }

  /** Resolves once `predicate` holds for the store (checked on every change). */
  waitFor(predicate: (s: ObjectStore) => boolean): Promise<void> {
    return new Promise((resolve) => {
      if (predicate(this.store)) return resolve();
      const off = this.store.subscribe(() => {
        if (predicate(this.store)) {
          off();
          resolve();
        }
      });
    });
  }

  /** Every stored object, sorted by type, namespace and name (copies). */
  snapshot(): Obj[] {
    return this.store.snapshot();
  }

  /** Logged requests matching `match` (e.g. every request about one object). */
  requests(match: RequestMatch = {}): RequestLogEntry[] {
    return this.log.filter((r) => matches(match, r));
  }

  /**
   * Requests per object, keyed `resource/namespace/name` (`resource/namespace/*` for lists and
   * watches, `discovery` for discovery), for asserting that a client does not poll.
   */
  requestCounts(match: RequestMatch = {}): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const r of this.requests(match)) {
      const key = r.verb === 'discovery' ? 'discovery' : `${r.group ? `${r.resource}.${r.group}` : r.resource}/${r.namespace ?? ''}/${r.name ?? '*'}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The resource type serving `apiVersion`/`kind`, or undefined when not (yet) servable. */
  typeFor(apiVersion: string, kind: string): ResourceType | undefined {
    return this.store.typeForKind(apiVersion, kind);
  }

  /** Reads an object by apiVersion/kind (undefined when absent or the kind is not served). */
  object(apiVersion: string, kind: string, name: string, namespace?: string): Obj | undefined {
    const rt = this.typeFor(apiVersion, kind);
    return rt ? this.store.find(rt, namespace, name) : undefined;
  }

  /** Writes objects straight into the store (server-side apply as `manager`), for test setup. */
  seed(objects: Obj[], manager = 'test-setup'): Obj[] {
    return objects.map((o) => {
      const rt = this.typeFor(String(o.apiVersion), String(o.kind));
      if (!rt) throw new Error(`kind ${String(o.apiVersion)} ${String(o.kind)} is not served`);
      return this.store.apply(rt, o.metadata?.namespace, String(o.metadata?.name), o, { fieldManager: manager, force: true });
    });
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const contentType = String(req.headers['content-type'] ?? '');
    const info = parseRequest(req.method ?? 'GET', url, contentType, (g, v, p) => this.store.resolve(g, v, p)?.namespaced ?? false);
    const entry: RequestLogEntry = { ...info, seq: ++this.seq, status: undefined };
    this.log.push(entry);
    res.on('finish', () => {
      entry.status ??= res.statusCode;
    });
    for (const h of [...this.hooks]) h(entry);
    if (this.frozen) {
      await new Promise<void>((resolve) => this.frozen?.push(resolve));
      if (res.destroyed) return;
    }
    let body: string;
    try {
      const bytes = await readBody(req, this.opts.maxBodyBytes ?? 16 * 1024 * 1024);
      // client-go's typed clients (Helm's release Secrets) send protobuf: see protobuf.ts.
      body = contentType.startsWith(PROTOBUF) ? protobufToJson(bytes) : bytes.toString('utf8');
    } catch (err) {
      if (err instanceof StatusError) return this.sendStatus(res, err);
      throw err;
    }
    if (this.opts.token !== undefined && req.headers.authorization !== `Bearer ${this.opts.token}`) {
      entry.status = 401;
      return this.sendStatus(res, new StatusError(401, 'Unauthorized', 'Unauthorized'));
    }
    let fault = this.faults.take(entry);
    if (fault?.type === 'hang') {
      entry.fault = 'hang';
      await new Promise<void>((resolve) => this.hangers.push(resolve));
      if (this.closing) return;
      fault = undefined;
    }
    if (fault) {
      entry.fault = fault.type === 'reset' ? 'reset' : String(fault.status);
      if (fault.type === 'reset') {
        req.socket.destroy();
        return;
      }
      return this.sendStatus(res, faultStatus(fault.status, info, fault.retryAfterSeconds, fault.message));
    }
    try {
      if (info.verb === 'discovery' || info.verb === 'other') return this.discovery(url.pathname, res);
      const rt = this.store.resolve(info.group, info.version, info.resource);
      if (!rt) throw pageNotFound();
      if (info.subresource !== undefined && !(info.subresource === 'status' && rt.statusSubresource)) throw pageNotFound();
      if (!rt.namespaced && info.namespace !== undefined) throw pageNotFound();
      const q = url.searchParams;
      if (info.verb === 'watch') return this.watch(res, info, rt, q, entry);
      const result = this.serve(info, rt, q, body);
      this.send(res, result.status, result.body);
    } catch (err) {
      if (err instanceof StatusError) return this.sendStatus(res, err);
      throw err;
    }
  }

  private serve(info: RequestInfo, rt: ResourceType, q: URLSearchParams, raw: string): { status: number; body: Obj } {
    const ns = info.namespace;
    const version = info.version;
    const dryRunValues = q.getAll('dryRun');
    if (dryRunValues.some((v) => v !== 'All')) throw badRequest(`Invalid dryRun value: ${dryRunValues.join(',')}; accepted values are: All`);
    const forceParam = q.get('force');
    const opts: WriteOptions = {
      dryRun: dryRunValues.length > 0,
      fieldManager: q.get('fieldManager') ?? undefined,
      ...(forceParam !== null ? { force: forceParam === 'true' } : {}),
      subresource: info.subresource === 'status' ? 'status' : undefined,
    };
    const present = (o: Obj) => this.store.present(rt, o, version);
    switch (info.verb) {
      case 'get':
        return { status: 200, body: this.store.get(rt, ns, info.name!, version) };
      case 'list': {
        const match = this.matcher(q);
        const { items, resourceVersion } = this.store.list(rt, ns, match, version);
        return {
          status: 200,
          body: {
            kind: rt.listKind, apiVersion: apiVersionOf(rt.group, version), metadata: { resourceVersion },
            items: rt.builtin ? items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) : items,
          },
        };
      }
      case 'create': {
        if (info.name !== undefined) throw methodNotAllowed();
        const created = this.store.create(rt, ns, parseJson(raw), { ...opts, fieldManager: opts.fieldManager ?? 'unknown' });
        return { status: 201, body: present(created) };
      }
      case 'update': {
        const before = this.store.find(rt, ns, info.name!);
        const updated = this.store.update(rt, ns, info.name!, parseJson(raw), opts);
        return { status: before ? 200 : 201, body: present(updated) };
      }
      case 'patch':
      case 'apply': {
        const type = patchTypeOf(info.contentType);
        const patch = type === 'apply' ? parseYaml(raw) : parseJson(raw);
        const existed = this.store.find(rt, ns, info.name!) !== undefined;
        const out = this.store.patch(rt, ns, info.name!, type, patch, opts);
        return { status: existed ? 200 : 201, body: present(out) };
      }
      case 'delete': {
        if (info.name === undefined) throw methodNotAllowed();
        const out = this.store.delete(rt, ns, info.name, opts);
        return { status: 200, body: present(out) };
      }
      default:
        throw methodNotAllowed();
    }
  }

  private matcher(q: URLSearchParams): Matcher {
    const labels = parseLabelSelector(q.get('labelSelector') ?? undefined);
    const fields = parseFieldSelector(q.get('fieldSelector') ?? undefined);
    return (o) => labels(o) && fields(o);
  }

  private watch(res: ServerResponse, info: RequestInfo, rt: ResourceType, q: URLSearchParams, entry: RequestLogEntry): void {
    const match = this.matcher(q);
    const ns = info.namespace;
    const inScope = (o: Obj) => !rt.namespaced || ns === undefined || o.metadata?.namespace === ns;
    const sel = (o: Obj | undefined) => o !== undefined && inScope(o) && match(o);
    const rvParam = q.get('resourceVersion');
    const drop = this.faults.takeWatchDrop(entry);
    const timeout = Number(q.get('timeoutSeconds') ?? '0');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    entry.status = 200;
    let sent = 0;
    entry.events = 0;
    let closed = false;
    let finished = false;
    let unsubscribe = (): void => {};
    let timer: NodeJS.Timeout | undefined;
    const watch: OpenWatch = {
      info,
      res,
      bookmarks: q.get('allowWatchBookmarks') === 'true',
      close: (how) => {
        if (finished) return;
        finished = true;
        closed = true;
        unsubscribe();
        if (timer) clearTimeout(timer);
        this.watches.delete(watch);
        if (how === 'destroy') res.destroy();
        else res.end();
      },
      bookmark: () => write('BOOKMARK', { kind: rt.kind, apiVersion: apiVersionOf(rt.group, info.version), metadata: { resourceVersion: String(this.store.resourceVersion) } }),
    };
    const write = (type: string, object: Obj): void => {
      if (closed) return;
      sent += 1;
      entry.events = sent;
      const cut = drop !== undefined && sent >= drop.afterEvents;
      // Cut only once the event is on the wire, so the client sees exactly `afterEvents` events.
      res.write(`${JSON.stringify({ type, object })}\n`, cut ? () => watch.close(drop.how) : undefined);
      if (cut) closed = true;
    };
    const deliver = (ev: StoreEvent): void => {
      if (ev.typeKey !== typeKey(rt)) return;
      const was = sel(ev.old);
      const is = sel(ev.object);
      const obj = this.store.present(rt, ev.object, info.version);
      if (ev.type === 'DELETED') {
        if (was || is) write('DELETED', obj);
      } else if (ev.type === 'ADDED') {
        if (is) write('ADDED', obj);
      } else if (was && is) write('MODIFIED', obj);
      else if (!was && is) write('ADDED', obj);
      else if (was && !is) write('DELETED', obj);
    };
    this.watches.add(watch);
    res.on('close', () => watch.close('end'));
    if (drop && drop.afterEvents === 0) return watch.close(drop.how);
    if (rvParam === null || rvParam === '' || rvParam === '0') {
      for (const o of this.store.list(rt, ns, match).items) write('ADDED', this.store.present(rt, o, info.version));
    } else {
      const from = Number(rvParam);
      const events = Number.isInteger(from) ? this.store.eventsSince(from) : undefined;
      if (!events) {
        write('ERROR', expired(`too old resource version: ${rvParam} (${this.store.oldestResumableVersion})`).body());
        return watch.close('end');
      }
      for (const ev of events) deliver(ev);
    }
    if (closed) return;
    unsubscribe = this.store.subscribe(deliver);
    if (timeout > 0) timer = setTimeout(() => watch.close('end'), timeout * 1000);
  }

  private discovery(path: string, res: ServerResponse): void {
    if (serveOpenApi(path, res)) return;
    const types = this.store.allTypes();
    const groups = new Map<string, string[]>();
    for (const t of types) {
      if (t.group === '') continue;
      const vs = groups.get(t.group) ?? [];
      for (const v of t.versions) if (!vs.includes(v)) vs.push(v);
      groups.set(t.group, vs);
    }
    const groupObj = (name: string, versions: string[]) => ({
      name,
      versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${name}/${versions[0]!}`, version: versions[0]! },
    });
    const resourceList = (group: string, version: string) => {
      const entries = types.filter((t) => t.group === group && t.versions.includes(version)).flatMap(discoveryEntries);
      if (entries.length === 0) throw pageNotFound();
      return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources: entries };
    };
    const segs = path.split('/').filter((s) => s !== '');
    if (path === '/version') {
      return this.send(res, 200, { major: '1', minor: '31', gitVersion: 'v1.31.0', gitCommit: 'test', gitTreeState: 'clean', buildDate: '2026-01-01T00:00:00Z', goVersion: 'go1.22', compiler: 'gc', platform: 'linux/amd64' });
    }
    if (path === '/api') {
      return this.send(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${this.port}` }] });
    }
    if (segs[0] === 'api' && segs.length === 2) return this.send(res, 200, resourceList('', segs[1]!));
    if (path === '/apis') {
      return this.send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => groupObj(n, v)) });
    }
    if (segs[0] === 'apis' && segs.length === 2) {
      const vs = groups.get(segs[1]!);
      if (!vs) throw pageNotFound();
      return this.send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...groupObj(segs[1]!, vs) });
    }
    if (segs[0] === 'apis' && segs.length === 3) return this.send(res, 200, resourceList(segs[1]!, segs[2]!));
    throw pageNotFound();
  }

  private send(res: ServerResponse, status: number, body: Obj, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  private sendStatus(res: ServerResponse, err: StatusError): void {
    this.send(res, err.code, err.body(), err.headers);
  }
}

function faultStatus(status: number, info: RequestInfo, retryAfterSeconds: number | undefined, message: string | undefined): StatusError {
  const res = { group: info.group, plural: info.resource };
  switch (status) {
    case 409: return new StatusError(409, 'Conflict', message ?? `Operation cannot be fulfilled on ${info.group ? `${info.resource}.${info.group}` : info.resource} "${info.name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`, { name: info.name ?? '', group: info.group, kind: info.resource });
    case 429: return tooManyRequests(retryAfterSeconds ?? 1);
    case 500: return internalError(message);
    case 503: return serviceUnavailable(retryAfterSeconds ?? 1);
    case 404: return notFound(res, info.name ?? '');
    default: {
      const headers: Record<string, string> = retryAfterSeconds !== undefined ? { 'Retry-After': String(retryAfterSeconds) } : {};
      return new StatusError(status, 'InternalError', message ?? `injected fault ${status}`, undefined, headers);
    }
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new StatusError(413, 'RequestEntityTooLarge', 'the request body is too large'));
        req.destroy();
      } else {
        chunks.push(c);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

function parseYaml(raw: string): unknown {
  try {
    return yaml.load(raw);
  } catch (err) {
    throw badRequest(`error decoding YAML: ${(err as Error).message}`);
  }
}
