/**
 * The hostile-input suite of issue #13 (docs/adr/0210, 0211, 0216, 0258): a table of inputs ×
 * commands. Every run is a child process under 10 s and 1 GiB (limited-cli.ts) and must: exit 1 or
 * 2 (or, for an input Go answers at once, give Go's answer), name the file, print no stack trace,
 * read nothing outside the repository (the outside directory's marker never shows), and write or
 * remove nothing outside --out (the outside directory and the repository's parent are unchanged).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseFleet, writeTree } from '../support/fleet-fixture.js';
import { assertWithinLimits, runLimited } from './limited-cli.js';
import { TEMPLATE_LIMITS } from '../../src/gotemplate/limits.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-hostile-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => {
  const d = join(tmp, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** A marker only files outside the repository hold: it must never show up in any output. */
const MARKER = 'outside-marker-7f3a';

function outsideDir(): string {
  return writeTree(
    {
      'kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'cm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${MARKER}\n`,
      'cluster.yaml': `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${MARKER}\nspec:\n  role: hub\n  sector: canary\n`,
      'group.yaml': `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n    ${MARKER}:\n      path: components/operator\n      namespace: op\n`,
    },
    fresh('outside'),
  );
}

/** Every file under `dir` (relative path → content), links not followed, FIFOs and the like listed but not read. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath ?? e.path, e.name);
    if (e.isFile()) out[p.slice(dir.length + 1)] = readFileSync(p, 'utf8').slice(0, 4096);
  }
  return out;
}

const CLUSTER = 'clusters/one/cluster.yaml';
const GROUP = 'groups/base/group.yaml';

/** A YAML file whose aliases expand to 9^9 strings (billion laughs). */
function yamlBomb(head: string, field: string): string {
  let s = `${head}x-bomb:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n`;
  for (let i = 1; i < 10; i++) s += `  a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]\n`;
  return `${s}${field}: *a9\n`;
}

/** One ~200 MB YAML file for the whole suite, hard-linked into each repository (a link of the same file, not a symlink). */
let huge: string | undefined;
function hugeYaml(): string {
  if (huge) return huge;
  huge = join(tmp, 'huge.yaml');
  const fd = openSync(huge, 'w');
  writeSync(fd, 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  labels:\n');
  const chunk = Array.from({ length: 10_000 }, (_, i) => `    key-${i}: value-${i}\n`).join('');
  for (let written = 0; written < 200 * 1024 * 1024; written += Buffer.byteLength(chunk)) writeSync(fd, chunk);
  closeSync(fd);
  return huge;
}

const replace = (r: string, file: string, make: (abs: string) => void) => {
  rmSync(join(r, file), { recursive: true, force: true });
  make(join(r, file));
};

// ---------------------------------------------------------------------------------------------
// A fleetplan repository with one hostile file; commands: plan, validate, render, render --out,
// and appset (an ApplicationSet of clusters from this fleet).

interface FleetInput {
  name: string;
  /** The file every message must name. */
  file: string;
  make: (repo: string, outside: string) => void;
}

const fleetInputs: FleetInput[] = [
  { name: 'cluster.yaml → /etc/passwd', file: 'clusters/evil/cluster.yaml', make: (r) => (mkdirSync(join(r, 'clusters/evil')), symlinkSync('/etc/passwd', join(r, 'clusters/evil/cluster.yaml'))) },
  { name: 'cluster.yaml → a Cluster outside', file: CLUSTER, make: (r, o) => replace(r, CLUSTER, (p) => symlinkSync(join(o, 'cluster.yaml'), p)) },
  { name: 'group.yaml → ../../../outside (relative)', file: GROUP, make: (r, o) => replace(r, GROUP, (p) => symlinkSync(join('..', '..', '..', '..', o.split('/').pop()!, 'group.yaml'), p)) },
  { name: 'clusters directory → outside', file: 'clusters', make: (r, o) => (rmSync(join(r, 'clusters'), { recursive: true }), mkdirSync(join(o, 'one')), cpSync(join(o, 'cluster.yaml'), join(o, 'one/cluster.yaml')), symlinkSync(o, join(r, 'clusters'))) },
  { name: 'component directory → outside', file: 'components/operator', make: (r, o) => replace(r, 'components/operator', (p) => symlinkSync(o, p)) },
  { name: 'cluster.yaml is a FIFO', file: CLUSTER, make: (r) => replace(r, CLUSTER, (p) => spawnSync('mkfifo', [p])) },
  { name: 'fleet.yaml is a FIFO', file: 'fleet.yaml', make: (r) => replace(r, 'fleet.yaml', (p) => spawnSync('mkfifo', [p])) },
  { name: 'cluster.yaml is a directory', file: CLUSTER, make: (r) => replace(r, CLUSTER, (p) => mkdirSync(p)) },
  {
    name: 'cluster.yaml is a YAML bomb (billion laughs)',
    file: CLUSTER,
    make: (r) => writeFileSync(join(r, CLUSTER), yamlBomb('apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\n', 'spec')),
  },
  { name: 'group.yaml is a YAML bomb (billion laughs)', file: GROUP, make: (r) => writeFileSync(join(r, GROUP), yamlBomb('apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\n', 'spec')) },
  { name: 'cluster.yaml is 200 MB of YAML', file: CLUSTER, make: (r) => replace(r, CLUSTER, (p) => linkSync(hugeYaml(), p)) },
  {
    name: 'cluster.yaml nests 100,000 flow sequences',
    file: CLUSTER,
    make: (r) => writeFileSync(join(r, CLUSTER), `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  sector: canary\n  labels: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`),
  },
  {
    name: 'group.yaml nests 20,000 block mappings',
    file: GROUP,
    make: (r) => writeFileSync(join(r, GROUP), `apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n${Array.from({ length: 20_000 }, (_, i) => `${' '.repeat(2 + i)}k:`).join('\n')} x\n`),
  },
  { name: 'cluster.yaml is a symlink to itself (a loop)', file: CLUSTER, make: (r) => replace(r, CLUSTER, (p) => symlinkSync('cluster.yaml', p)) },
  { name: 'a cluster directory is a symlink loop', file: 'clusters/two', make: (r) => (symlinkSync('three', join(r, 'clusters/two')), symlinkSync('two', join(r, 'clusters/three'))) },
];

/** An ApplicationSet for `appset … --clusters fleet`, kept outside the repository's parent. */
const benignAppSet = writeTree({
  'appset.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: per-cluster
spec:
  goTemplate: true
  generators:
    - clusters: {}
  template:
    metadata:
      name: '{{ .name }}-x'
    spec:
      project: default
      source: {repoURL: https://git.example.com/x.git, path: x}
      destination: {server: '{{ .server }}', namespace: x}
`,
});
after(() => rmSync(benignAppSet, { recursive: true, force: true }));

