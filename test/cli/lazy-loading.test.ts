/**
 * What each command line loads (docs/adr/0288-lazy-command-line.md): the cheap commands — help,
 * version, completion, did-you-mean — load the command specs and the library's kernel, never a
 * stage; a command loads its own stages only. The CLI runs as a child process with a module hook
 * (node:module register) that records every module URL it loads; the test asserts names and a
 * budget, never a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS } from '../../src/entry/schema.js';
import { commands } from '../../src/cli/commands/index.js';
import { removeTree } from '../support/fleet-fixture.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SRC = new URL('../../src/', import.meta.url).href;
const LAB = resolve(fileURLToPath(new URL('../../../examples/lab', import.meta.url)));

// The hooks run on the loader thread: each load appends its URL to the file named by the variable.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.FLEETPLAN_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
// CommonJS modules (the \`yaml\` package, re2js's require build) do not pass the load hook: the
// ones in require's cache are appended to the log when the process exits.
const REGISTER = `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});
const cache = createRequire(${JSON.stringify(MAIN)}).cache;
process.on('exit', () => appendFileSync(process.env.FLEETPLAN_TEST_MODULE_LOG, Object.keys(cache).map((f) => 'file://' + f + '\\n').join('')));`;

/** The modules `fleetplan ARGS` loads: src-relative paths for fleetplan's own, URLs for the rest. */
function modulesOf(args: string[]): { code: number | null; modules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-modules-'));
  try {
    const log = join(dir, 'modules.log');
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, MAIN, ...args], {
      encoding: 'utf8',
      env: { ...process.env, FLEETPLAN_TEST_MODULE_LOG: log, NO_COLOR: '1' },
      cwd: dir,
    });
    assert.doesNotMatch(r.stderr, /internal error|ERR_/, `fleetplan ${args.join(' ')}: ${r.stderr}`);
    const modules = readFileSync(log, 'utf8')
      .split('\n')
      .filter((u) => u !== '' && !u.startsWith('data:'))
      .map((u) => (u.startsWith(SRC) ? u.slice(SRC.length) : u));
    return { code: r.status, modules };
  } finally {
    removeTree(dir);
  }
}

/**
 * fleetplan's stage folders and the composition root: what a cheap command must not load. The one
 * exception is layering/selector.js, the selector syntax that help prints (no imports but errors).
 */
const HEAVY = /^(?:(?:load|generate|order|render|validate|diff|layouts|apply|promote|api|appset|gotemplate)\/|layering\/(?!selector\.js$))/;
/** The command specs, the CLI's own helpers, the kernel entry and a few adapters: 14–36 modules today (ADR 0376). */
const CHEAP_BUDGET = 40;

const cheap: string[][] = [['--help'], ['help', 'plan'], ['plan', '--help'], ['version', '-o', 'json'], ['--version'], ['completion', 'bash'], ['paln'], ['__complete', 'pl'], ['__complete', 'plan', '-o', '']];

for (const args of cheap) {
  test(`fleetplan ${args.join(' ')} loads no stage, no YAML parser and at most ${CHEAP_BUDGET} modules`, () => {
    const { modules } = modulesOf(args);
    assert.deepEqual(modules.filter((m) => HEAVY.test(m)), []);
    assert.deepEqual(modules.filter((m) => m.includes('/node_modules/')), [], 'no package (js-yaml, yaml, re2js, @kubernetes/client-node)');
    assert.ok(!modules.includes('index.js'), 'src/index.ts evaluates every stage');
    assert.ok(modules.length <= CHEAP_BUDGET, `${modules.length} modules:\n${modules.join('\n')}`);
  });
}

