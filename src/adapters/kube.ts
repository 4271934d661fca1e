/**
 * The KubeClient port over `@kubernetes/client-node` 1.4.0.
 *
 * - The library is imported lazily (`connectKube`): it costs about 0.5 s and 120 MB, which
 *   commands that never talk to a cluster must not pay.
 * - Objects go over the wire as is. The library's generic object API runs built-in kinds
 *   through its typed model, which drops fields the model does not know; under server-side
 *   apply that would give up ownership of those fields. A small subclass builds the requests
 *   (server-side apply as `application/apply-patch+yaml`) and returns the JSON unconverted,
 *   while keeping the library's kubeconfig handling, authentication, TLS and discovery cache.
 * - Requests are retried on 429 (honouring `Retry-After`), 5xx and unreachable servers, with
 *   jittered exponential backoff, for as long as time allows (the run's deadline, e.g.
 *   `bootstrap --timeout`), not for a number of attempts (ADR 0221). Every error names the
 *   request: verb, kind, namespace/name, HTTP method and path.
 * - Watches reconnect and resume from the last resourceVersion they saw, and list again when the
 *   server answers 410 Expired. The watch request is made here (node:http/https with the
 *   library's kubeconfig options), so that a refused watch gives its status and `Retry-After`.
 */
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { homedir } from 'node:os';
import { createInterface } from 'node:readline';
import { delimiter, join } from 'node:path';
import type * as K8s from '@kubernetes/client-node';
import { InputError } from '../errors/index.js';
import { inClusterCredentials, type InClusterCredentials } from './in-cluster.js';
import {
  FIELD_MANAGER, KubeApiError, type ApplyOptions, type KubeClient, type KubeObject, type KubeStatusCause, type ListQuery,
  type ObjectList, type ObjectRef, type ResourceInfo, type WatchEvent, type WatchHandle, type WatchOptions,
} from '../ports/kube.js';

/**
 * How requests that may pass (429, 5xx, no answer) are retried: bounded by time, never by a
 * number of attempts. The n-th wait is `baseDelayMs * 2^(n-1)`, capped at `maxDelayMs`, times a
 * random factor in [0.5, 1.5) (so that clients throttled together do not come back together);
 * a `Retry-After` is waited exactly. Each request starts again at `baseDelayMs` (the backoff
 * resets on success).
 */
export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long one request keeps retrying when the client has no `deadline`. */
  budgetMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 250, maxDelayMs: 15_000, budgetMs: 5 * 60_000 };

export interface KubeConnectOptions {
  /** `--kubeconfig`: this file only. */
  kubeconfig?: string;
  /** `--context`: instead of the kubeconfig's current context. */
  context?: string;
  /** The environment, for `KUBECONFIG` and `HOME` (passed in; never read from the process here). */
  env?: Readonly<Record<string, string | undefined>>;
  retry?: RetryPolicy;
  /** Field manager for server-side apply (default `fleetplan`). */
  fieldManager?: string;
  /** How to wait between retries (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds on the scale of `deadline` (default `performance.now()`); tests pass a fake clock. */
  now?: () => number;
  /** No retry starts after this time (on `now()`'s scale): the run's `--timeout`. Default: `retry.budgetMs` per request. */
  deadline?: number;
  /** In [0, 1): the backoff's jitter (default `Math.random`; tests pass a constant). */
  random?: () => number;
  /** The service account directory for in-cluster credentials (default SERVICE_ACCOUNT_DIR; tests inject one). */
  serviceAccountDir?: string;
  /** Where the credentials come from, when the caller resolved it already (kubeSource). */
  source?: KubeSource;
}

/** Where a client's credentials come from: kubeconfig files, or the pod's service account (ADR 0238). */
export type KubeSource =
  | { kind: 'kubeconfig'; files: string[] }
  | { kind: 'in-cluster'; credentials: InClusterCredentials };

/**
 * kubectl's and client-go's rule: a kubeconfig when anything names one (--kubeconfig, KUBECONFIG,
 * an existing ~/.kube/config) or a --context is asked for; otherwise, in a pod, the service
 * account's token and CA; otherwise the "no kubeconfig" error of kubeconfigFiles.
 */
