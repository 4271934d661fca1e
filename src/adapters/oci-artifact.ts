/**
 * Argo CD 3.1 native OCI sources for `--fetch` (docs/adr/0317-native-oci-sources.md): a small
 * client of the OCI distribution API over node:http(s) that does what Argo CD's repo-server does
 * with oras-go (util/oci/client.go):
 *
 * - the revision: a digest is used as it is; a tag is resolved to its manifest digest; a semver
 *   range is resolved against the repository's tags (`_` read as `+`), the highest match;
 * - the manifest: at most 10 layers; a Helm chart (config `application/vnd.cncf.helm.config.v1+json`)
 *   counts only its chart layer; otherwise a layer whose media type ends in `tar+gzip`, `tar.gzip`
 *   or `tar` is content; every content layer must be of an accepted media type (Argo CD's default
 *   list) and there must be exactly one;
 * - the content: the layer's bytes must hash to its digest (and the manifest's to its digest),
 *   unpacked under a size limit, no entry outside the directory, no symlink pointing out of it; a
 *   Helm chart's single top folder is unwrapped.
 *
 * The content is kept in `<cacheDir>/oci-fetched/<repository key>/<digest>/` (a digest never
 * changes content), so a digest already there is read without the network.
 *
 * Credentials: the repository Secret's username/password (given in the request), else the
 * `--registry-config FILE` entry of the registry (Docker's config.json `auths`); never the user's
 * own Docker or Helm logins, nor the environment (ADR 0212, 0316). Bearer-token registries (the
 * token endpoint named by `WWW-Authenticate`) are asked for a pull token with those credentials, or
 * anonymously. Plain HTTP only when the request says so (`insecureOCIForceHttp`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve, sep, isAbsolute } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ToolError } from '../errors/index.js';
import type { ArtifactFetcher, ArtifactRequest, FetchedArtifact, RegistryCredentials } from '../ports/chart-fetch.js';
import { createSourceReader } from './source-reader.js';

export interface ArtifactFetcherOptions {
  /** The fetch cache lives under it; absent: a temporary directory for this run, removed by close(). */
  cacheDir: string | undefined;
  /** `--registry-config FILE`: logins for registries whose repository Secret gives none. */
  registryConfig?: string;
  /** Accepted layer media types (Argo CD's `--oci-layer-media-types`); default: Argo CD's default. */
  mediaTypes?: readonly string[];
  /** Largest extracted content (bytes); default 1 GiB. */
  maxExtractedBytes?: number;
  /** Per request; default 60 s. */
  timeoutMs?: number;
}

/** Argo CD's default `--oci-layer-media-types` (cmd/argocd-repo-server). */
export const ARGOCD_OCI_LAYER_MEDIA_TYPES: readonly string[] = ['application/vnd.oci.image.layer.v1.tar', 'application/vnd.oci.image.layer.v1.tar+gzip', 'application/vnd.cncf.helm.chart.content.v1.tar+gzip'];
const HELM_CONFIG = 'application/vnd.cncf.helm.config.v1+json';
const HELM_LAYER = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
const INDEX_TYPES = ['application/vnd.oci.image.index.v1+json', 'application/vnd.docker.distribution.manifest.list.v2+json'];
const MANIFEST_ACCEPT = ['application/vnd.oci.image.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v2+json', ...INDEX_TYPES].join(', ');
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const MAX_BLOB_BYTES = 512 * 1024 * 1024;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

