// One rule for paths (docs/adr/0210, 0211): every file read resolves inside the repository (a
// symlink out of it is an error finding naming the link and its target, as Argo CD's repo-server
// refuses such a repository), and every file written or removed by `render --out` stays inside
// the output directory (no writing through a link there, only files fleetplan wrote are removed).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { baseFleet, cli, writeTree } from '../support/fleet-fixture.js';
import { toolEnv } from '../helpers/tools.js';
import { renderLeaves } from '../../src/api/leaves.js';
import { OUTPUT_MANIFEST } from '../../src/adapters/output.js';
import { LEAF_FAILURES } from '../../src/adapters/leaf-objects.js';

const tmp = mkdtempSync(join(tmpdir(), 'fleetplan-paths-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const fresh = (name: string) => {
  const d = join(tmp, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** A marker that only files outside the repository hold: it must never show up in any output. */
const MARKER = 'outside-marker-7f3a';

/** A directory outside every repository: a kustomization with a ConfigMap, values, a Cluster. */
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

/** Every file under `dir` (relative path → content), links not followed. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath ?? e.path, e.name);
    if (e.isFile()) out[p.slice(dir.length + 1)] = readFileSync(p, 'utf8');
  }
  return out;
}

function assertClean(r: { stdout: string; stderr: string }, what: string): void {
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${what}: no stack trace\n${r.stderr}`);
  assert.ok(!r.stdout.includes(MARKER) && !r.stderr.includes(`name: ${MARKER}`), `${what}: nothing read outside the repository`);
}

test('a cluster.yaml that is a symlink to /etc/passwd is an error naming the link and its target, not a dropped cluster', async () => {
  const repo = writeTree(baseFleet(), fresh('repo'));
  mkdirSync(join(repo, 'clusters/evil'));
  symlinkSync('/etc/passwd', join(repo, 'clusters/evil/cluster.yaml'));
  for (const cmd of ['plan', 'validate']) {
    const r = await cli([cmd, '--repo', repo]);
    assert.equal(r.code, 1, `${cmd}: ${r.stderr}`);
    // validate reports on stdout, plan on stderr
    assert.match(r.stdout + r.stderr, /clusters\/evil\/cluster\.yaml is a symlink to \/etc\/passwd/);
    assert.match(r.stdout + r.stderr, /symlink-outside-repo/);
    assertClean(r, cmd);
  }
});

test('a component directory symlinked outside the repository is an error; render --out --leaves writes nothing from it', async () => {
  const outside = outsideDir();
  const repo = writeTree(baseFleet(), fresh('repo'));
  rmSync(join(repo, 'components/operator'), { recursive: true });
  symlinkSync(outside, join(repo, 'components/operator'));
  const out = join(fresh('out'), 'rendered');
  const r = await cli(['render', '--repo', repo, '--out', out, '--leaves'], process.cwd(), toolEnv(fresh('home')));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`components/operator is a symlink to ${outside}`));
  assertClean(r, 'render --leaves');
  assert.deepEqual(files(out), {}, 'nothing rendered');
});

test('leaf builds of a repository holding a link out of it are refused before any tool runs, naming the link', async () => {
  const outside = outsideDir();
  const repo = writeTree({ 'apps/web/kustomization.yaml': 'resources:\n  - ../../linked/cm.yaml\n' }, fresh('repo'));
  symlinkSync(outside, join(repo, 'linked'));
  const out = fresh('out');
  const run = await renderLeaves([{ cluster: 'c1', app: 'web', source: { kind: 'kustomize', path: 'apps/web' }, variables: {} }], {
    repoRoot: repo,
    outDir: out,
    cacheDir: false,
    // No tool anywhere: a refusal must come before the lookup.
    env: { PATH: '' },
    bundledDir: false,
  });
  const err = run.results[0]!.error;
  assert.ok(err, 'the build is refused');
  assert.equal(err.code, 'symlink-outside-repo');
  assert.match(err.message, new RegExp(`linked is a symlink to ${outside}`));
  // Nothing built; only the record of the failure for validate --leaves (ADR 0260).
  const { [LEAF_FAILURES]: record, ...rest } = files(out);
  assert.deepEqual(rest, {});
  assert.equal((JSON.parse(record!) as Record<string, { code: string }>)['c1/web']?.code, 'symlink-outside-repo');
});

test('a gitops-standards values.yaml symlinked outside the repository is an error, and the cluster is not built from it', async () => {
  const outside = outsideDir();
  const repo = fresh('gs');
  cpSync(resolve('test/fixtures/gitops-standards'), repo, { recursive: true });
  writeFileSync(join(outside, 'values.yaml'), readFileSync(join(repo, 'clusters/hub/values.yaml'), 'utf8').replace('cert-operator:', `${MARKER}:`));
  rmSync(join(repo, 'clusters/hub/values.yaml'));
  symlinkSync(join(outside, 'values.yaml'), join(repo, 'clusters/hub/values.yaml'));
  const r = await cli(['plan', '--repo', repo], process.cwd(), toolEnv(fresh('home')));
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`clusters/hub/values\\.yaml is a symlink to ${outside}/values\\.yaml`));
  assertClean(r, 'plan');
  assert.ok(!r.stdout.includes(MARKER), 'the outside app is not shown');
});

test('render --out does not write through a symlinked OUT/<cluster>/apps', async () => {
  const out = fresh('out');
  const victim = fresh('victim');
  assert.equal((await cli(['render', '--repo', 'examples/lab', '--out', out])).code, 0);
  rmSync(join(out, 'hub/apps'), { recursive: true });
  symlinkSync(victim, join(out, 'hub/apps'));
  const r = await cli(['render', '--repo', 'examples/lab', '--out', out]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`${out}/hub/apps: a symlink to ${victim}`));
  assertClean(r, 'render --out');
  assert.deepEqual(files(victim), {}, 'nothing written outside --out');
});

test('render --out neither writes into nor deletes from a symlinked OUT/<hub>/provision/<spoke>', async () => {
  const out = fresh('out');
  const victim = fresh('victim');
  assert.equal((await cli(['render', '--repo', 'examples/lab', '--out', out])).code, 0);
  // The victim holds files that look generated, and the names render writes there.
  for (const name of readdirSync(join(out, 'hub/provision/etl4'))) writeFileSync(join(victim, name), '# Generated by fleetplan from x. Do not edit.\nmine: 1\n');
  writeFileSync(join(victim, 'stale.yaml'), '# Generated by fleetplan from x. Do not edit.\nmine: 1\n');
  const before = files(victim);
  rmSync(join(out, 'hub/provision/etl4'), { recursive: true });
  symlinkSync(victim, join(out, 'hub/provision/etl4'));
  for (const args of [[], ['--cluster', 'hub']]) {
    const r = await cli(['render', '--repo', 'examples/lab', '--out', out, ...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${out}/hub/provision/etl4: a symlink to ${victim}`));
    assertClean(r, 'render --out');
    assert.deepEqual(files(victim), before, 'nothing written or removed outside --out');
  }
  // A spoke no longer rendered whose directory is a link: the link is left alone, nothing deleted through it.
  rmSync(join(out, 'hub/provision/etl4'));
  mkdirSync(join(out, 'hub/provision/gone'));
  rmSync(join(out, 'hub/provision/gone'), { recursive: true });
  symlinkSync(victim, join(out, 'hub/provision/gone'));
  const r = await cli(['render', '--repo', 'examples/lab', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(files(victim), before);
});

test('render --out naming a regular file is a usage error, without a stack trace', async () => {
  const file = join(fresh('f'), 'out.yaml');
  writeFileSync(file, 'x\n');
  const r = await cli(['render', '--repo', 'examples/lab', '--out', file]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the output directory .*out\.yaml is a file/);
  assertClean(r, 'render --out FILE');
  assert.equal(readFileSync(file, 'utf8'), 'x\n');
});

test('render --out naming the repository, a directory holding it, or a fleet folder is a usage error that writes nothing', async () => {
  const parent = fresh('p');
  const repo = writeTree(baseFleet(), join(parent, 'repo'));
  const before = files(repo);
  for (const out of [repo, parent, join(repo, 'clusters')]) {
    const r = await cli(['render', '--repo', repo, '--out', out]);
    assert.equal(r.code, 2, `${out}: ${r.stderr}`);
    assert.match(r.stderr, /output-is-repository|is the repository|holds the (repository|fleet's own file)/);
    assertClean(r, `render --out ${out}`);
    assert.deepEqual(files(repo), before, 'the repository is unchanged');
    assert.deepEqual(readdirSync(parent), ['repo']);
  }
  // A directory of its own inside the repository is fine.
  assert.equal((await cli(['render', '--repo', repo, '--out', join(repo, 'rendered')])).code, 0);
});

test('temporary files a killed render left are removed by the next render', async () => {
  const out = fresh('out');
  assert.equal((await cli(['render', '--repo', 'examples/lab', '--out', out])).code, 0);
  const left = [join(out, 'hub/apps/acm.yaml.0123456789ab.tmp'), join(out, 'hub/bootstrap/.a1b2c3d4e5f6.tmp')];
  for (const p of left) writeFileSync(p, 'half a file');
  const r = await cli(['render', '--repo', 'examples/lab', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  for (const p of left) assert.equal(existsSync(p), false, `${p} removed`);
});

test('render --out removes only files it wrote (its manifest), not files that merely carry the generated header', async () => {
  const repo = writeTree(baseFleet(), fresh('repo'));
  const out = fresh('out');
  assert.equal((await cli(['render', '--repo', repo, '--out', out])).code, 0);
  const manifest = readFileSync(join(out, OUTPUT_MANIFEST), 'utf8');
  assert.match(manifest, /^one\/apps\/config\.yaml$/m);
  // A copied file with the header, never written by fleetplan, stays; an app no longer rendered goes.
  writeFileSync(join(out, 'one/apps/copied.yaml'), '# Generated by fleetplan from x. Do not edit.\nmine: 1\n');
  writeTree({ 'groups/base/group.yaml': readFileSync(join(repo, 'groups/base/group.yaml'), 'utf8').replace(/ {4}config:[\s\S]*$/, '') }, repo);
  const r = await cli(['render', '--repo', repo, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /1 removed/);
  assert.equal(existsSync(join(out, 'one/apps/config.yaml')), false);
  assert.equal(existsSync(join(out, 'one/apps/copied.yaml')), true);
  assert.doesNotMatch(readFileSync(join(out, OUTPUT_MANIFEST), 'utf8'), /config\.yaml/);
});

// The table of hostile inputs × commands (these links, FIFOs and directories among them) is
// test/hostile/inputs.test.ts: each run there is a child process under 10 s and 1 GiB.

test('relative symlinks that stay inside the repository are fine, as in Argo CD', async () => {
  const repo = writeTree(
    baseFleet({
      'components/shared/kustomization.yaml': 'resources: []\n',
      'groups/base/group.yaml':
        'apiVersion: fleetplan.io/v1alpha1\nkind: Group\nmetadata:\n  name: base\nspec:\n  apps:\n    operator:\n      path: components/alias\n      namespace: op\n',
    }),
    fresh('repo'),
  );
  rmSync(join(repo, 'components/operator'), { recursive: true });
  symlinkSync('shared', join(repo, 'components/operator'));
  symlinkSync('operator', join(repo, 'components/alias'));
  symlinkSync('../fleet.yaml', join(repo, 'groups/fleet-copy.yaml'));
  const r = await cli(['plan', '--repo', repo]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /symlink/);
});