for (const args of [['plan', '--repo', LAB, '-o', 'json'], ['render', '--repo', LAB], ['schema', 'Cluster']]) {
  test(`fleetplan ${args[0]} loads its own command spec only, no help and no completion (ADR 0376)`, () => {
    // The registry (commands/table.js) imports a spec when its command runs; help, completion and
    // the list of every spec (commands/index.js) are for the lines that ask for them.
    const { code, modules } = modulesOf(args);
    assert.equal(code, 0);
    assert.deepEqual(modules.filter((m) => m.startsWith('cli/commands/')), ['cli/commands/table.js', `cli/commands/${args[0]}.js`]);
    assert.deepEqual(modules.filter((m) => /^cli\/(help|completion|completion-scripts)\.js$/.test(m)), []);
  });
}

test('a mistyped command loads no command spec to suggest one', () => {
  const { code, modules } = modulesOf(['paln']);
  assert.equal(code, 2);
  assert.deepEqual(modules.filter((m) => m.startsWith('cli/commands/')), ['cli/commands/table.js']);
});

test('completing a cluster name loads the fleet stages (and only then)', () => {
  const { modules } = modulesOf(['__complete', 'plan', '--repo', LAB, '--cluster', '']);
  assert.ok(modules.includes('entry/fleet.js'));
  assert.ok(modules.some((m) => m.startsWith('layouts/')));
});

test('plan loads the fleet stages but not diff, apply, promote, serve or src/index.ts', () => {
  const { code, modules } = modulesOf(['plan', '--repo', LAB, '-o', 'json']);
  assert.equal(code, 0);
  assert.ok(modules.includes('cli/actions/plan.js'));
  const foreign = modules.filter((m) => /^(diff|apply|promote|api\/serve|api\/diff|cli\/actions\/(?!plan\.js))/.test(m) || m === 'index.js');
  assert.deepEqual(foreign, []);
});

for (const args of [['plan', '-o', 'json'], ['plan'], ['render']]) {
  test(`${args.join(' ')} loads neither the validate stage nor its rules (ADR 0351)`, () => {
    // plan and render read, resolve and order a fleet; the rules of `validate` (and their Argo CD
    // schema) are validate's own, and loading them cost every run before its first file was read.
    const { code, modules } = modulesOf([...args, '--repo', LAB]);
    assert.equal(code, 0);
    assert.ok(modules.includes('entry/fleet-plan.js'));
    // validate/context.js (placing a finding) is imported by the layouts' own rules, which the layout readers carry.
    assert.deepEqual(modules.filter((m) => (m.startsWith('validate/') && m !== 'validate/context.js') || m === 'api/fleet.js' || m === 'entry/fleet.js'), []);
  });
}

for (const args of [['plan', '-o', 'json'], ['render']]) {
  test(`${args.join(' ')} of a native fleet loads no other layout's reader and no ApplicationSet engine (ADR 0397)`, () => {
    // The layout of a repository with fleet.yaml is chosen among the layouts as they answer there
    // (layouts/native-choice.js); the ApplicationSet engine is for fleets that deliver through it.
    const { code, modules } = modulesOf([...args, '--repo', LAB]);
    assert.equal(code, 0);
    assert.ok(modules.includes('layouts/native-choice.js'));
    assert.deepEqual(modules.filter((m) => m.startsWith('layouts/') && !/^layouts\/(choose|native-choice|region-specs\/reader|rosa-regional\/(reader|entry|config-dir))\.js$/.test(m)), []);
    assert.deepEqual(modules.filter((m) => /^(appset\/(applications|go-engine|repo-server)|gotemplate\/index|entry\/appset)\.js$/.test(m)), []);
  });
}

test('a repository without fleet.yaml loads the layout readers (the check above can fail)', () => {
  const { modules } = modulesOf(['plan', '-o', 'json', '--repo', fileURLToPath(new URL('../../../test/fixtures/region-specs', import.meta.url))]);
  assert.ok(modules.includes('layouts/index.js'));
  assert.ok(modules.includes('layouts/argocd/reader.js'));
});

