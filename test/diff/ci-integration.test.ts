// The GitHub Action (action.yml) and the pre-commit hooks (.pre-commit-hooks.yaml) as users get
// them: they parse, name only inputs, outputs, commands and flags that exist (each flag checked
// against the command's own --help), and the README's copy-paste examples match them. The
// action's two scripts are run for real with bash: `npx` is a shim that checks the package spec
// and runs this checkout's CLI, `gh` a shim that records the calls, on a git fleet made here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { baseFleet, writeTree } from '../support/fleet-fixture.js';

const ROOT = resolve('.');
const CLI = join(ROOT, 'dist/src/cli/main.js');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Step {
  id: string;
  if?: string;
  shell: string;
  env: Record<string, string>;
  run: string;
}
interface Action {
  name: string;
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}
interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  pass_filenames: boolean;
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

const help = (command: string): string => execFileSync(process.execPath, [CLI, command, '--help'], { encoding: 'utf8' });

/** The `${{ … }}` expressions of a text. */
const expressions = (s: string): string[] => [...s.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1]!);

/** Flags a help text accepts: its usage line and option list (`--from`, `-o`). */
function accepted(helpText: string): Set<string> {
  return new Set([...helpText.matchAll(/(?<![\w-])(--?[a-z][a-z-]*)/g)].map((m) => m[1]!));
}

test('action.yml: a composite action whose steps use only declared inputs, and whose outputs are written by its steps', () => {
  assert.equal(action.runs.using, 'composite');
  const used = new Set<string>();
  for (const step of action.runs.steps) {
    assert.equal(step.shell, 'bash', step.id);
    assert.deepEqual(expressions(step.run), [], `${step.id}: no \${{ }} inside run (inputs go through env)`);
    for (const ex of [...Object.values(step.env).flatMap(expressions), ...(step.if ? [step.if] : [])]) {
      for (const m of ex.matchAll(/\binputs\.([a-z-]+)/g)) used.add(m[1]!);
    }
  }
  assert.deepEqual([...used].sort(), Object.keys(action.inputs).sort(), 'every input used, none undeclared');
  for (const [name, input] of Object.entries(action.inputs)) assert.ok(input.description.length > 10, `${name} is described`);
  const diff = action.runs.steps.find((s) => s.id === 'diff')!;
  for (const [name, output] of Object.entries(action.outputs)) {
    assert.equal(output.value, `\${{ steps.diff.outputs.${name} }}`);
    assert.ok(diff.run.includes(`echo "${name}=`), `the diff step writes ${name}`);
  }
  assert.equal(action.inputs.version!.default, VERSION, 'the action runs the version of its own release');
});

test('action.yml: every fleetplan flag it passes is one `fleetplan diff --help` lists, and the formats exist', () => {
  const diffHelp = help('diff');
  const ok = accepted(diffHelp);
  const run = action.runs.steps.find((s) => s.id === 'diff')!.run;
  const flags = new Set<string>();
  for (const line of run.split('\n')) {
    const args = line.match(/args\+?=\((.*)\)/)?.[1] ?? line.match(/"\$\{args\[@\]\}"(.*?)(>|$)/)?.[1];
    if (args === undefined) continue;
    for (const m of args.matchAll(/(?<![\w-])(--?[a-z][a-z-]*)/g)) flags.add(m[1]!);
  }
  assert.deepEqual([...flags].sort(), ['--exit-code', '--from', '--leaves', '--repo', '--to', '-o']);
  for (const f of flags) assert.ok(ok.has(f), `${f} in diff --help`);
  const formats = [...run.matchAll(/-o (\w+)/g)].map((m) => m[1]!);
  assert.deepEqual(formats, ['markdown', 'html']);
  for (const f of formats) assert.match(diffHelp, new RegExp(`-o ${f}\\b`), `-o ${f} documented`);
  assert.match(run, /npx --yes "fleetplan@\$FP_VERSION" "\$\{args\[@\]\}"/);
});

test('.pre-commit-hooks.yaml: each hook runs a fleetplan command with flags it accepts, on the whole fleet', () => {
  assert.deepEqual(hooks.map((h) => h.id), ['fleetplan-validate', 'fleetplan-diff']);
  const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  for (const h of hooks) {
    const [exe, command, ...flags] = h.entry.split(' ');
    assert.equal(exe, 'fleetplan', 'the command package.json installs');
    assert.ok(bin[exe!], 'package.json bin names it');
    assert.equal(h.language, 'node');
    assert.equal(h.pass_filenames, false, 'the fleet is checked whole');
    const ok = accepted(help(command!));
    for (const f of flags.filter((x) => x.startsWith('-'))) assert.ok(ok.has(f), `${h.id}: ${f} in ${command} --help`);
  }
});

