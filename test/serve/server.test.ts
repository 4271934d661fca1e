// `fleetplan serve` without a browser: what it refuses (non-loopback hosts, foreign Host headers,
// writes, files outside the repository), its headers, the bootstrap progress it reads, the
// polling fallback of its watcher, and the command line.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { UsageError, startServe } from '../../src/index.js';
import { applyProgressLine, emptyProgress } from '../../src/api/serve/progress.js';
import { relevantChange, watchTree } from '../../src/api/serve/watch.js';
import { labCopy, serve } from './support.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serve refuses a non-loopback host unless --allow-remote is given, and says why', async () => {
  const lab = labCopy();
  try {
    await assert.rejects(startServe({ root: lab.dir, host: '0.0.0.0', port: 0 }), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, /0\.0\.0\.0 is not a loopback address: the dashboard has no authentication/);
      assert.match(e.hint ?? '', /--allow-remote/);
      return true;
    });
  } finally {
    lab.cleanup();
  }
});

test('serve sends a CSP that forbids external loads, answers only GET, and only to a loopback Host', async () => {
  const lab = labCopy();
  const server = await serve(lab.dir);
  try {
    const page = await get(server.url);
    assert.equal(page.status, 200);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'the page loads nothing from elsewhere');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal((await get(`${server.url}api/model`, {}, 'POST')).status, 405);
    // A DNS-rebinding page reaches 127.0.0.1 under its own name: refused.
    assert.equal((await get(server.url, { host: 'attacker.example.com' })).status, 421);
    const model = JSON.parse((await get(`${server.url}api/model`)).body) as { loaded: boolean; clusters: { name: string }[]; sectors: { name: string; clusters: string[] }[] };
    assert.equal(model.loaded, true);
    assert.deepEqual(model.clusters.map((c) => c.name), ['hub', 'etl4', 'etl6']);
    assert.deepEqual(model.sectors, [{ name: 'lab', revision: null, protected: false, clusters: ['etl4', 'etl6', 'hub'] }]);
  } finally {
    await server.close();
    lab.cleanup();
  }
});

test('the file view reads inside the repository only: not ../, not .git, not through a symlink out', async () => {
  const lab = labCopy();
  mkdirSync(join(lab.dir, '.git'));
  writeFileSync(join(lab.dir, '.git/config'), '[remote "origin"]\n');
  writeFileSync(join(lab.dir, '..', 'secret.txt'), 'secret\n');
  symlinkSync('../secret.txt', join(lab.dir, 'link.txt'));
  const server = await serve(lab.dir);
  try {
    const ok = await get(`${server.url}api/file?path=fleet.yaml`);
    assert.equal(ok.status, 200);
    assert.equal((JSON.parse(ok.body) as { lines: string[] }).lines[1], 'kind: Fleet');
    for (const path of ['../secret.txt', '/etc/passwd', 'clusters/../../secret.txt', '.git/config', 'link.txt']) {
      const r = await get(`${server.url}api/file?path=${encodeURIComponent(path)}`);
      assert.equal(r.status, 400, path);
      assert.doesNotMatch(r.body, /secret\\n|remote "origin"/, path);
    }
    assert.equal((await get(`${server.url}api/file?path=nope.yaml`)).status, 404);
  } finally {
    await server.close();
    lab.cleanup();
  }
});

test('a fleet that cannot be read is served as its error, with file and hint, and reloads once fixed', async () => {
  const lab = labCopy();
  const { readFileSync } = await import('node:fs');
  const fleet = join(lab.dir, 'fleet.yaml');
  const good = readFileSync(fleet, 'utf8');
  writeFileSync(fleet, good.replace('kind: Fleet', 'kind: Fleet\n  broken: [unclosed'));
  const server = await serve(lab.dir);
  try {
    const model = JSON.parse((await get(`${server.url}api/model`)).body) as { loaded: boolean; findings: { severity: string; file?: string }[] };
    assert.equal(model.findings.some((f) => f.severity === 'error' && f.file === 'fleet.yaml'), true, JSON.stringify(model.findings));
    writeFileSync(fleet, good);
    await server.reload();
    const fixed = JSON.parse((await get(`${server.url}api/model`)).body) as { loaded: boolean; version: number; clusters: unknown[] };
    assert.equal(fixed.loaded, true);
    assert.equal(fixed.clusters.length, 3);
    assert.ok(fixed.version >= 2);
  } finally {
    await server.close();
    lab.cleanup();
  }
});

