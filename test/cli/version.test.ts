/** `fleetplan version`: fleetplan's version and the kustomize, Helm and git it finds, and why a tool is refused. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../../src/model/version.js';
import { cli } from '../support/fleet-fixture.js';
import { TOOLS_BIN, removeDir, requireTools, tempDir } from '../helpers/tools.js';

interface Tool {
  found: boolean;
  binary?: string;
  version?: string;
  from?: string;
  flavor?: string;
  error?: string;
  refused: { binary: string; from: string; reason: string }[];
}

async function version(args: string[], env: Record<string, string>): Promise<{ fleetplan: { version: string; package: string }; tools: Record<string, Tool> }> {
  const r = await cli(['version', '-o', 'json', ...args], process.cwd(), env);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { fleetplan: { version: string; package: string }; tools: Record<string, Tool> };
}

function fake(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, name), 0o755);
  return join(dir, name);
}

test('version, --version and -v print the same: fleetplan and the tools', async () => {
  const env = { PATH: '/usr/bin:/bin' };
  const outs = await Promise.all([['version'], ['--version'], ['-v']].map((a) => cli(a, process.cwd(), env)));
  for (const r of outs) {
    assert.equal(r.code, 0);
    assert.equal(r.stdout, outs[0]!.stdout);
  }
  const text = outs[0]!.stdout;
  assert.match(text, new RegExp(`^fleetplan ${VERSION.replace(/\./g, '\\.')} \\(node v\\d+`));
  assert.match(text, /^kustomize +\d+\.\d+\.\d+ +\/\S+/m);
  assert.match(text, /^helm +3\.\d+\.\d+ +\/\S+/m);
  assert.match(text, /^git +(\d+\.\d+\.\d+ +\/\S+|missing)/m);
});

test('with nothing on PATH, the checkout\'s .tools/bin is found from the package location', async () => {
  const { kubectl, helm } = requireTools();
  const v = await version([], { PATH: '/nonexistent' });
  assert.equal(v.fleetplan.version, VERSION);
  assert.equal(v.fleetplan.package, process.cwd());
  assert.deepEqual([v.tools.kustomize!.binary, v.tools.kustomize!.from, v.tools.kustomize!.flavor], [kubectl, '.tools/bin', 'kubectl']);
  assert.deepEqual([v.tools.helm!.binary, v.tools.helm!.from, v.tools.helm!.version], [helm, '.tools/bin', '3.18.0']);
  assert.equal(v.tools.git!.found, false);
  assert.match(v.tools.git!.error!, /^git not found on PATH/);
});

test('a Helm 4 on PATH is refused, with the reason, for the Helm 3 of .tools/bin', async () => {
  const { helm } = requireTools();
  const dir = tempDir('helm4');
  try {
    const helm4 = fake(join(dir, 'bin'), 'helm', 'echo v4.0.1+g1234');
    const v = await version([], { PATH: join(dir, 'bin') });
    assert.equal(v.tools.helm!.binary, helm);
    assert.deepEqual(v.tools.helm!.refused.map((r) => [r.binary, r.from]), [[helm4, 'PATH']]);
    assert.match(v.tools.helm!.refused[0]!.reason, /helm 4\.0\.1 .* is not supported: Helm 4 does not work with kustomize's helmCharts/);
    const text = await cli(['version'], process.cwd(), { PATH: join(dir, 'bin') });
    assert.match(text.stdout, new RegExp(`^helm +3\\.18\\.0 +${TOOLS_BIN}/helm  \\(from \\.tools/bin\\)\\n +refused  helm 4\\.0\\.1 \\(${helm4}, from PATH\\) is not supported`, 'm'));
  } finally {
    removeDir(dir);
  }
});

test('a tool on PATH wins over .tools/bin', async () => {
  requireTools();
  const dir = tempDir('mine');
  try {
    const mine = fake(join(dir, 'bin'), 'helm', 'echo v3.99.0+gabc');
    const v = await version([], { PATH: join(dir, 'bin') });
    assert.deepEqual([v.tools.helm!.binary, v.tools.helm!.from, v.tools.helm!.version], [mine, 'PATH', '3.99.0']);
  } finally {
    removeDir(dir);
  }
});

test('a missing or refused explicit tool is named, and version still exits 0', async () => {
  const dir = tempDir('explicit');
  try {
    const helm4 = fake(join(dir, 'bin'), 'helm4', 'echo v4.0.0');
    const missing = join(dir, 'no-helm');
    const r = await cli(['version', '--helm', missing, '--kustomize', join(dir, 'no-kustomize')], process.cwd(), { PATH: '/usr/bin:/bin' });
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`^helm +missing {2}helm not found: --helm ${missing} is not an executable file \\(install Helm 3`, 'm'));
    assert.match(r.stdout, /^kustomize +missing {2}kustomize not found: --kustomize .*no-kustomize is not an executable file/m);
    const env4 = await version([], { PATH: '/usr/bin:/bin', FLEETPLAN_HELM: helm4 });
    assert.equal(env4.tools.helm!.found, false);
    assert.match(env4.tools.helm!.error!, /^helm 4\.0\.0 .*from FLEETPLAN_HELM=.* is not supported/);
  } finally {
    removeDir(dir);
  }
});