export function createArtifactFetcher(options: ArtifactFetcherOptions): ArtifactFetcher & { close(): void } {
  let scratch: string | undefined;
  const base = () => (options.cacheDir ? join(options.cacheDir, 'oci-fetched') : (scratch ??= mkdtempSync(join(tmpdir(), 'fleetplan-oci-'))));
  const keyDir = (req: ArtifactRequest) => join(base(), sha256Hex(`${req.registry}/${req.repository}`).slice(0, 32));
  const inflight = new Map<string, Promise<FetchedArtifact>>();
  const mediaTypes = options.mediaTypes ?? ARGOCD_OCI_LAYER_MEDIA_TYPES;
  const timeoutMs = options.timeoutMs ?? 60_000;

  const read = (req: ArtifactRequest, digest: string, tag: string | undefined): FetchedArtifact | undefined => {
    const dir = join(keyDir(req), digest.replace(':', '-'));
    try {
      const meta = JSON.parse(readFileSync(join(dir, 'artifact.json'), 'utf8')) as { digest: string; mediaType: string; helmChart: boolean };
      if (meta.digest !== digest || !existsSync(join(dir, 'content'))) return undefined;
      return { dir: join(dir, 'content'), digest, ...(tag !== undefined ? { tag } : {}), mediaType: meta.mediaType, helmChart: meta.helmChart, pulled: false, reader: createSourceReader(join(dir, 'content')) };
    } catch {
      return undefined;
    }
  };

  const pull = async (req: ArtifactRequest): Promise<FetchedArtifact> => {
    const where = `oci://${req.registry}/${req.repository}`;
    const client = new RegistryClient(req, credentialsFor(req, options.registryConfig), timeoutMs);
    let reference: string;
    let tag: string | undefined;
    if (req.revision.kind === 'digest') reference = req.revision.digest;
    else if (req.revision.kind === 'tag') reference = tag = req.revision.tag;
    else {
      // Argo CD first asks for the revision as a tag; only when there is none is it a range.
      const asTag = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/.test(req.revision.range) ? await client.manifest(req.revision.range, true) : undefined;
      if (asTag) reference = tag = req.revision.range;
      else {
        const tags = (await client.tags()).map((t) => t.replace(/_/g, '+'));
        const picked = req.revision.pick(tags);
        if (picked === undefined) {
          throw new ToolError(`${where}: no tag matches the range ${req.revision.range} (of ${tags.length} tags)`, {
            code: 'artifact-not-found',
            hint: 'check targetRevision against the registry\'s tags',
          });
        }
        reference = tag = picked;
      }
    }
    const got = await client.manifest(reference, false);
    if (!got) {
      throw new ToolError(`${where}: ${req.revision.kind === 'digest' ? 'the digest' : `the tag ${reference}`} is not in the registry${req.revision.kind === 'range' ? ` (resolved from ${req.revision.range})` : ''}`, {
        code: 'artifact-not-found',
        hint: 'check targetRevision (a tag, a sha256: digest or a semver range) against the registry',
      });
    }
    const digest = got.digest;
    const cached = read(req, digest, tag);
    if (cached) return cached;
    const layer = contentLayer(where, got.manifest, mediaTypes);
    const blob = await client.blob(layer.descriptor);
    const target = join(keyDir(req), digest.replace(':', '-'));
    mkdirSync(dirname(target), { recursive: true });
    const work = mkdtempSync(join(dirname(target), '.tmp-'));
    try {
      const content = join(work, 'content');
      mkdirSync(content);
      extractLayer(where, blob, layer.descriptor.mediaType, content, layer.helmChart, options.maxExtractedBytes ?? 1024 * 1024 * 1024);
      writeFileSync(join(work, 'artifact.json'), `${JSON.stringify({ digest, mediaType: layer.descriptor.mediaType, helmChart: layer.helmChart })}\n`);
      rmSync(target, { recursive: true, force: true });
      renameSync(work, target);
    } catch (e) {
      rmSync(work, { recursive: true, force: true });
      throw e;
    }
    return { dir: join(target, 'content'), digest, ...(tag !== undefined ? { tag } : {}), mediaType: layer.descriptor.mediaType, helmChart: layer.helmChart, pulled: true, reader: createSourceReader(join(target, 'content')) };
  };

  return {
    cached(req) {
      return req.revision.kind === 'digest' ? read(req, req.revision.digest, undefined) : undefined;
    },
    pull(req) {
      const rev = req.revision.kind === 'digest' ? req.revision.digest : req.revision.kind === 'tag' ? `:${req.revision.tag}` : `~${req.revision.range}`;
      const k = `${req.registry}/${req.repository}\0${rev}\0${req.plainHttp === true}\0${req.insecureSkipVerify === true}`;
      let p = inflight.get(k);
      if (!p) inflight.set(k, (p = pull(req)));
      return p;
    },
    close() {
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      scratch = undefined;
    },
  };
}

