/**
 * A small OCI distribution registry for tests, in process, over plain HTTP on loopback: what
 * `helm push`, `helm pull` and `helm registry login` (Helm 3.18, oras-go v2) use of the OCI
 * distribution spec (https://github.com/opencontainers/distribution-spec/blob/main/spec.md):
 *
 * - `GET /v2/` (the ping; with credentials set, 401 + `WWW-Authenticate: Basic` without them);
 * - blob uploads: `POST /v2/<name>/blobs/uploads/` (with `?digest=`: monolithic in one request;
 *   else a session at `Location`), `PATCH` chunks (`Range` in the answer), `PUT ?digest=` closes
 *   the session (with or without a last chunk), `GET` of the session says how much it has;
 *   a digest that does not match the bytes is `DIGEST_INVALID`;
 * - `HEAD`/`GET /v2/<name>/blobs/<digest>`;
 * - `PUT`/`GET`/`HEAD /v2/<name>/manifests/<tag or digest>` (the digest is sha256 of the bytes
 *   as sent, `Docker-Content-Digest` in every answer);
 * - `GET /v2/<name>/tags/list` (with `n` and `last`);
 * - anything else: 404 (the referrers API too, which clients then fall back from).
 *
 * Every request is recorded (`requests`) so that a test can say what a run asked for, and
 * `tamper()` makes the registry serve other bytes for a blob than its digest says, as a broken
 * or hostile registry would (`tamperManifest()` the same for a manifest).
 *
 * `putArtifact()` stores a non-chart artifact as `oras push` writes one (ADR 0317): one
 * `application/vnd.oci.image.layer.v1.tar+gzip` layer (or another media type) holding the given
 * files, an empty config, tagged; `tarGzip()` builds such a layer.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface OciRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  status: number;
}

export interface OciRegistry {
  /** `localhost:PORT`: the name clients use (Argo CD reads a repoURL without a scheme as OCI). */
  host: string;
  port: number;
  requests: OciRequest[];
  /** Serve `bytes` for the blob `digest` from now on (its digest no longer matches). */
  tamper(digest: string, bytes: Buffer): void;
  /** The manifest digest a tag points to. */
  digestOf(name: string, tag: string): string | undefined;
  /** The blobs a manifest names (config and layers). */
  layersOf(name: string, reference: string): string[];
  /** Serve `bytes` for the manifest `reference` (tag or digest) of `name` from now on. */
  tamperManifest(name: string, reference: string, bytes: Buffer): void;
  /** Stores an artifact with the given layers (default: the files as one tar+gzip layer) under `tag`; returns its manifest digest. */
  putArtifact(name: string, tag: string, content: ArtifactContent): string;
  close(): Promise<void>;
}

export interface OciRegistryOptions {
  /** Basic authentication for every `/v2/` request when set. */
  username?: string;
  password?: string;
  /**
   * Token authentication instead (as ghcr.io and Docker Hub do): `/v2/` answers 401 with
   * `WWW-Authenticate: Bearer realm=<this server>/token,…`; `/token` gives a token for the
   * username/password (Basic), or to anyone when no username is set.
   */
  bearer?: boolean;
}

export interface ArtifactContent {
  /** Files of the one content layer (path → text). */
  files?: Record<string, string>;
  /** Layers as they are (media type and bytes), instead of `files`. */
  layers?: { mediaType: string; bytes: Buffer }[];
  /** Default `application/vnd.oci.image.layer.v1.tar+gzip`. */
  mediaType?: string;
  /** Default the empty config `application/vnd.oci.empty.v1+json`. */
  configMediaType?: string;
  /** Manifest media type; an index (`application/vnd.oci.image.index.v1+json`) stores `{manifests: []}`. */
  manifestMediaType?: string;
}

interface Manifest {
  body: Buffer;
  mediaType: string;
}

const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const TOKEN = 'test-registry-token';