const fleetCommands: string[][] = [['plan'], ['validate'], ['render'], ['render', '--out'], ['appset', join(benignAppSet, 'appset.yaml'), '--clusters', 'fleet']];

for (const h of fleetInputs) {
  test(`hostile input: ${h.name} — plan, validate, render, render --out, appset --clusters fleet`, async () => {
    for (const cmd of fleetCommands) {
      const parent = fresh('h');
      const outside = outsideDir();
      const repo = writeTree(baseFleet(), join(parent, 'repo'));
      h.make(repo, outside);
      const outsideBefore = files(outside);
      const out = join(parent, 'out');
      const args = cmd[1] === '--out' ? [...cmd, out] : cmd;
      const what = `${h.name}, ${cmd[0]}${cmd[1] === '--out' ? ' --out' : ''}`;
      const r = await runLimited([...args, '--repo', repo]);
      assertWithinLimits(r, what);
      assert.ok(r.code === 1 || r.code === 2, `${what}: exit ${r.code}\n${r.stdout.slice(0, 2000)}\n${r.stderr}`);
      assert.ok((r.stdout + r.stderr).includes(h.file), `${what}: names ${h.file}\n${r.stdout.slice(0, 2000)}\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${what}: no stack trace\n${r.stderr}`);
      assert.ok(!r.stdout.includes(MARKER) && !r.stderr.includes(`name: ${MARKER}`), `${what}: nothing read outside the repository`);
      assert.deepEqual(files(outside), outsideBefore, `${what}: nothing written or removed outside`);
      assert.deepEqual(files(out), {}, `${what}: nothing rendered`);
      assert.deepEqual(readdirSync(parent).sort(), ['repo'], `${what}: nothing made beside the repository`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// An Argo CD repository (the argocd layout) whose ApplicationSet is hostile; commands: plan,
// validate, render, render --out (the layout runs the ApplicationSet) and appset FILE.

interface AppSetInput {
  name: string;
  /** `metadata.name` of the template, and extra generators. */
  template: string;
  generators?: string;
  /** When Go answers at once, the Application name it gives (the run must succeed with it). */
  goAnswer?: string;
  /** Text the error must hold (the limit or the rule), besides the file. */
  says?: RegExp;
}

const LIST = '    - list:\n        elements:\n          - name: x\n';
const big = (key: string) => `          - list:\n              elements:\n${Array.from({ length: 1000 }, (_, i) => `                - ${key}: '${i}'`).join('\n')}\n`;

const appSetInputs: AppSetInput[] = [
  // RE2 answers at once where a backtracking matcher runs for hours; the name must be Go's.
  { name: 'a catastrophic regex in the template', template: `{{ if regexMatch "^(a+)+$" "${'a'.repeat(45)}!" }}slow{{ else }}linear{{ end }}`, goAnswer: 'linear' },
  { name: 'a catastrophic regex over generated parameters', template: `{{ regexReplaceAll "(x+x+)+y" (repeat 5000 .name) "z" | trunc 5 }}`, goAnswer: 'xxxxx' },
  // sprig's regexMatch drops the compile error (false), as Go does; mustRegexMatch reports it.
  { name: 'a regex RE2 refuses (backreference), regexMatch', template: '{{ if regexMatch "(a)\\\\1" .name }}a{{ else }}b{{ end }}', goAnswer: 'b' },
  { name: 'a regex RE2 refuses (backreference), mustRegexMatch', template: '{{ if mustRegexMatch "(a)\\\\1" .name }}a{{ else }}b{{ end }}', says: /invalid escape sequence/ },
  { name: 'a {{ range }} bomb', template: '{{ range 1000000000 }}x{{ end }}', says: new RegExp(`limit of ${TEMPLATE_LIMITS.maxRangeIterations} range iterations`) },
  { name: 'nested {{ range }}s over until', template: '{{ range until 100000 }}{{ range until 100000 }}x{{ end }}{{ end }}', says: /limit/ },
  { name: 'an output bomb (a range of long writes)', template: `{{ range 1000000 }}${'x'.repeat(100)}{{ end }}`, says: /limit/ },
  { name: 'an output bomb (repeat)', template: '{{ repeat 1000000000 "x" }}', says: /limit/ },
  { name: '20,000 nested {{ if }}s', template: `${'{{ if true }}'.repeat(20_000)}x${'{{ end }}'.repeat(20_000)}`, says: /depth|limit/ },
  { name: 'a 1000 × 1000 matrix', template: 'x-{{ .a }}-{{ .b }}', generators: `    - matrix:\n        generators:\n${big('a')}${big('b')}`, says: /limit/ },
];

function appSetFile(h: AppSetInput): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: hostile
  namespace: argocd
spec:
  goTemplate: true
  generators:
${h.generators ?? LIST}  template:
    metadata:
      name: '${h.template}'
    spec:
      project: default
      source: {repoURL: https://github.com/acme/platform, targetRevision: main, path: apps}
      destination: {server: https://kubernetes.default.svc, namespace: x}
`;
}

const APPSET = 'gitops/appset.yaml';
const appSetCommands: string[][] = [['plan'], ['validate'], ['render'], ['render', '--out'], ['appset', APPSET]];

for (const h of appSetInputs) {
  test(`hostile ApplicationSet: ${h.name} — plan, validate, render, render --out, appset`, async () => {
    for (const cmd of appSetCommands) {
      const parent = fresh('a');
      const repo = writeTree({ [APPSET]: appSetFile(h), 'apps/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n' }, join(parent, 'repo'));
      execFileSync('git', ['-C', repo, 'init', '-q', '-b', 'main']);
      execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://github.com/acme/platform.git']);
      const out = join(parent, 'out');
      const args = cmd[0] === 'appset' ? ['appset', join(repo, APPSET)] : cmd[1] === '--out' ? [...cmd, out] : cmd;
      const what = `${h.name}, ${cmd.join(' ')}`;
      const r = await runLimited([...args, '--repo', repo]);
      assertWithinLimits(r, what);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${what}: no stack trace\n${r.stderr}`);
      if (h.goAnswer !== undefined) {
        // Go's answer, where the command shows Applications.
        assert.equal(r.code, 0, `${what}: exit ${r.code}\n${r.stderr}`);
        if (cmd[0] === 'appset') assert.match(r.stdout, new RegExp(`name: ${h.goAnswer}\\b`), `${what}: Go's answer\n${r.stdout}`);
        if (cmd[0] === 'plan') assert.match(r.stdout, new RegExp(`\\b${h.goAnswer}\\b`), `${what}: Go's answer\n${r.stdout}`);
      } else {
        assert.ok(r.code === 1 || r.code === 2, `${what}: exit ${r.code}\n${r.stdout.slice(0, 2000)}\n${r.stderr}`);
        assert.ok((r.stdout + r.stderr).includes(APPSET), `${what}: names ${APPSET}\n${r.stdout.slice(0, 2000)}\n${r.stderr}`);
        if (h.says) assert.match(r.stdout + r.stderr, h.says, `${what}: says why`);
        assert.deepEqual(files(out), {}, `${what}: nothing rendered`);
      }
      assert.ok(readdirSync(parent).every((e) => e === 'repo' || e === 'out'), `${what}: nothing made beside the repository and --out`);
    }
  });
}