/** The repository Secret's login, else the `--registry-config` entry of the registry. */
function credentialsFor(req: ArtifactRequest, registryConfig: string | undefined): RegistryCredentials | undefined {
  if (req.credentials) return req.credentials;
  if (registryConfig === undefined) return undefined;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(registryConfig, 'utf8'));
  } catch (e) {
    throw new ToolError(`cannot read --registry-config ${registryConfig}: ${(e as Error).message}`, { code: 'usage', hint: 'give a Docker/Helm registry config.json (as helm registry login writes it)' });
  }
  const auths = (config as { auths?: Record<string, { auth?: string; username?: string; password?: string }> }).auths ?? {};
  const entry = auths[req.registry] ?? auths[`https://${req.registry}`] ?? auths[`http://${req.registry}`];
  if (!entry) return undefined;
  if (typeof entry.auth === 'string' && entry.auth !== '') {
    const text = Buffer.from(entry.auth, 'base64').toString('utf8');
    const i = text.indexOf(':');
    if (i >= 0) return { username: text.slice(0, i), password: text.slice(i + 1) };
  }
  if (typeof entry.username === 'string') return { username: entry.username, password: entry.password ?? '' };
  return undefined;
}

/** The one content layer Argo CD extracts, or why there is none. */
function contentLayer(where: string, manifest: Record<string, unknown>, mediaTypes: readonly string[]): { descriptor: Descriptor; helmChart: boolean } {
  const mediaType = typeof manifest.mediaType === 'string' ? manifest.mediaType : '';
  if (INDEX_TYPES.includes(mediaType) || Array.isArray(manifest.manifests)) {
    throw new ToolError(`${where}: the revision is an image index (${mediaType || 'manifests list'}), which Argo CD does not extract (expected only a single oci content layer, got 0)`, {
      code: 'artifact-unsupported',
      hint: 'push the manifests as one artifact with a single tar+gzip layer (oras push), and point targetRevision at it',
    });
  }
  const config = (manifest.config ?? {}) as { mediaType?: unknown };
  const helmChart = config.mediaType === HELM_CONFIG;
  const layers = (Array.isArray(manifest.layers) ? manifest.layers : []) as Partial<Descriptor>[];
  if (layers.length > 10) throw new ToolError(`${where}: expected no more than 10 oci layers, got ${layers.length}`, { code: 'artifact-unsupported' });
  const content: Descriptor[] = [];
  for (const l of layers) {
    const mt = typeof l.mediaType === 'string' ? l.mediaType : '';
    const counts = helmChart ? mt === HELM_LAYER : /(tar\+gzip|tar\.gzip|tar)$/.test(mt);
    if (!counts) continue;
    if (!mediaTypes.includes(mt)) {
      throw new ToolError(`${where}: oci layer media type ${mt} is not in the list of allowed media types (${mediaTypes.join(', ')})`, {
        code: 'artifact-unsupported',
        hint: 'Argo CD accepts only these by default (ARGOCD_REPO_SERVER_OCI_LAYER_MEDIA_TYPES); push the layer as application/vnd.oci.image.layer.v1.tar+gzip',
      });
    }
    if (typeof l.digest !== 'string' || !DIGEST.test(l.digest) || typeof l.size !== 'number') throw new ToolError(`${where}: a layer has no sha256 digest or size`, { code: 'artifact-unsupported' });
    content.push({ mediaType: mt, digest: l.digest, size: l.size });
  }
  if (content.length !== 1) {
    throw new ToolError(`${where}: expected only a single oci content layer, got ${content.length}`, {
      code: 'artifact-unsupported',
      hint: 'Argo CD extracts artifacts with exactly one tar, tar+gzip (or Helm chart) layer',
    });
  }
  return { descriptor: content[0]!, helmChart };
}

/** A distribution-API client for one repository, with Basic or Bearer-token authentication. */
class RegistryClient {
  private token: string | undefined;
  private readonly base: string;
  constructor(
    private readonly req: ArtifactRequest,
    private readonly credentials: RegistryCredentials | undefined,
    private readonly timeoutMs: number,
  ) {
    this.base = `${req.plainHttp ? 'http' : 'https'}://${req.registry}/v2/${req.repository}`;
  }

  private get where(): string {
    return `oci://${this.req.registry}/${this.req.repository}`;
  }

