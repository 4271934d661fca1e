/**
 * startLeafTools (ADR 0332): kustomize's version check runs from the start of `render --leaves`,
 * and renderLeaves uses that lookup instead of running its own, only for the same options.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LeafJob } from '../../src/render/leaves/index.js';
import { renderLeaves, startLeafTools } from '../../src/api/leaves.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

function sandbox(): { dir: string; repo: string; wrapper: string; log: string; env: Record<string, string>; jobs: LeafJob[] } {
  const { kubectl } = requireTools();
  const dir = tempDir('fleetplan-tools-start-');
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'app'), { recursive: true });
  writeFileSync(join(repo, 'app', 'kustomization.yaml'), 'resources:\n  - cm.yaml\n');
  writeFileSync(join(repo, 'app', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  cluster: ${CLUSTER}\n');
  const log = join(dir, 'calls.log');
  // A kubectl that writes down each command it is asked for, then is the real one.
  const wrapper = join(dir, 'kubectl');
  writeFileSync(wrapper, `#!/bin/sh\necho "$1" >> '${log}'\nexec '${kubectl}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const jobs: LeafJob[] = ['a', 'b'].map((cluster) => ({ cluster, app: 'app', source: { kind: 'kustomize', path: 'app' }, variables: { CLUSTER: cluster } }));
  return { dir, repo, wrapper, log, env: toolEnv(join(dir, 'home')), jobs };
}

const calls = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

test('startLeafTools runs the version check at once, and renderLeaves with the same options uses it instead of its own', async () => {
  const sb = sandbox();
  try {
    const tools = startLeafTools({ kustomize: sb.wrapper, env: sb.env, cwd: sb.repo, bundledDir: false });
    await tools.kustomize;
    assert.deepEqual(calls(sb.log), ['version']);
    const run = await renderLeaves(sb.jobs, { repoRoot: sb.repo, cwd: sb.repo, kustomize: sb.wrapper, env: sb.env, cacheDir: false, bundledDir: false, tools, outDir: join(sb.dir, 'out') });
    assert.deepEqual(run.results.map((r) => r.error?.message), [undefined, undefined]);
    assert.deepEqual(calls(sb.log), ['version', 'kustomize']);
    assert.equal(readFileSync(join(sb.dir, 'out', 'b', 'manifests', 'app', '01-configmap-cm.yaml'), 'utf8'), 'apiVersion: v1\ndata:\n  cluster: b\nkind: ConfigMap\nmetadata:\n  name: cm\n');
  } finally {
    removeDir(sb.dir);
  }
});

test('renderLeaves looks for kustomize itself when the started lookup was for other options', async () => {
  const sb = sandbox();
  try {
    const tools = startLeafTools({ kustomize: sb.wrapper, env: sb.env, cwd: sb.repo, bundledDir: false, fetch: true });
    await tools.kustomize;
    const run = await renderLeaves(sb.jobs, { repoRoot: sb.repo, cwd: sb.repo, kustomize: sb.wrapper, env: sb.env, cacheDir: false, bundledDir: false, tools });
    assert.deepEqual(run.results.map((r) => r.error?.message), [undefined, undefined]);
    // Offline builds need their own tool (its environment keeps them offline): a second check.
    assert.deepEqual(calls(sb.log), ['version', 'version', 'kustomize']);
  } finally {
    removeDir(sb.dir);
  }
});

test('a started lookup that fails is reported on the jobs that need the tool, not as an unhandled rejection', async () => {
  const sb = sandbox();
  try {
    const missing = join(sb.dir, 'no-such-kubectl');
    const tools = startLeafTools({ kustomize: missing, env: sb.env, cwd: sb.repo, bundledDir: false });
    await new Promise((r) => setTimeout(r, 50));
    const run = await renderLeaves(sb.jobs, { repoRoot: sb.repo, cwd: sb.repo, kustomize: missing, env: sb.env, cacheDir: false, bundledDir: false, tools });
    for (const r of run.results) assert.match(r.error?.message ?? '', /kustomize/);
  } finally {
    removeDir(sb.dir);
  }
});