test('README: the workflow and pre-commit examples parse and match action.yml and .pre-commit-hooks.yaml', () => {
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /^(jobs|repos):/m.test(b)).map((b) => parse(b) as Record<string, unknown>);
  const workflow = blocks.find((b) => typeof b.jobs === 'object') as { permissions: Record<string, string>; jobs: Record<string, { steps: { id?: string; uses?: string; with?: Record<string, unknown> }[] }> };
  assert.ok(workflow, 'a workflow example');
  assert.equal(workflow.permissions['pull-requests'], 'write', 'the permission the comment needs');
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const ours = steps.find((s) => s.uses?.endsWith(`/fleetplan@v${VERSION}`));
  assert.ok(ours, `the example uses the action at v${VERSION}`);
  for (const key of Object.keys(ours.with ?? {})) assert.ok(key in action.inputs, `with.${key} is an input`);
  assert.equal(steps.find((s) => s.uses?.startsWith('actions/checkout'))?.with?.['fetch-depth'], 0, 'history for --from');
  for (const s of steps) {
    for (const ex of Object.values(s.with ?? {}).flatMap((v) => expressions(String(v)))) {
      const out = ex.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/);
      if (out) assert.ok(out[1] === ours.id && out[2]! in action.outputs, `${ex} names an output of the action`);
    }
  }
  for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) assert.ok(readme.includes(`\`${name}\``), `README documents ${name}`);
  const config = blocks.find((b) => Array.isArray(b.repos)) as { repos: { rev: string; hooks: { id: string }[] }[] };
  assert.ok(config, 'a .pre-commit-config.yaml example');
  assert.equal(config.repos[0]!.rev, `v${VERSION}`);
  assert.deepEqual(config.repos[0]!.hooks.map((h) => h.id), hooks.map((h) => h.id));
  // Extra hook arguments the README suggests are flags of the hook's command.
  for (const m of readme.matchAll(/`args: \[([^\]]+)\]` on `([\w-]+)`/g)) {
    const hook = hooks.find((h) => h.id === m[2])!;
    assert.ok(hook, `${m[2]} is a hook`);
    const ok = accepted(help(hook.entry.split(' ')[1]!));
    for (const a of m[1]!.split(',').map((x) => x.trim()).filter((x) => x.startsWith('-'))) assert.ok(ok.has(a), `${a} in ${hook.entry} --help`);
  }
  assert.match(readme, /`args: \[--base, HEAD\]` on `fleetplan-validate`/);
});

// --- the action's scripts, run ---

const gitEnv = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, ...gitEnv }, encoding: 'utf8' });

