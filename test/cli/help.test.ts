/**
 * Help: `fleetplan --help` lists the commands; `help CMD`, `CMD --help` and `CMD -h` print the
 * command's help with an Examples section; and every example that runs offline runs, on
 * examples/lab, with the exit code it promises.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { commands } from '../../src/cli/commands/index.js';
import { cli, removeTree } from '../support/fleet-fixture.js';

test('fleetplan --help lists every command and help; without a command it exits 2', async () => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const r = await cli(args);
    assert.equal(r.code, 0, args.join(' '));
    for (const c of commands) assert.match(r.stdout, new RegExp(`^  ${c.name} +${c.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.match(r.stdout, /^ {2}help +help about a command/m);
    assert.match(r.stdout, /-v, --version/);
  }
  const bare = await cli([]);
  assert.equal(bare.code, 2);
  assert.match(bare.stdout, /^Commands:$/m);
});

for (const c of commands) {
  test(`${c.name}: help CMD, CMD --help and CMD -h print its usage and examples`, async () => {
    const viaHelp = await cli(['help', c.name]);
    assert.equal(viaHelp.code, 0, viaHelp.stderr);
    assert.equal((await cli([c.name, '--help'])).stdout, viaHelp.stdout);
    assert.equal((await cli([c.name, '-h'])).stdout, viaHelp.stdout);
    const text = viaHelp.stdout;
    assert.match(text, new RegExp(`^Usage: fleetplan ${c.name}\\b`));
    const examples = text.slice(text.indexOf('\nExamples:\n'));
    assert.ok(text.includes('\nExamples:\n'), `${c.name} --help has an Examples section`);
    assert.ok(c.examples.length > 0);
    for (const e of c.examples) {
      assert.ok(examples.includes(`  # ${e.what}\n  ${e.run}\n`), `example "${e.run}" is shown`);
      assert.match(e.run, new RegExp(`(^|\\s)fleetplan ${c.name}\\b`));
    }
    // Commands that choose clusters explain --cluster and -l.
    assert.equal(text.includes('-l, --selector SEL'), c.options.cluster !== undefined);
  });
}

test('help for an unknown command suggests the closest one', async () => {
  const r = await cli(['help', 'rendr']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown command "rendr"\ndid you mean render\?/);
});

// Files some examples name, written into the directory the examples run in.
const FIXTURES: Record<string, string> = {
  'appset.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: kube-ops-view
  namespace: openshift-gitops
spec:
  goTemplate: true
  generators:
    - clusters:
        selector:
          matchLabels:
            role: spoke
  template:
    metadata:
      name: 'kube-ops-view-{{.name}}'
    spec:
      project: default
      source:
        repoURL: https://git.example.com/platform/openshift-virtualization-gitops.git
        targetRevision: main
        path: components/kube-ops-view
      destination:
        server: '{{.server}}'
        namespace: kube-ops-view
`,
  'template.txt': '{{ .cluster | upper }} in {{ .region }}\n',
  'data.json': '{"cluster": "etl4", "region": "rdu2"}\n',
};

const runnable = commands.flatMap((c) => c.examples.filter((e) => e.notRun === undefined).map((e) => ({ command: c.name, ...e })));

test('every command has at least one example that runs offline', () => {
  for (const c of commands.filter((x) => !['bootstrap', 'mirror', 'cmp'].includes(x.name))) {
    assert.ok(runnable.some((e) => e.command === c.name), `${c.name} has a runnable example`);
  }
});

for (const e of runnable) {
  test(`example runs: ${e.run}`, async () => {
    // A scratch directory with examples/ (the lab fleet, read in place) and the fixture files, so
    // that examples which write (init, render --out) write there.
    const dir = mkdtempSync(join(tmpdir(), 'fleetplan-example-'));
    try {
      symlinkSync(resolve('examples'), join(dir, 'examples'));
      for (const [name, text] of Object.entries(FIXTURES)) writeFileSync(join(dir, name), text);
      const words = e.run.split(/\s+/);
      assert.equal(words[0], 'fleetplan', 'an example that runs is one plain fleetplan command line');
      assert.ok(!/[|<>$'"`;&]/.test(e.run), 'no shell syntax in an example that runs');
      const r = await cli(words.slice(1), dir, { PATH: '/usr/bin:/bin', HOME: dir });
      assert.equal(r.code, e.exit ?? 0, `${e.run}\n${r.stderr}`);
      assert.notEqual(r.stdout + r.stderr, '');
    } finally {
      removeTree(dir);
    }
  });
}