test('bootstrap events (`bootstrap -o json` lines) become per-cluster progress; other lines are counted, not guessed at', () => {
  const s = emptyProgress('/tmp/p.ndjson');
  applyProgressLine(s, JSON.stringify({ type: 'start', cluster: 'hub', context: 'c', server: 's', stages: ['a', 'b', 'c'], dryRun: true, elapsedMs: 5 }));
  applyProgressLine(s, JSON.stringify({ type: 'stage', cluster: 'hub', stage: 'b', index: 1, total: 3, objects: 2, waits: 4, wave: 10 }));
  applyProgressLine(s, JSON.stringify({ type: 'progress', cluster: 'hub', stage: 'b', ready: 3, total: 4, elapsedMs: 700 }));
  applyProgressLine(s, JSON.stringify({ type: 'stage-done', cluster: 'hub', stage: 'b', durationMs: 3 }));
  applyProgressLine(s, 'kubectl: some stray line');
  applyProgressLine(s, JSON.stringify({ type: 'failed', cluster: 'etl4', message: 'no route' }));
  assert.equal(s.unreadable, 1);
  assert.deepEqual(s.clusters.map((c) => [c.cluster, c.status, c.stage, c.index, c.total, c.wave, c.ready, c.objects, c.done, c.elapsedMs, c.dryRun]), [
    ['etl4', 'failed', null, 0, 0, null, 0, 0, [], 0, false],
    ['hub', 'running', 'b', 2, 3, 10, 3, 4, ['b'], 700, true],
  ]);
  assert.deepEqual(s.log, ['hub: dry run against c', 'etl4: failed: no route']);
});

test('the watcher falls back to polling, notices a change once (debounced), and ignores .git internals', async () => {
  const lab = labCopy();
  let calls = 0;
  let notify: () => void = () => {};
  const changed = new Promise<void>((r) => (notify = r));
  const w = watchTree(lab.dir, () => {
    calls++;
    notify();
  }, { forcePoll: true, pollMs: 30, debounceMs: 60 });
  try {
    assert.equal(w.mode, 'poll');
    writeFileSync(join(lab.dir, 'clusters/hub/extra.yaml'), 'a: 1\n');
    writeFileSync(join(lab.dir, 'clusters/hub/extra2.yaml'), 'a: 2\n');
    await changed;
    assert.equal(calls, 1);
  } finally {
    w.close();
    lab.cleanup();
  }
  assert.equal(relevantChange('.git/objects/ab/cdef'), false);
  assert.equal(relevantChange('.git/index.lock'), false);
  assert.equal(relevantChange('.git/refs/heads/main'), true);
  assert.equal(relevantChange('clusters/hub/cluster.yaml'), true);
});

test('fleetplan serve: refuses --host 0.0.0.0 with exit 2; serves on --port 0 until SIGTERM, then exits 0', async () => {
  const refused = spawnSync(process.execPath, [CLI, 'serve', '--repo', 'examples/lab', '--host', '0.0.0.0'], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /not a loopback address.*--allow-remote/s);
  const lab = labCopy();
  try {
    const child = spawn(process.execPath, [CLI, 'serve', '--repo', lab.dir, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (c: string) => {
        err += c;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
    });
    const model = JSON.parse((await get(`${url}api/model`)).body) as { fleet: { name: string } };
    assert.equal(model.fleet.name, 'lab');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    lab.cleanup();
  }
});