export function kubeSource(opts: Pick<KubeConnectOptions, 'kubeconfig' | 'env' | 'context' | 'serviceAccountDir'>, exists: (p: string) => boolean = existsSync, read?: (p: string) => string): KubeSource {
  const env = opts.env ?? {};
  const named = (opts.kubeconfig !== undefined && opts.kubeconfig !== '') || (env.KUBECONFIG ?? '') !== '' || (opts.context !== undefined && opts.context !== '');
  if (!named && !exists(join(env.HOME ?? env.USERPROFILE ?? homedir(), '.kube', 'config'))) {
    const credentials = inClusterCredentials({ env, exists, ...(read ? { read } : {}), ...(opts.serviceAccountDir !== undefined ? { dir: opts.serviceAccountDir } : {}) });
    if (credentials) return { kind: 'in-cluster', credentials };
  }
  return { kind: 'kubeconfig', files: kubeconfigFiles(opts, exists) };
}

/** One line for people: which credentials a run uses. */
export function describeKubeSource(source: KubeSource, context?: string): string {
  if (source.kind === 'in-cluster') {
    const c = source.credentials;
    return `in-cluster service account (token ${c.tokenFile}, CA ${c.caFile}${c.namespace ? `, namespace ${c.namespace}` : ''}) at ${c.server}`;
  }
  return `kubeconfig ${source.files.join(delimiter)}${context ? `, context ${context}` : ', its current context'}`;
}

/**
 * The kubeconfig files to read, by kubectl's rules: `--kubeconfig` alone if given; else every
 * existing file in `KUBECONFIG` (path-list, first wins on duplicate names); else `~/.kube/config`.
 */
export function kubeconfigFiles(opts: Pick<KubeConnectOptions, 'kubeconfig' | 'env'>, exists: (p: string) => boolean = existsSync): string[] {
  if (opts.kubeconfig !== undefined && opts.kubeconfig !== '') {
    if (!exists(opts.kubeconfig)) {
      throw new InputError(`kubeconfig file "${opts.kubeconfig}" does not exist`, { code: 'kubeconfig-missing', hint: 'check the --kubeconfig path' });
    }
    return [opts.kubeconfig];
  }
  const env = opts.env ?? {};
  const list = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== '');
  if (list.length > 0) {
    const found = list.filter((p) => exists(p));
    if (found.length === 0) {
      throw new InputError(`none of the files in KUBECONFIG exists: ${list.join(delimiter)}`, { code: 'kubeconfig-missing', hint: 'fix KUBECONFIG or pass --kubeconfig' });
    }
    return found;
  }
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const def = join(home, '.kube', 'config');
  if (!exists(def)) {
    throw new InputError(`no kubeconfig: ${def} does not exist and KUBECONFIG is not set`, {
      code: 'kubeconfig-missing',
      hint: 'pass --kubeconfig or set KUBECONFIG (in a pod without --context: the service account token, CA and KUBERNETES_SERVICE_HOST/PORT are used)',
    });
  }
  return [def];
}

/** Loads the kubeconfig, picks the context and returns a connected client (no request made yet). */
export async function connectKube(opts: KubeConnectOptions = {}): Promise<KubeClient> {
  const source = opts.source ?? kubeSource(opts);
  const k8s = await import('@kubernetes/client-node');
  if (source.kind === 'in-cluster') {
    const kc = inClusterConfig(k8s, source.credentials);
    return new ClientNodeKube(k8s, kc, kc.getCurrentContext(), source.credentials.server, opts);
  }
  const files = source.files;
  const kc = loadMerged(k8s, files);
  if (opts.context !== undefined && opts.context !== '') {
    if (!kc.getContexts().some((c) => c.name === opts.context)) {
      const names = kc.getContexts().map((c) => c.name).sort();
      throw new InputError(`context "${opts.context}" is not in the kubeconfig (${files.join(', ')})`, {
        code: 'kube-context-missing',
        hint: names.length > 0 ? `known contexts: ${names.join(', ')}` : 'the kubeconfig has no contexts',
      });
    }
    kc.setCurrentContext(opts.context);
  }
  const contextName = kc.getCurrentContext();
  const ctx = contextName ? kc.getContextObject(contextName) : null;
  if (!ctx) {
    throw new InputError(`the kubeconfig (${files.join(', ')}) has no current context`, { code: 'kube-context-missing', hint: 'pass --context' });
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new InputError(`context "${contextName}" names cluster "${ctx.cluster}", which the kubeconfig does not define`, { code: 'kube-cluster-missing' });
  }
  return new ClientNodeKube(k8s, kc, contextName, cluster.server, opts);
}