export async function startOciRegistry(options: OciRegistryOptions = {}): Promise<OciRegistry> {
  const blobs = new Map<string, Buffer>();
  const served = new Map<string, Buffer>();
  const servedManifests = new Map<string, Buffer>();
  const manifests = new Map<string, Map<string, Manifest>>();
  const tags = new Map<string, Map<string, string>>();
  const uploads = new Map<string, { name: string; chunks: Buffer[]; size: number }>();
  const requests: OciRequest[] = [];
  const expected = options.username !== undefined ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}` : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const url = new URL(req.url ?? '/', 'http://registry');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    if (options.bearer && url.pathname === '/token') {
      if (expected !== undefined && req.headers.authorization !== expected) return error(res, 401, 'UNAUTHORIZED', 'bad credentials');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token: TOKEN }));
      return 200;
    }
    if (!url.pathname.startsWith('/v2/')) return error(res, 404, 'NAME_UNKNOWN', 'not a registry path');
    if (options.bearer) {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        const repo = /^\/v2\/(.+?)\/(?:manifests|blobs|tags)\//.exec(url.pathname)?.[1] ?? '';
        res.setHeader('WWW-Authenticate', `Bearer realm="http://${req.headers.host ?? ''}/token",service="fleetplan-test-registry"${repo ? `,scope="repository:${repo}:pull"` : ''}`);
        return error(res, 401, 'UNAUTHORIZED', 'authentication required');
      }
    } else if (expected !== undefined && req.headers.authorization !== expected) {
      res.setHeader('WWW-Authenticate', 'Basic realm="fleetplan-test-registry"');
      return error(res, 401, 'UNAUTHORIZED', 'authentication required');
    }
    if (url.pathname === '/v2/' || url.pathname === '/v2') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(method === 'HEAD' ? undefined : '{}');
      return 200;
    }
    const m = /^\/v2\/(.+?)\/(blobs\/uploads\/?(.*)|blobs\/([^/]+)|manifests\/([^/]+)|tags\/list)$/.exec(url.pathname);
    if (!m || !NAME.test(m[1]!)) return error(res, 404, 'NAME_UNKNOWN', 'unknown path');
    const name = m[1]!;

    if (m[2]!.startsWith('blobs/uploads')) {
      const id = m[3] ?? '';
      const digest = url.searchParams.get('digest');
      if (id === '') {
        if (method !== 'POST') return error(res, 405, 'UNSUPPORTED', 'method not allowed');
        if (digest !== null) return storeBlob(res, name, digest, [body]);
        // A cross-repository mount is not offered: the answer opens an ordinary session.
        const uuid = randomUUID();
        uploads.set(uuid, { name, chunks: [], size: 0 });
        res.writeHead(202, { Location: `/v2/${name}/blobs/uploads/${uuid}`, 'Docker-Upload-UUID': uuid, Range: '0-0', 'Content-Length': '0' }).end();
        return 202;
      }
      const session = uploads.get(id);
      if (!session || session.name !== name) return error(res, 404, 'BLOB_UPLOAD_UNKNOWN', 'no such upload');
      if (method === 'PATCH') {
        const range = req.headers['content-range'];
        if (typeof range === 'string') {
          const r = /^(\d+)-(\d+)$/.exec(range);
          if (!r || Number(r[1]) !== session.size) {
            res.setHeader('Range', `0-${Math.max(session.size - 1, 0)}`);
            return error(res, 416, 'BLOB_UPLOAD_INVALID', `chunk out of order: ${range}, have ${session.size} bytes`);
          }
        }
        session.chunks.push(body);
        session.size += body.length;
        res.writeHead(202, { Location: `/v2/${name}/blobs/uploads/${id}`, 'Docker-Upload-UUID': id, Range: `0-${Math.max(session.size - 1, 0)}`, 'Content-Length': '0' }).end();
        return 202;
      }
      if (method === 'PUT') {
        if (digest === null) return error(res, 400, 'DIGEST_INVALID', 'digest query parameter missing');
        uploads.delete(id);
        return storeBlob(res, name, digest, [...session.chunks, body]);
      }
      if (method === 'GET') {
        res.writeHead(204, { Location: `/v2/${name}/blobs/uploads/${id}`, 'Docker-Upload-UUID': id, Range: `0-${Math.max(session.size - 1, 0)}` }).end();
        return 204;
      }
      if (method === 'DELETE') {
        uploads.delete(id);
        res.writeHead(204).end();
        return 204;
      }
      return error(res, 405, 'UNSUPPORTED', 'method not allowed');
    }

    if (m[4] !== undefined) {
      const digest = m[4];
      if (method !== 'GET' && method !== 'HEAD') return error(res, 405, 'UNSUPPORTED', 'method not allowed');
      const bytes = served.get(digest) ?? blobs.get(digest);
      if (!DIGEST.test(digest) || bytes === undefined) return error(res, 404, 'BLOB_UNKNOWN', `blob ${digest} unknown`);
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(bytes.length), 'Docker-Content-Digest': digest });
      res.end(method === 'HEAD' ? undefined : bytes);
      return 200;
    }

    if (m[5] !== undefined) {
      const reference = m[5];
      const byDigest = manifests.get(name) ?? new Map<string, Manifest>();
      if (method === 'PUT') {
        const digest = sha256(body);
        if (DIGEST.test(reference) ? reference !== digest : !TAG.test(reference)) return error(res, 400, DIGEST.test(reference) ? 'DIGEST_INVALID' : 'TAG_INVALID', `bad reference ${reference}`);
        const parsed = parseJson(body);
        if (parsed === undefined) return error(res, 400, 'MANIFEST_INVALID', 'manifest is not JSON');
        for (const d of blobsOf(parsed)) if (!blobs.has(d)) return error(res, 400, 'MANIFEST_BLOB_UNKNOWN', `blob ${d} unknown`);
        byDigest.set(digest, { body, mediaType: req.headers['content-type'] ?? (typeof parsed.mediaType === 'string' ? parsed.mediaType : 'application/vnd.oci.image.manifest.v1+json') });
        manifests.set(name, byDigest);
        if (!DIGEST.test(reference)) {
          const t = tags.get(name) ?? new Map<string, string>();
          t.set(reference, digest);
          tags.set(name, t);
        }
        res.writeHead(201, { Location: `/v2/${name}/manifests/${digest}`, 'Docker-Content-Digest': digest, 'Content-Length': '0' }).end();
        return 201;
      }
      if (method !== 'GET' && method !== 'HEAD') return error(res, 405, 'UNSUPPORTED', 'method not allowed');
      const digest = DIGEST.test(reference) ? reference : tags.get(name)?.get(reference);
      const found = digest !== undefined ? byDigest.get(digest) : undefined;
      if (!found || digest === undefined) return error(res, 404, 'MANIFEST_UNKNOWN', `manifest ${reference} unknown`);
      const bytes = servedManifests.get(`${name}@${reference}`) ?? found.body;
      res.writeHead(200, { 'Content-Type': found.mediaType, 'Content-Length': String(bytes.length), 'Docker-Content-Digest': digest });
      res.end(method === 'HEAD' ? undefined : bytes);
      return 200;
    }

    // tags/list
    if (method !== 'GET') return error(res, 405, 'UNSUPPORTED', 'method not allowed');
    const all = [...(tags.get(name)?.keys() ?? [])].sort();
    if (!manifests.has(name)) return error(res, 404, 'NAME_UNKNOWN', `repository ${name} unknown`);
    const last = url.searchParams.get('last');
    const n = url.searchParams.get('n');
    let list = last !== null ? all.filter((t) => t > last) : all;
    if (n !== null && Number(n) < list.length) {
      list = list.slice(0, Number(n));
      res.setHeader('Link', `</v2/${name}/tags/list?n=${n}&last=${encodeURIComponent(list[list.length - 1] ?? '')}>; rel="next"`);
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name, tags: list }));
    return 200;
  };

  const storeBlob = (res: ServerResponse, name: string, digest: string, parts: Buffer[]): number => {
    const bytes = Buffer.concat(parts);
    if (!DIGEST.test(digest) || sha256(bytes) !== digest) return error(res, 400, 'DIGEST_INVALID', `content does not match ${digest}`);
    blobs.set(digest, bytes);
    res.writeHead(201, { Location: `/v2/${name}/blobs/${digest}`, 'Docker-Content-Digest': digest, 'Content-Length': '0' }).end();
    return 201;
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status }),
      (e: unknown) => {
        requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: 500 });
        if (!res.headersSent) res.writeHead(500).end(String(e));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: `localhost:${port}`,
    port,
    requests,
    tamper(digest, bytes) {
      served.set(digest, bytes);
    },
    digestOf(name, tag) {
      return tags.get(name)?.get(tag);
    },
    tamperManifest(name, reference, bytes) {
      servedManifests.set(`${name}@${reference}`, bytes);
    },
    putArtifact(name, tag, content) {
      const put = (bytes: Buffer) => {
        const d = sha256(bytes);
        blobs.set(d, bytes);
        return d;
      };
      const layers = content.layers ?? [{ mediaType: content.mediaType ?? 'application/vnd.oci.image.layer.v1.tar+gzip', bytes: tarGzip(content.files ?? {}) }];
      const configBytes = Buffer.from('{}');
      const manifestMediaType = content.manifestMediaType ?? 'application/vnd.oci.image.manifest.v1+json';
      const manifest = manifestMediaType.includes('index')
        ? { schemaVersion: 2, mediaType: manifestMediaType, manifests: [] }
        : {
            schemaVersion: 2,
            mediaType: manifestMediaType,
            config: { mediaType: content.configMediaType ?? 'application/vnd.oci.empty.v1+json', digest: put(configBytes), size: configBytes.length },
            layers: layers.map((l) => ({ mediaType: l.mediaType, digest: put(l.bytes), size: l.bytes.length })),
          };
      const body = Buffer.from(JSON.stringify(manifest));
      const digest = sha256(body);
      const byDigest = manifests.get(name) ?? new Map<string, Manifest>();
      byDigest.set(digest, { body, mediaType: manifestMediaType });
      manifests.set(name, byDigest);
      const t = tags.get(name) ?? new Map<string, string>();
      t.set(tag, digest);
      tags.set(name, t);
      return digest;
    },
    layersOf(name, reference) {
      const digest = DIGEST.test(reference) ? reference : tags.get(name)?.get(reference);
      const found = digest !== undefined ? manifests.get(name)?.get(digest) : undefined;
      return found ? blobsOf(parseJson(found.body) ?? {}) : [];
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A gzip-compressed ustar archive of `files` (path → text), directories implied, in path order. */
export function tarGzip(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  const header = (path: string, size: number, type: string, mode: number) => {
    const h = Buffer.alloc(512);
    h.write(path, 0, 100, 'utf8');
    h.write(`${mode.toString(8).padStart(7, '0')}\0`, 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(type, 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    return h;
  };
  const dirs = new Set<string>();
  for (const path of Object.keys(files).sort()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${parts.slice(0, i).join('/')}/`;
      if (!dirs.has(d)) {
        dirs.add(d);
        blocks.push(header(d, 0, '5', 0o755));
      }
    }
    const data = Buffer.from(files[path]!, 'utf8');
    blocks.push(header(path, data.length, '0', 0o644), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

function error(res: ServerResponse, status: number, code: string, message: string): number {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ errors: [{ code, message }] }));
  return status;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The config and layer digests of an image manifest. */
function blobsOf(manifest: Record<string, unknown>): string[] {
  const out: string[] = [];
  const config = manifest.config as { digest?: unknown } | undefined;
  if (config && typeof config.digest === 'string') out.push(config.digest);
  for (const l of Array.isArray(manifest.layers) ? (manifest.layers as { digest?: unknown }[]) : []) if (typeof l.digest === 'string') out.push(l.digest);
  return out;
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
