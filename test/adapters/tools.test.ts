import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../src/errors/index.js';
import { locateHelm } from '../../src/adapters/helm.js';
import { locateKustomize } from '../../src/adapters/kustomize.js';
import { Limiter } from '../../src/adapters/process.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../helpers/tools.js';

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

const failures: { name: string; setup: (bin: string) => Promise<unknown>; message: RegExp; hint: RegExp }[] = [
  {
    name: 'rejects Helm 4 with the reason and what to install',
    setup: (bin) => locateHelm({ explicit: fakeBinary(bin, 'helm', 'echo v4.0.0+g1234abc'), env: { PATH: bin } }),
    message: /helm 4\.0\.0 .* not supported: Helm 4 does not work with kustomize's helmCharts/,
    hint: /install Helm 3/,
  },
  {
    name: 'reports a missing helm on PATH',
    setup: (bin) => locateHelm({ env: { PATH: bin } }),
    message: /helm not found on PATH/,
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
    setup: (bin) => locateKustomize({ env: { PATH: bin } }),
    message: /neither `kustomize` nor `kubectl` is on PATH/,
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