/** What client-node's loadFromCluster builds, with https always and the paths given. */
function inClusterConfig(k8s: typeof K8s, c: InClusterCredentials): K8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'in-cluster', server: c.server, caFile: c.caFile, skipTLSVerify: false }],
    // The tokenFile provider re-reads the file, so a token the kubelet rotates keeps working.
    users: [{ name: 'in-cluster', authProvider: { name: 'tokenFile', config: { tokenFile: c.tokenFile } } }],
    contexts: [{ name: 'in-cluster', cluster: 'in-cluster', user: 'in-cluster', ...(c.namespace ? { namespace: c.namespace } : {}) }],
    currentContext: 'in-cluster',
  });
  return kc;
}

function loadMerged(k8s: typeof K8s, files: string[]): K8s.KubeConfig {
  const clusters: K8s.Cluster[] = [];
  const users: K8s.User[] = [];
  const contexts: K8s.Context[] = [];
  let currentContext = '';
  for (const file of files) {
    const one = new k8s.KubeConfig();
    try {
      one.loadFromFile(file);
    } catch (err) {
      throw new InputError(`cannot read kubeconfig ${file}: ${(err as Error).message}`, { code: 'kubeconfig-invalid', cause: err });
    }
    const addNew = <T extends { name: string }>(into: T[], from: T[]) => {
      for (const x of from) if (!into.some((y) => y.name === x.name)) into.push(x);
    };
    addNew(clusters, one.getClusters());
    addNew(users, one.getUsers());
    addNew(contexts, one.getContexts());
    if (currentContext === '' && one.getCurrentContext()) currentContext = one.getCurrentContext();
  }
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({ clusters, users, contexts, currentContext });
  return kc;
}

type RawApi = K8s.KubernetesObjectApi & {
  send(method: 'GET' | 'PATCH' | 'DELETE', path: string, query: Record<string, string>, body?: { contentType: string; text: string }): Promise<any>;
  discover(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined>;
  apiRoot(apiVersion: string): string;
};

/** The library's object API with requests built here and responses returned as plain JSON. */
function rawApiClass(k8s: typeof K8s) {
  return class RawObjectApi extends k8s.KubernetesObjectApi {
    async send(method: 'GET' | 'PATCH' | 'DELETE', path: string, query: Record<string, string>, body?: { contentType: string; text: string }): Promise<any> {
      const ctx = this.configuration.baseServer.makeRequestContext(path, k8s.HttpMethod[method]);
      ctx.setHeaderParam('Accept', 'application/json');
      for (const [k, v] of Object.entries(query)) ctx.setQueryParam(k, v);
      if (body) {
        ctx.setHeaderParam('Content-Type', body.contentType);
        ctx.setBody(body.text);
      }
      return this.requestPromise(ctx);
    }

    discover(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined> {
      return this.resource(apiVersion, kind);
    }

    apiRoot(apiVersion: string): string {
      return this.apiVersionPath(apiVersion);
    }

    protected override async processResponse<T extends K8s.KubernetesObject>(response: K8s.ResponseContext): Promise<T> {
      const text = await response.body.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): keep the text for the message.
      }
      if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) return parsed as T;
      throw new k8s.ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', parsed, response.headers);
    }
  };
}

interface WatchOnceResult {
  outcome: 'ended' | 'expired' | 'stopped';
  events: number;
  /** How long the stream was open. */
  upMs: number;
}

class ClientNodeKube implements KubeClient {
  private readonly api: RawApi;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly deadline: number | undefined;
  private readonly fieldManager: string;
  private readonly watches = new Set<WatchHandle>();

