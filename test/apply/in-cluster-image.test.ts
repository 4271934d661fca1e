/**
 * The bootstrap runner image (Containerfile, ADR 0239) without a container engine: every COPY
 * source exists, the entrypoint the generated Job and Task call is installed under that name, and
 * the entrypoint script itself, run as the pod would run it (in-cluster credentials against the
 * HTTPS test server), clones the fleet repository with real git and bootstraps from the clone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { removeTree } from '../support/fleet-fixture.js';
import { LAB, setGitContent } from '../support/bootstrap-cluster.js';
import { CRD_SETS, startKubeServer, type KubeServer } from '../support/kube-server/index.js';
import { selfSigned } from '../support/tls.js';
import { RUNNER_ENTRYPOINT } from '../../src/generate/bootstrap-runner.js';

const ROOT = process.cwd();
const SCRIPT = join(ROOT, 'scripts', 'fleetplan-bootstrap-job.sh');
/** Made by `npm ci` in the build stage (prepare: setup-tools, tsc), not copied from the context. */
const BUILT = ['dist/', 'node_modules', '.tools/'];

interface Copy { from?: string; sources: string[]; dest: string; line: number }

function copies(text: string): Copy[] {
  const out: Copy[] = [];
  text.split('\n').forEach((l, i) => {
    const m = /^COPY\s+(?:--from=(\S+)\s+)?(.+)$/.exec(l.trim());
    if (!m) return;
    const parts = m[2]!.trim().split(/\s+/);
    out.push({ ...(m[1] ? { from: m[1] } : {}), sources: parts.slice(0, -1), dest: parts[parts.length - 1]!, line: i + 1 });
  });
  return out;
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

describe('the Containerfile', () => {
  const text = readFileSync(join(ROOT, 'Containerfile'), 'utf8');

  test('every COPY source exists: from the build context, or copied into the build stage, or made by its npm ci', () => {
    const list = copies(text);
    assert.ok(list.length > 5);
    const problems: string[] = [];
    for (const c of list) {
      for (const s of c.sources) {
        if (c.from === undefined) {
          if (!existsSync(join(ROOT, s))) problems.push(`Containerfile:${c.line}: ${s} is not in the build context`);
          continue;
        }
        const rel = s.replace(/^\/src\//, '');
        if (BUILT.some((b) => rel.startsWith(b))) continue;
        const copiedIn = list.some((x) => x.from === undefined && x.sources.some((src) => rel === src || rel.startsWith(src.replace(/\/?$/, '/'))));
        if (!copiedIn || !existsSync(join(ROOT, rel))) problems.push(`Containerfile:${c.line}: ${s} is neither copied into the build stage nor built there`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test(`the entrypoint the generated Job and Task call (${RUNNER_ENTRYPOINT}) is the script, installed under that name, with git in the image`, () => {
    const c = copies(text).find((x) => x.sources.includes('/src/scripts/fleetplan-bootstrap-job.sh'));
    assert.equal(c?.dest, `/usr/local/bin/${RUNNER_ENTRYPOINT}`);
    assert.match(text, new RegExp(`^ENTRYPOINT \\["${RUNNER_ENTRYPOINT}"\\]$`, 'm'));
    assert.match(text, /microdnf install -y --nodocs git-core/);
    accessSync(SCRIPT, constants.X_OK);
    // The last USER is numeric, so runAsNonRoot can be verified by the kubelet.
    assert.equal([...text.matchAll(/^USER (\S+)$/gm)].at(-1)?.[1], '999');
  });
});

describe('the entrypoint script in a pod, against the HTTPS test server', () => {
  let server: KubeServer;
  let dir: string;
  let origin: string;
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleetplan-job-'));
    const tls = selfSigned(dir, 'apiserver');
    server = await startKubeServer({ crds: CRD_SETS.olm, namespaces: ['openshift-operators', 'openshift-marketplace'], tls, token: 'job-token' });
    server.seed([{ apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'global-operators', namespace: 'openshift-operators' }, spec: {} }], 'cluster-version-operator');
    setGitContent(server, LAB, 'hub');
    const sa = join(dir, 'serviceaccount');
    mkdirSync(sa);
    writeFileSync(join(sa, 'token'), 'job-token');
    writeFileSync(join(sa, 'ca.crt'), tls.cert);
    // The fleet repository the Job clones: the lab example, committed on main.
    origin = join(dir, 'origin');
    cpSync(resolve(LAB), origin, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-C', origin, ...args], { stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fleet');
    const home = join(dir, 'workspace');
    mkdirSync(home);
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      FLEETPLAN: `${process.execPath} ${join(ROOT, 'dist', 'src', 'cli', 'main.js')}`,
      FLEETPLAN_REPO_URL: `file://${origin}`,
      FLEETPLAN_REVISION: 'main',
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: new URL(server.url).port,
      FLEETPLAN_SERVICE_ACCOUNT_DIR: sa,
    };
  });
  after(async () => {
    await server.close();
    removeTree(dir);
  });

  test('clones the repository at the revision, then fleetplan bootstrap runs in the clone with the service account', async () => {
    const head = execFileSync('git', ['-C', origin, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const r = await run(SCRIPT, ['bootstrap', '--cluster', 'hub', '--dry-run', '--timeout', '60s'], env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.ok(r.stderr.includes(`fleetplan-bootstrap-job: file://${origin} at main (${head})`), r.stderr);
    assert.match(r.stderr, /credentials: in-cluster service account/);
    assert.match(r.stdout, /^hub: dry run done/m);
    assert.ok(existsSync(join(env.HOME!, 'fleet', 'fleet.yaml')), 'the clone is in the workspace');
  });

  test('a rerun (the Job\'s backoff) reuses the clone and fetches again', async () => {
    const r = await run(SCRIPT, ['bootstrap', '--cluster', 'hub', '--no-wait', '--timeout', '60s'], env);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.ok(server.object('argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops'));
  });

  test('without FLEETPLAN_REPO_URL it stops and names the variable', async () => {
    const { FLEETPLAN_REPO_URL: _u, ...rest } = env;
    const r = await run(SCRIPT, ['bootstrap', '--cluster', 'hub'], rest);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /FLEETPLAN_REPO_URL/);
  });
});