  /** The manifest and its digest (verified); undefined when the registry has no such reference (or, `probe`, any 4xx). */
  async manifest(reference: string, probe: boolean): Promise<{ manifest: Record<string, unknown>; digest: string } | undefined> {
    const r = await this.get(`${this.base}/manifests/${reference}`, { Accept: MANIFEST_ACCEPT }, MAX_MANIFEST_BYTES);
    if (r.status === 404 || (probe && r.status >= 400 && r.status < 500 && r.status !== 401 && r.status !== 403)) return undefined;
    this.check(r, `manifest ${reference}`);
    const digest = `sha256:${sha256Hex(r.body)}`;
    const said = header(r.headers, 'docker-content-digest');
    if ((DIGEST.test(reference) && reference !== digest) || (said !== undefined && DIGEST.test(said) && said !== digest)) {
      throw new ToolError(`${this.where}: the registry sent a manifest for ${reference} whose sha256 is ${digest}${said !== undefined && said !== digest ? `, not the ${said} it announced` : ''}`, {
        code: 'artifact-digest-mismatch',
        hint: 'the registry serves altered or corrupted content; check targetRevision and the registry',
      });
    }
    let manifest: unknown;
    try {
      manifest = JSON.parse(r.body.toString('utf8'));
    } catch {
      throw new ToolError(`${this.where}: the manifest of ${reference} is not JSON`, { code: 'artifact-unsupported' });
    }
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) throw new ToolError(`${this.where}: the manifest of ${reference} is not an object`, { code: 'artifact-unsupported' });
    return { manifest: manifest as Record<string, unknown>, digest };
  }

  /** Every tag (following `Link` pages). */
  async tags(): Promise<string[]> {
    const out: string[] = [];
    let url: string | undefined = `${this.base}/tags/list`;
    for (let page = 0; url !== undefined && page < 1000; page++) {
      const r = await this.get(url, { Accept: 'application/json' }, MAX_MANIFEST_BYTES);
      this.check(r, 'the tag list');
      const body = JSON.parse(r.body.toString('utf8')) as { tags?: unknown };
      if (Array.isArray(body.tags)) for (const t of body.tags) if (typeof t === 'string') out.push(t);
      const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(header(r.headers, 'link') ?? '')?.[1];
      url = next === undefined ? undefined : new URL(next, url).toString();
    }
    return out;
  }

  /** The blob's bytes, checked against its digest and size. */
  async blob(d: Descriptor): Promise<Buffer> {
    if (d.size > MAX_BLOB_BYTES) throw new ToolError(`${this.where}: the layer is ${d.size} bytes, more than ${MAX_BLOB_BYTES}`, { code: 'artifact-too-large' });
    const r = await this.get(`${this.base}/blobs/${d.digest}`, {}, MAX_BLOB_BYTES);
    this.check(r, `layer ${d.digest}`);
    const got = `sha256:${sha256Hex(r.body)}`;
    if (got !== d.digest || r.body.length !== d.size) {
      throw new ToolError(`${this.where}: the registry sent layer ${d.digest} as ${r.body.length} bytes whose sha256 is ${got}: content does not match its digest`, {
        code: 'artifact-digest-mismatch',
        hint: 'the registry serves altered or corrupted content; do not use it until it is fixed',
      });
    }
    return r.body;
  }

  private check(r: Response, what: string): void {
    if (r.status >= 200 && r.status < 300) return;
    const text = registryError(r.body) ?? `HTTP ${r.status}`;
    if (r.status === 401 || r.status === 403) {
      throw new ToolError(`${this.where}: the registry refused ${what} (not authorized): ${text}`, {
        code: 'registry-unauthorized',
        hint: this.credentials
          ? 'the credentials were refused; check the repository Secret or the --registry-config login'
          : 'give the registry login in a repository Secret of the repository (Argo CD reads the same) or with --registry-config FILE (fleetplan never reads your own Docker or Helm logins)',
      });
    }
    throw new ToolError(`${this.where}: ${what}: ${text}`, { code: 'artifact-fetch-failed', hint: 'check the repository URL and targetRevision' });
  }

  private async get(url: string, headers: Record<string, string>, limit: number): Promise<Response> {
    let r = await this.send(url, { ...headers, ...this.authHeader() }, limit);
    if (r.status === 401) {
      const challenge = header(r.headers, 'www-authenticate') ?? '';
      if (/^bearer\s/i.test(challenge) && this.token === undefined) {
        this.token = await this.fetchToken(challenge);
        r = await this.send(url, { ...headers, ...this.authHeader() }, limit);
      }
    }
    return r;
  }

  private authHeader(): Record<string, string> {
    if (this.token !== undefined) return { Authorization: `Bearer ${this.token}` };
    if (this.credentials) return { Authorization: `Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64')}` };
    return {};
  }

  /** The token endpoint of a `Bearer realm=…,service=…,scope=…` challenge, asked for a pull token. */
  private async fetchToken(challenge: string): Promise<string> {
    const params = new Map<string, string>();
    for (const m of challenge.replace(/^bearer\s+/i, '').matchAll(/(\w+)="([^"]*)"/g)) params.set(m[1]!.toLowerCase(), m[2]!);
    const realm = params.get('realm');
    if (!realm) throw new ToolError(`${this.where}: the registry asks for a token without naming where to get it`, { code: 'registry-unauthorized' });
    const u = new URL(realm);
    if (params.get('service')) u.searchParams.set('service', params.get('service')!);
    u.searchParams.set('scope', params.get('scope') ?? `repository:${this.req.repository}:pull`);
    const basic: Record<string, string> = this.credentials ? { Authorization: `Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64')}` } : {};
    const r = await this.send(u.toString(), basic, MAX_MANIFEST_BYTES);
    this.check(r, 'a pull token');
    const body = JSON.parse(r.body.toString('utf8')) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new ToolError(`${this.where}: the token endpoint gave no token`, { code: 'registry-unauthorized' });
    return token;
  }

  /** One request, following up to 5 redirects (blob storage); an Authorization is sent only to the registry itself. */
  private send(url: string, headers: Record<string, string>, limit: number, hops = 0): Promise<Response> {
    const u = new URL(url);
    const request = u.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<Response>((resolvePromise, reject) => {
      const fail = (e: Error) =>
        reject(
          new ToolError(`${this.where}: could not reach ${u.host} over ${u.protocol === 'http:' ? 'HTTP' : 'HTTPS'}: ${e.message}`, {
            code: 'registry-unreachable',
            hint: u.protocol === 'https:' && /EPROTO|wrong version number|packet length too long|ECONNRESET/i.test(e.message)
              ? 'the registry seems to speak plain HTTP: Argo CD uses it only with insecureOCIForceHttp: "true" on the repository Secret, and so does fleetplan'
              : 'check the repository URL and that this machine reaches it (DNS, proxy, TLS); a self-signed certificate needs insecure: "true" on the repository Secret',
            cause: e,
          }),
        );
      const req = request(
        u,
        { method: 'GET', headers: { 'User-Agent': 'fleetplan', ...headers }, timeout: this.timeoutMs, ...(u.protocol === 'https:' && this.req.insecureSkipVerify ? { rejectUnauthorized: false } : {}) },
        (res) => {
          const status = res.statusCode ?? 0;
          const location = header(res.headers, 'location');
          if ([301, 302, 303, 307, 308].includes(status) && location !== undefined && hops < 5) {
            res.resume();
            const next = new URL(location, u);
            const sameHost = next.host === u.host;
            const forward = Object.fromEntries(Object.entries(headers).filter(([k]) => sameHost || k.toLowerCase() !== 'authorization'));
            this.send(next.toString(), forward, limit, hops + 1).then(resolvePromise, reject);
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > limit) {
              req.destroy(new Error(`response larger than ${limit} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => resolvePromise({ status, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', fail);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer in ${this.timeoutMs} ms`)));
      req.on('error', fail);
      req.end();
    });
  }
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function registryError(body: Buffer): string | undefined {
  try {
    const e = (JSON.parse(body.toString('utf8')) as { errors?: { code?: string; message?: string }[] }).errors?.[0];
    return e ? `${e.code ?? ''} ${e.message ?? ''}`.trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Unpacks a tar (gzip-compressed for `tar+gzip`/`tar.gzip`) into `dest`: regular files,
 * directories and symlinks that stay inside; anything that would leave `dest` is refused, as
 * Argo CD refuses out-of-bounds symlinks. A Helm chart's single top folder becomes `dest`.
 */
export function extractLayer(where: string, blob: Buffer, mediaType: string, dest: string, helmChart: boolean, maxBytes: number): void {
  let tar: Buffer;
  try {
    tar = /(tar\+gzip|tar\.gzip)$/.test(mediaType) ? gunzipSync(blob, { maxOutputLength: maxBytes + 1024 * 1024 }) : blob;
  } catch (e) {
    throw new ToolError(`${where}: could not decompress layer: ${(e as Error).message}`, { code: 'artifact-unsupported' });
  }
  const entries = readTar(where, tar, maxBytes);
  let strip = '';
  if (helmChart) {
    const tops = new Set(entries.map((e) => e.path.split('/')[0]!));
    const top = [...tops][0];
    if (tops.size !== 1 || top === undefined || !entries.some((e) => e.path.startsWith(`${top}/`))) throw new ToolError(`${where}: a Helm chart layer must hold one directory, found ${tops.size} entries at its top`, { code: 'artifact-unsupported' });
    strip = `${top}/`;
  }
  const root = resolve(dest);
  for (const e of entries) {
    const path = strip ? (e.path.startsWith(strip) ? e.path.slice(strip.length) : '') : e.path;
    if (path === '') continue;
    const abs = resolve(root, path);
    const rel = relative(root, abs);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new ToolError(`${where}: the layer's entry ${e.path} is outside the artifact`, { code: 'artifact-unsupported' });
    if (e.type === 'dir') {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    if (e.type === 'symlink') {
      const target = resolve(dirname(abs), e.link);
      const r = relative(root, target);
      if (r.startsWith('..') || isAbsolute(r) || isAbsolute(e.link)) throw new ToolError(`${where}: oci image contains out-of-bounds symlinks. file: ${path}`, { code: 'symlink-outside-repo' });
      symlinkSync(e.link, abs);
      continue;
    }
    writeFileSync(abs, e.data!, { mode: e.mode & 0o111 ? 0o755 : 0o644 });
  }
}

interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  link: string;
  data?: Buffer;
}

function readTar(where: string, tar: Buffer, maxBytes: number): TarEntry[] {
  const out: TarEntry[] = [];
  let offset = 0;
  let total = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax: Map<string, string> | undefined;
  const str = (b: Buffer) => {
    const z = b.indexOf(0);
    return (z >= 0 ? b.subarray(0, z) : b).toString('utf8');
  };
  const num = (b: Buffer): number => {
    if (b[0]! & 0x80) {
      let n = 0;
      for (let i = 1; i < b.length; i++) n = n * 256 + b[i]!;
      return n;
    }
    const s = str(b).trim();
    return s === '' ? 0 : parseInt(s, 8);
  };
  while (offset + 512 <= tar.length) {
    const h = tar.subarray(offset, offset + 512);
    if (h.every((x) => x === 0)) break;
    const size = num(h.subarray(124, 136));
    const type = String.fromCharCode(h[156] || 0x30);
    const dataStart = offset + 512;
    if (!Number.isFinite(size) || size < 0 || dataStart + size > tar.length) throw new ToolError(`${where}: the layer is not a valid tar archive`, { code: 'artifact-unsupported' });
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = str(data);
      continue;
    }
    if (type === 'K') {
      longLink = str(data);
      continue;
    }
    if (type === 'x') {
      pax = new Map();
      let i = 0;
      const text = data.toString('utf8');
      while (i < text.length) {
        const sp = text.indexOf(' ', i);
        const len = parseInt(text.slice(i, sp), 10);
        if (!Number.isFinite(len) || len <= 0) break;
        const record = text.slice(sp + 1, i + len - 1);
        const eq = record.indexOf('=');
        pax.set(record.slice(0, eq), record.slice(eq + 1));
        i += len;
      }
      continue;
    }
    if (type === 'g') continue;
    const prefix = str(h.subarray(345, 500));
    const name = pax?.get('path') ?? longName ?? (prefix ? `${prefix}/${str(h.subarray(0, 100))}` : str(h.subarray(0, 100)));
    const link = pax?.get('linkpath') ?? longLink ?? str(h.subarray(157, 257));
    longName = longLink = pax = undefined;
    const path = posix.normalize(name.replace(/^\.\//, '')).replace(/\/+$/, '');
    if (path === '.' || path === '') continue;
    if (path.split('/').includes('..') || path.startsWith('/')) throw new ToolError(`${where}: the layer's entry ${name} is outside the artifact`, { code: 'artifact-unsupported' });
    const mode = num(h.subarray(100, 108));
    if (type === '5') out.push({ path, type: 'dir', mode, link: '' });
    else if (type === '2') out.push({ path, type: 'symlink', mode, link });
    else if (type === '0' || type === '\0' || type === '7') {
      total += size;
      if (total > maxBytes) throw new ToolError(`${where}: the layer unpacks to more than ${maxBytes} bytes`, { code: 'artifact-too-large' });
      out.push({ path, type: 'file', mode, link: '', data: Buffer.from(data) });
    } else if (type === '1') {
      throw new ToolError(`${where}: the layer holds a hard link (${path}), which fleetplan does not unpack`, { code: 'artifact-unsupported' });
    }
    // Devices and FIFOs are not content: left out.
  }
  return out;
}

function sha256Hex(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

/** The repo-relative form of a path inside an extracted artifact, for messages. */
export function artifactPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/') || '.';
}