  constructor(
    private readonly k8s: typeof K8s,
    private readonly kc: K8s.KubeConfig,
    readonly context: string,
    readonly server: string,
    opts: KubeConnectOptions,
  ) {
    const Raw = rawApiClass(k8s);
    const api = kc.makeApiClient(Raw) as unknown as RawApi;
    const ns = kc.getContextObject(context)?.namespace;
    if (ns) (api as unknown as { defaultNamespace: string }).defaultNamespace = ns;
    this.api = api;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.now = opts.now ?? (() => performance.now());
    this.random = opts.random ?? Math.random;
    this.deadline = opts.deadline;
    this.fieldManager = opts.fieldManager ?? FIELD_MANAGER;
  }

  // ---- paths ----------------------------------------------------------------------------------

  async resource(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    return this.withRetry(`discover ${apiVersion} ${kind} (GET ${this.api.apiRoot(apiVersion)})`, async () => {
      try {
        const r = await this.api.discover(apiVersion, kind);
        return r ? { plural: r.name, namespaced: r.namespaced } : undefined;
      } catch (err) {
        if (apiStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  private async served(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const r = await this.resource(apiVersion, kind);
    if (!r) {
      throw new KubeApiError(`the server does not serve ${kind} (${apiVersion})`, {
        status: 404, reason: 'NotFound',
        hint: 'install its CustomResourceDefinition first and wait until it is Established',
      });
    }
    return r;
  }

  private collectionPath(apiVersion: string, info: ResourceInfo, namespace: string | undefined): string {
    const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${this.api.apiRoot(apiVersion)}${ns}/${info.plural}`;
  }

  private async objectPath(ref: ObjectRef): Promise<string> {
    const info = await this.served(ref.apiVersion, ref.kind);
    const ns = info.namespaced ? (ref.namespace ?? this.defaultNamespace()) : undefined;
    return `${this.collectionPath(ref.apiVersion, info, ns)}/${encodeURIComponent(ref.name)}`;
  }

  private defaultNamespace(): string {
    return this.kc.getContextObject(this.context)?.namespace ?? 'default';
  }

  // ---- requests -------------------------------------------------------------------------------

  async apply(obj: KubeObject, opts: ApplyOptions = {}): Promise<KubeObject> {
    const name = obj.metadata?.name;
    if (!name) throw new InputError(`cannot apply ${obj.kind} without metadata.name`, { code: 'kube-object-unnamed' });
    const info = await this.served(obj.apiVersion, obj.kind);
    const body: KubeObject = info.namespaced && !obj.metadata.namespace ? { ...obj, metadata: { ...obj.metadata, namespace: this.defaultNamespace() } } : obj;
    const ref = refOf(body);
    const path = await this.objectPath(ref);
    const query: Record<string, string> = { fieldManager: opts.fieldManager ?? this.fieldManager };
    if (opts.force) query.force = 'true';
    if (opts.dryRun) query.dryRun = 'All';
    return this.withRetry(`apply ${describe(ref)} (PATCH ${path})`, () =>
      this.api.send('PATCH', path, query, { contentType: 'application/apply-patch+yaml', text: JSON.stringify(body) }),
    );
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const path = await this.objectPath(ref);
    return this.withRetry(`get ${describe(ref)} (GET ${path})`, async () => {
      try {
        return (await this.api.send('GET', path, {})) as KubeObject;
      } catch (err) {
        if (apiStatus(err) === 404) return undefined;
        throw err;
      }
    });
  }

  async list(query: ListQuery): Promise<ObjectList> {
    const info = await this.served(query.apiVersion, query.kind);
    const path = this.collectionPath(query.apiVersion, info, query.namespace);
    const q: Record<string, string> = {};
    if (query.labelSelector) q.labelSelector = query.labelSelector;
    if (query.fieldSelector) q.fieldSelector = query.fieldSelector;
    const res = await this.withRetry(`list ${describeQuery(query)} (GET ${path})`, () => this.api.send('GET', path, q));
    const items = ((res?.items ?? []) as KubeObject[]).map((o) => ({ ...o, apiVersion: o.apiVersion ?? query.apiVersion, kind: o.kind ?? query.kind }));
    return { items, resourceVersion: String(res?.metadata?.resourceVersion ?? '') };
  }

  async delete(ref: ObjectRef, opts: { dryRun?: boolean } = {}): Promise<boolean> {
    const path = await this.objectPath(ref);
    return this.withRetry(`delete ${describe(ref)} (DELETE ${path})`, async () => {
      try {
        await this.api.send('DELETE', path, opts.dryRun ? { dryRun: 'All' } : {});
        return true;
      } catch (err) {
        if (apiStatus(err) === 404) return false;
        throw err;
      }
    });
  }

  close(): void {
    for (const w of [...this.watches]) w.stop();
  }

  /**
   * Runs `fn`, retrying errors that may pass (429, 5xx, no answer) with jittered backoff or
   * Retry-After until the deadline (the client's, else `retry.budgetMs` from now). The error
   * that ends it names the request (`what`) and says how long it was retried.
   */
  private async withRetry<T>(what: string, fn: () => Promise<T>): Promise<T> {
    const started = this.now();
    const until = this.deadline ?? started + this.retry.budgetMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (raw) {
        const err = toKubeError(raw, what, this.server);
        if (!err.retryable) throw err;
        const left = until - this.now();
        if (left <= 0) throw gaveUp(err, attempt, this.now() - started, this.deadline !== undefined);
        await this.sleep(Math.min(this.backoff(attempt, err.retryAfterSeconds), left));
      }
    }
  }

  /** The wait before try `attempt + 1`: Retry-After as given, else jittered exponential backoff. */
  private backoff(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined && retryAfterSeconds >= 0) return retryAfterSeconds * 1000;
    const nominal = Math.min(this.retry.baseDelayMs * 2 ** Math.min(attempt - 1, 30), this.retry.maxDelayMs);
    return Math.round(nominal * (0.5 + this.random()));
  }

  // ---- watch ----------------------------------------------------------------------------------

  watch(query: ListQuery, onEvent: (ev: WatchEvent) => void, opts: WatchOptions = {}): WatchHandle {
    let stopped = false;
    let current: { abort(): void } | undefined;
    let rv = opts.resourceVersion;
    const known = new Map<string, KubeObject>();
    const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    const emit = (type: WatchEvent['type'], object: KubeObject) => {
      if (stopped) return;
      if (type === 'DELETED') known.delete(keyOf(object));
      else known.set(keyOf(object), object);
      onEvent({ type, object });
    };
    const relist = async () => {
      const list = await this.list(query);
      const seen = new Set<string>();
      for (const o of list.items) {
        const k = keyOf(o);
        seen.add(k);
        const before = known.get(k);
        if (!before) emit('ADDED', o);
        else if (before.metadata.resourceVersion !== o.metadata.resourceVersion) emit('MODIFIED', o);
      }
      for (const [k, o] of [...known]) if (!seen.has(k)) emit('DELETED', o);
      rv = list.resourceVersion;
    };
    let onStop: () => void = () => {};
    const stopSignal = new Promise<WatchOnceResult>((resolve) => (onStop = () => resolve({ outcome: 'stopped', events: 0, upMs: 0 })));
    const handle: WatchHandle = {
      stop: () => {
        stopped = true;
        current?.abort();
        onStop();
      },
      done: undefined as unknown as Promise<void>,
      get resourceVersion() {
        return rv;
      },
    };
    const what = `watch ${describeQuery(query)}`;
    const run = async (): Promise<void> => {
      // Failures in a row; a watch the server accepted resets it (the backoff resets on success).
      let failures = 0;
      while (!stopped) {
        let path = '';
        try {
          if (rv === undefined) await relist();
          if (stopped) break;
          path = this.collectionPath(query.apiVersion, await this.served(query.apiVersion, query.kind), query.namespace);
          const res = await Promise.race([stopSignal, this.watchOnce(path, query, rv!, `${what} (GET ${path}?watch=true)`, (c) => (current = c), () => stopped, () => (failures = 0), (type, obj) => {
            if (stopped) return;
            rv = obj.metadata?.resourceVersion ?? rv;
            if (type !== 'BOOKMARK') emit(type, obj);
          })]);
          if (res.outcome === 'expired') rv = undefined;
          else if (res.outcome === 'ended' && res.events === 0 && res.upMs < QUICK_END_MS) {
            // Accepted, then closed at once with nothing in it: do not spin on such a server. It
            // did accept, so the wait is the first one, not a growing one.
            await this.sleep(this.backoff(1, undefined));
          }
        } catch (raw) {
          if (stopped) break;
          // Whatever failed on the way to the stream (discovery, the list, the watch request), the
          // message says it was this watch.
          const inner = toKubeError(raw, `${what}${path ? ` (GET ${path}?watch=true)` : ''}`, this.server);
          const err = inner.message.startsWith('watch ') ? inner : renamed(inner, what);
          if (!err.retryable && err.status !== 404 && err.status !== 410) throw err;
          if (err.status === 410) rv = undefined;
          failures += 1;
          const delay = this.backoff(failures, err.retryAfterSeconds);
          opts.onRetry?.(err, failures, delay);
          await this.sleep(delay);
        }
      }
    };
    (handle as { done: Promise<void> }).done = run().finally(() => this.watches.delete(handle));
    this.watches.add(handle);
    return handle;
  }

  /**
   * One watch request: resolves when the stream ends (`ended`, also when the connection drops
   * after the server accepted it), on 410 (`expired`) or `stop` (`stopped`); rejects when the
   * server refuses the watch (its status, message and Retry-After) or cannot be reached.
   */
  private async watchOnce(
    path: string,
    query: ListQuery,
    rv: string,
    what: string,
    setController: (c: { abort(): void }) => void,
    isStopped: () => boolean,
    onAccepted: () => void,
    onEvent: (type: WatchEvent['type'] | 'BOOKMARK', obj: KubeObject) => void,
  ): Promise<WatchOnceResult> {
    const url = new URL(this.server.replace(/\/+$/, '') + path);
    url.searchParams.set('watch', 'true');
    url.searchParams.set('resourceVersion', rv);
    url.searchParams.set('allowWatchBookmarks', 'true');
    if (query.labelSelector) url.searchParams.set('labelSelector', query.labelSelector);
    if (query.fieldSelector) url.searchParams.set('fieldSelector', query.fieldSelector);
    const options: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(options);
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<WatchOnceResult>((resolve, reject) => {
      let events = 0;
      let expired = false;
      let failure: KubeApiError | undefined;
      let acceptedAt: number | undefined;
      let settled = false;
      const finish = (err?: unknown) => {
        if (settled) return;
        settled = true;
        req.destroy();
        if (isStopped()) return resolve({ outcome: 'stopped', events, upMs: 0 });
        if (failure) return reject(failure);
        if (expired) return resolve({ outcome: 'expired', events, upMs: 0 });
        // A stream the server accepted and that then ended or dropped: reconnect from rv.
        if (acceptedAt !== undefined) return resolve({ outcome: 'ended', events, upMs: this.now() - acceptedAt });
        reject(err ?? new Error('the connection closed before an answer'));
      };
      const req = request(url, { ...options, method: 'GET', headers: { ...(options.headers ?? {}), Accept: 'application/json' } }, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (text.length < 64 * 1024) text += chunk;
          });
          res.on('end', () => {
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // Not a Status (a proxy's page): the text is the message.
            }
            failure = statusError(body, status, what, headerRecord(res.headers));
            finish();
          });
          res.on('error', finish);
          return;
        }
        acceptedAt = this.now();
        onAccepted();
        const lines = createInterface({ input: res, crlfDelay: Infinity });
        lines.on('line', (line) => {
          let ev: { type?: string; object?: any };
          try {
            ev = JSON.parse(line) as { type?: string; object?: any };
          } catch {
            return;
          }
          if (ev.type === 'ERROR') {
            const code = Number(ev.object?.code ?? 0);
            if (code === 410) expired = true;
            else failure = statusError(ev.object, code, what);
            return;
          }
          if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED' && ev.type !== 'DELETED' && ev.type !== 'BOOKMARK') return;
          events += 1;
          onEvent(ev.type, ev.object as KubeObject);
        });
        lines.on('close', () => finish());
        // A dropped connection: readline passes the stream's error on.
        lines.on('error', () => finish());
        res.on('error', () => finish());
        res.on('aborted', () => finish());
      });
      req.on('error', finish);
      setController({ abort: () => finish() });
      // Stopped while the request was being set up: the controller only exists now.
      if (isStopped()) finish();
      else req.end();
    });
  }
}

/** No event and closed within this time of being accepted: wait the first backoff before reconnecting. */
const QUICK_END_MS = 1000;

function headerRecord(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function describeQuery(q: ListQuery): string {
  const where = q.namespace ? ` in ${q.namespace}` : '';
  const name = q.fieldSelector?.startsWith('metadata.name=') ? ` ${q.fieldSelector.slice('metadata.name='.length)}` : '';
  return `${q.kind}${where}${name}`;
}

/** The same error, named after the request it happened in (`watch X: discover …: …`). */
function renamed(err: KubeApiError, what: string): KubeApiError {
  return new KubeApiError(`${what}: ${err.message}`, {
    request: what,
    status: err.status, reason: err.reason, causes: err.causes,
    ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
    ...(err.hint !== undefined ? { hint: err.hint } : {}),
    cause: err,
  });
}

/** A retryable error past the deadline: says how long it was retried. */
function gaveUp(err: KubeApiError, attempts: number, elapsedMs: number, runDeadline: boolean): KubeApiError {
  const over = elapsedMs >= 1000 ? `${(elapsedMs / 1000).toFixed(1)}s` : `${Math.round(elapsedMs)}ms`;
  return new KubeApiError(`${err.message} (tried ${attempts} time${attempts === 1 ? '' : 's'} over ${over}; ${runDeadline ? 'the --timeout deadline passed' : 'gave up'})`, {
    ...(err.request !== undefined ? { request: err.request } : {}),
    status: err.status, reason: err.reason, causes: err.causes,
    ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
    hint: err.hint ?? (runDeadline ? 'rerun to resume, or raise --timeout' : 'check that the API server is healthy'),
    cause: err,
  });
}

function refOf(o: KubeObject): ObjectRef {
  return { apiVersion: o.apiVersion, kind: o.kind, name: String(o.metadata.name), ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}) };
}

function describe(ref: ObjectRef): string {
  return ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}

function apiStatus(err: unknown): number | undefined {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; statusCode?: unknown };
    if (typeof e.code === 'number') return e.code;
    if (typeof e.statusCode === 'number') return e.statusCode;
  }
  return undefined;
}

function statusError(body: any, code: number, what: string, headers?: Record<string, string>): KubeApiError {
  const causes: KubeStatusCause[] = Array.isArray(body?.details?.causes) ? body.details.causes : [];
  const message = typeof body?.message === 'string' ? body.message : typeof body === 'string' && body !== '' ? body.slice(0, 500) : `HTTP ${code}`;
  const retryAfter = headers ? Number(headers['retry-after'] ?? headers['Retry-After'] ?? NaN) : NaN;
  const hint = code === 409 && causes.some((c) => c.reason === 'FieldManagerConflict')
    ? 'another field manager owns these fields; rerun with --force-conflicts to take them'
    : code === 401 || code === 403 ? 'check the credentials of the kubeconfig context' : undefined;
  return new KubeApiError(`${what}: ${message}`, {
    request: what,
    status: code,
    reason: typeof body?.reason === 'string' ? body.reason : '',
    causes,
    ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
    ...(hint ? { hint } : {}),
  });
}

/** Any failure of the library or the network as a KubeApiError. */
function toKubeError(err: unknown, what: string, server: string): KubeApiError {
  if (err instanceof KubeApiError) return err;
  const e = err as { code?: unknown; body?: unknown; headers?: Record<string, string>; statusCode?: unknown; message?: string };
  if (typeof e?.code === 'number' && e.code >= 100) return statusError(e.body, e.code, what, e.headers);
  if (typeof e?.statusCode === 'number') return statusError(undefined, e.statusCode, what);
  const message = e?.message ?? String(err);
  if (/Unrecognized API version and kind/.test(message)) {
    return new KubeApiError(`${what}: ${message}`, { request: what, status: 404, reason: 'NotFound', hint: 'install its CustomResourceDefinition first and wait until it is Established' });
  }
  return new KubeApiError(`${what}: cannot reach the API server at ${server}: ${message}`, {
    request: what,
    status: 0, cause: err, hint: 'check the kubeconfig context and that the cluster is reachable',
  });
}
