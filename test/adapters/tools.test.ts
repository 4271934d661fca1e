import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../src/errors/index.js';
import { findHelm, locateHelm } from '../../src/adapters/helm.js';
import { findKustomize, locateKustomize } from '../../src/adapters/kustomize.js';
import { bundledToolsDir, packageRoot } from '../../src/adapters/tools.js';
import { Limiter } from '../../src/adapters/process.js';
import { TOOLS_BIN, removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

function fakeBinary(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/sh\n${script}\n`);
  chmodSync(p, 0o755);
  return p;
}

test('locates the real kubectl and Helm from .tools/bin with their versions', async () => {
  const { kubectl, helm } = requireTools();
  const home = tempDir('tools');
  try {
    const k = await locateKustomize({ explicit: kubectl, env: toolEnv(home) });
    assert.equal(k.flavor, 'kubectl');
    assert.equal(k.version, '5.6.0');
    const h = await locateHelm({ explicit: helm, env: toolEnv(home) });
    assert.equal(h.version, '3.18.0');
  } finally {
    removeDir(home);
  }
});

test('finds kustomize through FLEETPLAN_KUSTOMIZE, then PATH (kustomize before kubectl)', async () => {
  const dir = tempDir('fake');
  try {
    const bin = join(dir, 'bin');
    fakeBinary(bin, 'kustomize', 'echo v5.4.3');
    fakeBinary(bin, 'kubectl', `echo '{"clientVersion":{},"kustomizeVersion":"v5.0.1"}'`);
    const viaPath = await locateKustomize({ env: { PATH: bin } });
    assert.equal(viaPath.flavor, 'kustomize');
    assert.equal(viaPath.version, '5.4.3');
    const viaEnv = await locateKustomize({ env: { PATH: bin, FLEETPLAN_KUSTOMIZE: join(bin, 'kubectl') } });
    assert.equal(viaEnv.flavor, 'kubectl');
    assert.equal(viaEnv.version, '5.0.1');
    const explicitWins = await locateKustomize({ explicit: 'kustomize', env: { PATH: bin, FLEETPLAN_KUSTOMIZE: join(bin, 'kubectl') } });
    assert.equal(explicitWins.flavor, 'kustomize');
  } finally {
    removeDir(dir);
  }
});

test('without PATH or flags, the package\'s own .tools/bin is found from the module location', async () => {
  const { kubectl, helm } = requireTools();
  assert.equal(packageRoot(), process.cwd());
  assert.equal(bundledToolsDir(), TOOLS_BIN);
  const dir = tempDir('empty-path');
  try {
    const h = await findHelm({ env: { PATH: dir } });
    assert.equal(h.tool?.binary, helm);
    assert.equal(h.from, '.tools/bin');
    const k = await findKustomize({ env: { PATH: dir } });
    assert.equal(k.tool?.binary, kubectl);
    assert.equal(k.from, '.tools/bin');
  } finally {
    removeDir(dir);
  }
});

test('a tool on PATH wins over .tools/bin; a refused one on PATH is skipped for it', async () => {
  const { helm } = requireTools();
  const dir = tempDir('fake');
  try {
    const v3 = join(dir, 'v3');
    fakeBinary(v3, 'helm', 'echo v3.99.1+gabc');
    const mine = await findHelm({ env: { PATH: v3 } });
    assert.equal(mine.tool?.version, '3.99.1');
    assert.equal(mine.from, 'PATH');
    const v4 = join(dir, 'v4');
    fakeBinary(v4, 'helm', 'echo v4.0.0+gabc');
    const skipped = await findHelm({ env: { PATH: v4 } });
    assert.equal(skipped.tool?.binary, helm);
    assert.deepEqual(skipped.refused.map((r) => [r.binary, r.from]), [[join(v4, 'helm'), 'PATH']]);
    assert.match(skipped.refused[0]!.error.message, /Helm 4 does not work with kustomize's helmCharts/);
    // An explicit choice is never replaced: FLEETPLAN_HELM pointing at Helm 4 is an error.
    await assert.rejects(locateHelm({ env: { PATH: v3, FLEETPLAN_HELM: join(v4, 'helm') } }), /helm 4\.0\.0 .*from FLEETPLAN_HELM=.* is not supported/);
  } finally {
    removeDir(dir);
  }
});

const failures: { name: string; setup: (bin: string) => Promise<unknown>; message: RegExp; hint: RegExp }[] = [
  {
    name: 'rejects Helm 4 with the reason and what to install',
    setup: (bin) => locateHelm({ explicit: fakeBinary(bin, 'helm', 'echo v4.0.0+g1234abc'), env: { PATH: bin } }),
    message: /helm 4\.0\.0 .* not supported: Helm 4 does not work with kustomize's helmCharts/,
    hint: /install Helm 3/,
  },
  {
    name: 'reports a missing helm on PATH',
    setup: (bin) => locateHelm({ env: { PATH: bin }, bundledDir: false }),
    message: /^helm not found on PATH$/,
    hint: /install Helm 3/,
  },
  {
    name: 'reports a missing helm on PATH and in the bundled directory, naming helm',
    setup: (bin) => locateHelm({ env: { PATH: bin }, bundledDir: join(bin, '..') }),
    message: /^helm not found on PATH or in .*fleetplan-fake-[^/]+$/,
    hint: /install Helm 3/,
  },
  {
    name: 'reports a FLEETPLAN_HELM that is not executable',
    setup: (bin) => locateHelm({ env: { PATH: bin, FLEETPLAN_HELM: join(bin, 'nope') } }),
    message: /helm not found: FLEETPLAN_HELM=.*nope is not an executable file/,
    hint: /install Helm 3/,
  },
  {
    name: 'reports neither kustomize nor kubectl on PATH',
    setup: (bin) => locateKustomize({ env: { PATH: bin }, bundledDir: false }),
    message: /neither `kustomize` nor `kubectl` is on PATH$/,
    hint: /install kustomize 5/,
  },
  {
    name: 'rejects kustomize 4',
    setup: (bin) => locateKustomize({ env: { PATH: bin }, explicit: fakeBinary(bin, 'kustomize', "echo '{Version:kustomize/v4.5.7 GitCommit:abc}'") }),
    message: /kustomize 4\.5\.7 .* is too old: fleetplan needs kustomize 5 or newer/,
    hint: /kubectl 1\.27 or newer/,
  },
  {
    name: 'rejects a kubectl without a built-in kustomize version',
    setup: (bin) => locateKustomize({ env: { PATH: bin }, explicit: fakeBinary(bin, 'kubectl', `echo '{"clientVersion":{}}'`) }),
    message: /cannot tell the kustomize version .* gave no kustomizeVersion/,
    hint: /install kustomize 5/,
  },
  {
    name: 'reports a --kustomize path that does not exist',
    setup: (bin) => locateKustomize({ env: { PATH: bin }, explicit: join(bin, 'missing-kustomize') }),
    message: /kustomize not found: --kustomize .*missing-kustomize is not an executable file/,
    hint: /FLEETPLAN_KUSTOMIZE/,
  },
];

for (const c of failures) {
  test(c.name, async () => {
    const dir = tempDir('fake');
    try {
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      await assert.rejects(c.setup(bin), (e: unknown) => {
        assert.ok(e instanceof ToolError, `expected a ToolError, got ${String(e)}`);
        assert.match(e.message, c.message);
        assert.match(e.hint ?? '', c.hint);
        return true;
      });
    } finally {
      removeDir(dir);
    }
  });
}

test('a build failure carries kustomize\'s own message', async () => {
  const dir = tempDir('fake');
  try {
    const bin = join(dir, 'bin');
    fakeBinary(bin, 'kustomize', 'if [ "$1" = version ]; then echo v5.6.0; else echo "error: boom in $2" >&2; exit 1; fi');
    const k = await locateKustomize({ env: { PATH: bin } });
    await assert.rejects(k.build('/some/dir', []), (e: unknown) => e instanceof ToolError && e.message === 'error: boom in /some/dir');
  } finally {
    removeDir(dir);
  }
});

test('the limiter never runs more than its bound at once', async () => {
  const limiter = new Limiter(2);
  let active = 0;
  let peak = 0;
  const task = () =>
    limiter.run(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active--;
    });
  await Promise.all(Array.from({ length: 7 }, task));
  assert.equal(peak, 2);
});

test('a tool that runs too long is killed and says so', async () => {
  const { runProcess } = await import('../../src/adapters/process.js');
  const r = await runProcess('/bin/sh', ['-c', 'sleep 5'], { env: { PATH: '/usr/bin:/bin' }, timeoutMs: 100 });
  assert.equal(r.code, null);
  assert.match(r.stderr, /killed after 0\.1 s/);
});
