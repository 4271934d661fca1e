/**
 * A Git server on loopback for tests: `git http-backend` (the real smart-HTTP server of git)
 * behind a small node:http server that demands HTTP Basic credentials on every request, as an
 * internal Gitea does for a private repository. Bare repositories live in a temporary directory;
 * pushes are accepted (http.receivepack) from the one user the test names.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './fleet-fixture.js';

export interface GitHttpServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Creates an empty bare repository `name` (e.g. `platform/fleet.git`); returns its URL. */
  createRepo(name: string): string;
  /** The commit `refs/heads/<branch>` of a repository points at, or undefined. */
  branch(name: string, branch: string): string | undefined;
  /** Every request: method, path and whether it carried the right credentials. */
  readonly requests: Array<{ method: string; path: string; authorized: boolean }>;
  /** Resolves at the next request (before it is answered). */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

export async function startGitHttpServer(credentials: { username: string; password: string }): Promise<GitHttpServer> {
  const root = mkdtempSync(join(tmpdir(), 'fleetplan-git-server-'));
  const backend = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const requests: GitHttpServer['requests'] = [];
  let waiters: Array<() => void> = [];
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://localhost');
    const authorized = req.headers.authorization === expected;
    requests.push({ method: req.method ?? 'GET', path: u.pathname, authorized });
    const w = waiters;
    waiters = [];
    for (const f of w) f();
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test git"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(u.pathname),
      REQUEST_METHOD: req.method ?? 'GET',
      QUERY_STRING: u.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: credentials.username,
      REMOTE_ADDR: '127.0.0.1',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: root,
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = String(req.headers['content-length']);
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = String(req.headers['content-encoding']);
    if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
    const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    req.pipe(child.stdin);
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.resume();
    child.on('close', () => {
      const all = Buffer.concat(out);
      const sep = all.indexOf('\r\n\r\n') >= 0 ? all.indexOf('\r\n\r\n') : all.indexOf('\n\n');
      const sepLen = all.indexOf('\r\n\r\n') >= 0 ? 4 : 2;
      if (sep < 0) {
        res.writeHead(500);
        res.end();
        return;
      }
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of all.subarray(0, sep).toString('latin1').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(all.subarray(sep + sepLen));
    });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    createRepo(name) {
      const dir = join(root, name);
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir]);
      execFileSync('git', ['-C', dir, 'config', 'http.receivepack', 'true']);
      return `${url}/${name}`;
    },
    branch(name, branch) {
      try {
        return execFileSync('git', ['-C', join(root, name), 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { encoding: 'utf8' }).trim() || undefined;
      } catch {
        return undefined;
      }
    },
    nextRequest() {
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeTree(root);
    },
  };
}
