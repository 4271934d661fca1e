/**
 * MirrorGit over the real git binary (docs/adr/0237-push-credentials.md).
 *
 * Credentials reach git through a GIT_ASKPASS helper: a script in a fresh 0700 directory that
 * prints the username or the password from two 0600 files beside it. The environment of git holds
 * only the script's path, the command line only the URL without user, so neither `ps` nor
 * /proc/<pid>/environ of any process shows the secret; the directory is removed when git ends.
 * `credential.helper` is reset so git never stores them in the user's credential store.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperationError, ToolError } from '../errors/index.js';
import type { GitCredentials, MirrorGit, TreeDifference } from '../ports/mirror-git.js';
import { toolEnv } from './process.js';

export interface GitPushOptions {
  /** The local clone of the fleet repository. */
  root: string;
  /** The environment git's own settings are taken from (toolEnv: PATH, HOME, proxies, CA files). */
  env: Readonly<Record<string, string | undefined>>;
  /** Default `git` on PATH. */
  git?: string;
  /** For each git process (default 5 minutes). */
  timeoutMs?: number;
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function createMirrorGit(options: GitPushOptions): MirrorGit {
  const git = options.git ?? 'git';
  const baseEnv = toolEnv(options.env, { GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' });
  // Settings of the user's or system's git that would reroute or keep the credentials are overridden per call.
  const safety = ['-c', 'credential.helper=', '-c', 'core.askPass='];

  function run(args: string[], extraEnv: Record<string, string> = {}): Promise<Result> {
    return new Promise((resolve, reject) => {
      const child = spawn(git, [...safety, ...args], {
        cwd: options.root,
        env: { ...baseEnv, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: options.timeoutMs ?? 5 * 60_000,
        killSignal: 'SIGKILL',
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (e) => reject(new ToolError(`cannot run ${git}: ${e.message}`, { hint: 'install git, or put it on PATH', cause: e })));
      child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    });
  }

  /** Runs git with the credentials behind GIT_ASKPASS; the helper directory is gone when this resolves. */
  async function withCredentials(credentials: GitCredentials, args: string[]): Promise<Result> {
    const dir = mkdtempSync(join(tmpdir(), 'fleetplan-askpass-'));
    try {
      chmodSync(dir, 0o700);
      const user = join(dir, 'username');
      const pass = join(dir, 'password');
      writeFileSync(user, credentials.username, { mode: 0o600 });
      writeFileSync(pass, credentials.password, { mode: 0o600 });
      const script = join(dir, 'askpass');
      writeFileSync(script, `#!/bin/sh\ncase "$1" in\n  Username*) exec cat ${shellQuote(user)} ;;\n  *) exec cat ${shellQuote(pass)} ;;\nesac\n`, { mode: 0o700 });
      return await run(args, { GIT_ASKPASS: script });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const failed = (what: string, r: Result, hint?: string) =>
    new OperationError(`${what} failed (git exit ${String(r.code)}): ${redact(r.stderr.trim()) || 'no message'}`, { code: 'mirror-git', ...(hint ? { hint } : {}) });

  return {
    async resolve(revision) {
      const r = await run(['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
      if (r.code !== 0) {
        throw new OperationError(`revision "${revision}" names no commit in ${options.root}`, {
          code: 'mirror-revision',
          hint: 'fetch the fleet repository (git fetch) so that the clone has the revision the cluster tracks',
        });
      }
      return r.stdout.trim();
    },
    async hasCommit(commit) {
      const r = await run(['cat-file', '-e', `${commit}^{commit}`]);
      return r.code === 0;
    },
    async compareTree(commit, expected) {
      const dirs = [...new Set(expected.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))))].sort();
      const r = await run(['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...dirs]);
      if (r.code !== 0) throw failed(`git ls-tree ${commit}`, r);
      const blobs = new Map<string, string>();
      for (const entry of r.stdout.split('\0')) {
        const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
        if (m) blobs.set(m[2]!, m[1]!);
      }
      const out: TreeDifference = { missing: [], differ: [] };
      for (const f of expected) {
        const id = blobs.get(f.path);
        if (id === undefined) out.missing.push(f.path);
        else if (id !== blobId(f.content, id.length === 64 ? 'sha256' : 'sha1')) out.differ.push(f.path);
      }
      return out;
    },
    async remoteBranch(url, branch, credentials) {
      const r = await withCredentials(credentials, ['ls-remote', '--', url, `refs/heads/${branch}`]);
      if (r.code !== 0) throw failed(`git ls-remote ${url}`, r, 'check that the internal Git service is reachable from here (gitops.mirror.pushURL) and that the credentials may read it');
      const line = r.stdout.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`));
      return line?.split('\t')[0];
    },
    async push(url, commit, branch, credentials, { force }) {
      const r = await withCredentials(credentials, ['push', '--porcelain', '--', url, `${force ? '+' : ''}${commit}:refs/heads/${branch}`]);
      if (r.code === 0) return;
      const rejected = /non-fast-forward|fetch first|\[rejected\]/.test(r.stdout + r.stderr);
      throw failed(`git push ${url} ${commit}:refs/heads/${branch}`, { ...r, stderr: `${r.stderr}\n${r.stdout}` },
        rejected
          ? `branch ${branch} of the mirror has commits that are not in the fleet repository at this revision; rerun with --force-push to replace them (they are lost on the mirror)`
          : 'check that the internal Git service is reachable from here (gitops.mirror.pushURL) and that the credentials may push');
    },
  };
}

/** Git's object id of a blob with this content. */
export function blobId(content: string, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  const body = Buffer.from(content, 'utf8');
  return createHash(algorithm).update(`blob ${body.length}\0`).update(body).digest('hex');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A URL with user:password in git's message loses them (git prints the URL it was given). */
function redact(text: string): string {
  return text.replace(/(\w+:\/\/)[^/@\s]+@/g, '$1***@');
}
