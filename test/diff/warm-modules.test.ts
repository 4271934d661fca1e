/**
 * What `fleetplan diff` loads when the records of both revisions answer
 * (docs/adr/0314-diff-warm-path.md): none of the stages that load, resolve, render or validate a
 * fleet, no layout reader and no YAML parser — only the diff stage, the records and git. The CLI
 * runs as a child process with a module hook that logs every module it loads (as
 * test/cli/lazy-loading.test.ts does); the test asserts names and a budget, never a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTree, writeTree } from '../support/fleet-fixture.js';
import { git } from '../support/git.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SRC = new URL('../../src/', import.meta.url).href;

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.FLEETPLAN_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** `fleetplan ARGS`: its stdout and the modules it loaded (src-relative for fleetplan's own, URLs for the rest); `env` added to the process's. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-diff-modules-'));
  try {
    const log = join(dir, 'modules.log');
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, MAIN, ...args], {
      encoding: 'utf8',
      env: { ...process.env, FLEETPLAN_TEST_MODULE_LOG: log, NO_COLOR: '1', ...env },
      cwd: dir,
    });
    const modules = readFileSync(log, 'utf8')
      .split('\n')
      .filter((u) => u !== '' && !u.startsWith('data:'))
      .map((u) => (u.startsWith(SRC) ? u.slice(SRC.length) : u));
    return { code: r.status, stdout: r.stdout, stderr: r.stderr, modules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The stages a diff answered from records must not load (layering/selector.js is the selector syntax of the kernel). */
const STAGES = /^(?:(?:load|generate|order|render|validate|layouts|apply|promote|appset|gotemplate)\/|layering\/(?!selector\.js$)|api\/(?:fleet|plan|render|leaves|diff-sides|diff-inputs)\.js$|index\.js$)/;
/**
 * The CLI, the kernel, the diff stage, records and git adapters, and Node's built-in modules they
 * import: 43 today (44 before the build cache, the output writer and the git tree reader were
 * left out, docs/adr/0396-diff-warm-path-fixed-cost.md; then two more for the helmfile release
 * entries' notes and redaction and the releases' names, diff/helmfile.js and model/release-app.js,
 * docs/adr/0395-diff-helmfile-releases.md).
 */
const WARM_BUDGET = 43;

function fleetRepo(): string {
  const dir = writeTree({
    'fleet.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: t\nspec:\n  repoURL: https://git.example.com/fleet.git\n  revision: main\n',
    'README.md': 'the fleet\n',
    'groups/base/group.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n    config:\n      path: components/config\n      namespace: op\n',
    'clusters/one/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  groups: [base]\n',
    'clusters/two/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: two\nspec:\n  groups: [base]\n',
    'components/config/kustomization.yaml': 'resources: [cm.yaml]\n',
    'components/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\ndata:\n  mode: a\n',
  });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  git(dir, 'checkout', '-q', '-b', 'change');
  writeTree({ 'README.md': 'the fleet, edited\n', 'components/config/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\ndata:\n  mode: b\n' }, dir);
  git(dir, 'commit', '-q', '-am', 'change');
  return dir;
}

test('diff answered from the records of both revisions loads no stage, no layout and no YAML parser', () => {
  const repo = fleetRepo();
  const cache = mkdtempSync(join(tmpdir(), 'fleetplan-diff-modules-cache-'));
  try {
    const args = ['diff', '--repo', repo, '--from', 'main', '--to', 'change', '-o', 'json', '--cache-dir', cache];
    const cold = run(args);
    assert.equal(cold.code, 0, cold.stderr);
    // The first run reads both revisions: it loads the stages (the check below can fail).
    assert.ok(cold.modules.some((m) => STAGES.test(m)), cold.modules.join('\n'));
    const warm = run(args);
    assert.equal(warm.code, 0, warm.stderr);
    assert.equal(warm.stdout, cold.stdout, 'the same report');
    assert.deepEqual(warm.modules.filter((m) => STAGES.test(m)), []);
    assert.deepEqual(warm.modules.filter((m) => m.includes('/node_modules/')), [], 'no package (js-yaml, yaml, re2js)');
    assert.ok(warm.modules.includes('api/diff.js') && warm.modules.includes('adapters/diff-records.js'));
    assert.ok(warm.modules.length <= WARM_BUDGET, `${warm.modules.length} modules:\n${warm.modules.join('\n')}`);
    // Only `-o html` prints the HTML report; only a revision read from git's objects or loaded needs their file systems (docs/adr/0354).
    assert.deepEqual(warm.modules.filter((m) => /^(diff\/html|diff\/index|adapters\/git-tree-fs|adapters\/node-fs|model\/fleet)\.js$/.test(m)), []);
    // Only the default cache directory's name is needed, not the build cache; only the origin, not the git tree reader (docs/adr/0396).
    assert.deepEqual(warm.modules.filter((m) => /^adapters\/(build-cache|output|fs|git|process)\.js$/.test(m) || m === 'node:fs/promises'), []);
    const html = run([...args.slice(0, -4), '-o', 'html', '--cache-dir', cache]);
    assert.equal(html.code, 0, html.stderr);
    assert.match(html.stdout, /^<!DOCTYPE html>/i);
    assert.ok(html.modules.includes('diff/html.js'), 'the HTML report loads its module when asked for');
  } finally {
    removeTree(repo);
    rmSync(cache, { recursive: true, force: true });
  }
});

test('diff answered from records runs seven git processes: the top, the revisions named, the origin (three), the trees and what differs', () => {
  const repo = fleetRepo();
  const cache = mkdtempSync(join(tmpdir(), 'fleetplan-diff-spawns-cache-'));
  const bin = mkdtempSync(join(tmpdir(), 'fleetplan-diff-spawns-bin-'));
  try {
    // A git first on the PATH that logs each command and runs the real one (the origin's commands get only PATH and a few more variables: the log's name is written in).
    const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    const log = join(bin, 'git.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const args = ['diff', '--repo', repo, '--from', 'main', '--to', 'change', '-o', 'json', '--cache-dir', cache];
    const cold = run(args);
    assert.equal(cold.code, 0, cold.stderr);
    const warm = run(args, { PATH: `${bin}:${process.env.PATH ?? ''}` });
    assert.equal(warm.code, 0, warm.stderr);
    assert.equal(warm.stdout, cold.stdout, 'the same report');
    // Each command by its first two words after `-C DIR` (the diff by its name: it starts with `-c` settings).
    const commands = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.replace(/^-C \S+ /, ''))
      .map((l) => (l.startsWith('-c ') ? 'diff' : l.split(' ').slice(0, 2).join(' ')));
    // Before docs/adr/0396, each revision and each tree was its own rev-parse: nine processes.
    assert.deepEqual(commands, ['rev-parse --show-toplevel', 'cat-file --batch-check=%(objectname)', 'rev-parse --is-inside-work-tree', 'config --get', 'symbolic-ref --quiet', 'cat-file --batch-check=%(objectname)', 'diff']);
  } finally {
    removeTree(repo);
    rmSync(cache, { recursive: true, force: true });
    rmSync(bin, { recursive: true, force: true });
  }
});