/** A temporary directory with the shims, a runner temp and a committed fleet; `wave` edits it. */
function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-action-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  // npx: the package spec must be `fleetplan@<the action's version>`; then this checkout's CLI.
  writeFileSync(join(bin, 'npx'), `#!/usr/bin/env bash\nset -eu\n[ "$1" = --yes ] || { echo "npx: want --yes first, got $1" >&2; exit 99; }\n[ "$2" = "fleetplan@${VERSION}" ] || { echo "npx: unexpected package $2" >&2; exit 99; }\nshift 2\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  // gh: records its arguments; the comment list answers with $FAKE_GH_ID (an existing comment) or nothing.
  writeFileSync(join(bin, 'gh'), `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> "${join(dir, 'gh.log')}"\nif [[ "$*" == *--paginate* ]]; then printf '%s\\n' "\${FAKE_GH_ID:-}"; fi\n`);
  for (const f of ['npx', 'gh']) chmodSync(join(bin, f), 0o755);
  const repo = writeTree(baseFleet(), join(dir, 'fleet'));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  mkdirSync(join(dir, 'runner-temp'));
  return { dir, bin, repo };
}

/** Runs one step of action.yml with bash as the runner would: its env expressions filled from `inputs` (over the defaults) and `context`. */
function runStep(id: string, sb: ReturnType<typeof sandbox>, inputs: Record<string, string>, context: Record<string, string> = {}, extraEnv: Record<string, string> = {}) {
  const step = action.runs.steps.find((s) => s.id === id)!;
  const values: Record<string, string> = { ...context };
  for (const [k, v] of Object.entries(action.inputs)) values[`inputs.${k}`] = inputs[k] ?? v.default ?? '';
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.env)) {
    env[k] = v.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, ex: string) => {
      assert.ok(ex in values, `${id}: the test gives no value for ${ex}`);
      return values[ex]!;
    });
  }
  const output = join(sb.dir, `output-${id}`);
  const summary = join(sb.dir, 'summary.md');
  writeFileSync(output, '');
  const r = spawnSync('bash', ['-c', step.run], {
    cwd: sb.dir,
    encoding: 'utf8',
    env: { PATH: `${sb.bin}:${resolve('.tools/bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: sb.dir, NO_COLOR: '1', RUNNER_TEMP: join(sb.dir, 'runner-temp'), GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, ...env, ...extraEnv },
  });
  const outputs = Object.fromEntries(readFileSync(output, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, outputs, summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '' };
}

test('action.yml: the diff step runs fleetplan@VERSION, writes the reports and says whether anything changed', () => {
  const sb = sandbox();
  try {
    const same = runStep('diff', sb, { repo: sb.repo, from: 'HEAD' });
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.outputs.changed, 'false');
    assert.equal(same.outputs['html-report'], '');

    writeFileSync(join(sb.repo, 'groups/base/group.yaml'), readFileSync(join(sb.repo, 'groups/base/group.yaml'), 'utf8').replace('wave: 5', 'wave: 7'));
    const r = runStep('diff', sb, { repo: sb.repo, from: 'HEAD', html: 'true', args: '--cluster one' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.outputs.changed, 'true');
    const report = readFileSync(r.outputs.report!, 'utf8');
    assert.match(report, /^### fleetplan diff: t\n/);
    assert.match(report, /operator: wave 5 → 7/);
    assert.equal(r.summary.endsWith(report), true, 'the report is in the job summary');
    assert.match(readFileSync(r.outputs['html-report']!, 'utf8'), /^<!DOCTYPE html>[\s\S]*id="cluster-one"/);

    const bad = runStep('diff', sb, { repo: sb.repo, from: 'no-such-revision' });
    assert.equal(bad.code, 2, 'an error fails the step');
    assert.match(bad.stdout, /::error::fleetplan diff failed \(exit 2\)/);
  } finally {
    rmSync(sb.dir, { recursive: true, force: true });
  }
});

test('action.yml: the comment step posts the report, or updates the comment it posted before', () => {
  const sb = sandbox();
  try {
    const report = join(sb.dir, 'report.md');
    writeFileSync(report, '### fleetplan diff: t\n\nbody\n');
    const context = { 'github.repository': 'o/r', 'github.event.pull_request.number': '7', 'steps.diff.outputs.report': report };
    const post = runStep('comment', sb, { 'github-token': 'x' }, context);
    assert.equal(post.code, 0, post.stderr);
    const update = runStep('comment', sb, { 'github-token': 'x' }, context, { FAKE_GH_ID: '42' });
    assert.equal(update.code, 0, update.stderr);
    const calls = readFileSync(join(sb.dir, 'gh.log'), 'utf8').trim().split('\n');
    assert.equal(calls.length, 4);
    assert.match(calls[0]!, /^api --paginate repos\/o\/r\/issues\/7\/comments --jq /);
    assert.equal(calls[1], `api --method POST repos/o/r/issues/7/comments -F body=@${report} --jq .html_url`);
    assert.equal(calls[3], `api --method PATCH repos/o/r/issues/comments/42 -F body=@${report} --jq .html_url`);
  } finally {
    rmSync(sb.dir, { recursive: true, force: true });
  }
});

test('action.yml: the comment lookup (jq) picks the bot comment whose first line is the report\'s heading', { skip: spawnSync('jq', ['--version']).status === 0 ? false : 'jq not installed' }, () => {
  const run = action.runs.steps.find((s) => s.id === 'comment')!.run;
  const filter = run.match(/--jq '([^']+)'/)![1]!;
  const comments = [
    { id: 1, user: { type: 'User' }, body: '### fleetplan diff: t\n\nquoted by a person' },
    { id: 2, user: { type: 'Bot' }, body: '### fleetplan diff: other\n' },
    { id: 3, user: { type: 'Bot' }, body: null },
    { id: 4, user: { type: 'Bot' }, body: '### fleetplan diff: t\n\nold report' },
    { id: 5, user: { type: 'Bot' }, body: '### fleetplan diff: t\n\nolder duplicate' },
  ];
  const pick = (heading: string) => spawnSync('jq', ['-r', filter], { input: JSON.stringify(comments), encoding: 'utf8', env: { ...process.env, FP_HEADING: heading } }).stdout.trim();
  assert.equal(pick('### fleetplan diff: t'), '4');
  assert.equal(pick('### fleetplan diff: other'), '2');
  assert.equal(pick('### fleetplan diff: none'), '');
});