/** The packages among the modules: `yaml`, `re2js`, `js-yaml`. */
const packagesOf = (modules: readonly string[]): string[] => [...new Set(modules.flatMap((m) => /\/node_modules\/([^/]+)\//.exec(m)?.[1] ?? []))].sort();

for (const args of [['plan', '-o', 'json'], ['render']]) {
  test(`${args.join(' ')} of a fleet with no finding to place loads neither the yaml package nor re2js (ADR 0376)`, () => {
    // The yaml package is for positions, documents with errors and edits, re2js for a template's
    // regexp function: the lab asks for neither, so only js-yaml is read.
    const { code, modules } = modulesOf([...args, '--repo', LAB]);
    assert.equal(code, 0);
    assert.deepEqual(packagesOf(modules), ['js-yaml']);
  });
}

test('the module log sees the CommonJS packages a command requires (the check can fail)', () => {
  // An ApplicationSet file is read with the yaml package (each field's line for its messages).
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-appset-'));
  try {
    const file = join(dir, 'appset.yaml');
    writeFileSync(file, 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: one\nspec:\n  generators:\n    - list:\n        elements:\n          - name: a\n  template:\n    metadata:\n      name: \'{{name}}\'\n    spec:\n      project: default\n');
    const { code, modules } = modulesOf(['appset', file]);
    assert.equal(code, 0);
    assert.ok(packagesOf(modules).includes('yaml'), modules.join('\n'));
  } finally {
    removeTree(dir);
  }
});

test('the schema command spec offers the kinds the library has schemas for', () => {
  const schema = commands.find((c) => c.name === 'schema')!;
  assert.deepEqual(schema.complete?.positionals?.[0], KINDS);
});

test('the module log sees what a command loads (the check can fail)', () => {
  const { modules } = modulesOf(['schema', 'Cluster']);
  assert.ok(modules.includes('load/schemas.js'), modules.join('\n'));
});

test("V8's tier-up budget is raised before the command line loads (docs/adr/0391)", () => {
  // A static import of run.js would load and evaluate the whole command line before main.js's body
  // raised the budget: the functions compiled meanwhile would keep V8's default.
  assert.doesNotMatch(readFileSync(MAIN, 'utf8'), /^import[^;]*'\.\/run\.js'/m);
  const { modules } = modulesOf(['--help']);
  const budget = modules.indexOf('adapters/tier-up.js');
  assert.ok(budget >= 0, 'main.js loads the tier-up adapter');
  assert.ok(budget < modules.indexOf('cli/run.js'), `tier-up before run.js: ${modules.slice(0, 6).join(', ')}`);
});

/** The leaf builds' modules: the pipeline, its adapters (processes, caches, fetchers) and the entry that carries them. */
const LEAF_MODULES = /^(render\/leaves\/|api\/leaves\.js$|entry\/render-leaves\.js$|adapters\/(build-cache|chart-fetch|oci-artifact|source-reader|leaf-objects)\.js$)/;

test('render --out without --leaves loads none of the leaf builds\' modules (ADR 0417)', () => {
  // They were loaded before the first cluster file was read, while the writer thread idled.
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-out-'));
  try {
    const { code, modules } = modulesOf(['render', '--repo', LAB, '--out', join(out, 'tree')]);
    assert.equal(code, 0);
    assert.ok(modules.includes('api/render.js'));
    assert.deepEqual(modules.filter((m) => LEAF_MODULES.test(m)), []);
  } finally {
    removeTree(out);
  }
});

test('render --out --leaves loads them (the check above can fail)', () => {
  // No kustomize is found here or the builds fail: what counts is what was imported before.
  const out = mkdtempSync(join(tmpdir(), 'fleetplan-out-'));
  try {
    const { modules } = modulesOf(['render', '--repo', LAB, '--out', join(out, 'tree'), '--leaves', '--kustomize', join(out, 'no-kustomize')]);
    for (const m of ['entry/render-leaves.js', 'api/leaves.js', 'render/leaves/jobs.js', 'render/leaves/index.js']) assert.ok(modules.includes(m), `${m} not loaded:\n${modules.join('\n')}`);
  } finally {
    removeTree(out);
  }
});
