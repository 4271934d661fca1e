import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli/run.js';

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: { write: (s: string) => (out.stdout += s) },
      stderr: { write: (s: string) => (out.stderr += s) },
      env: {},
      cwd: process.cwd(),
    },
  };
}

const dir = 'test/fixtures/gotemplate';

const cases: { name: string; args: string[]; code: number; stdout?: string; stderr?: RegExp }[] = [
  {
    name: 'renders a template with JSON data (numbers are float64, map ranges sorted)',
    args: [`${dir}/app.tmpl`, '--data', `${dir}/data.json`],
    code: 0,
    stdout: 'name: prod-eu-1\nreplicas: 3\nenv=prod\ntier=web\n',
  },
  {
    name: 'prints <no value> for a missing key by default',
    args: [`${dir}/missing.tmpl`, '--data', `${dir}/data.json`],
    code: 0,
    stdout: '<no value>',
  },
  {
    name: "fails with Go's message for a missing key under --missingkey error",
    args: [`${dir}/missing.tmpl`, '--data', `${dir}/data.json`, '--missingkey', 'error'],
    code: 1,
    stderr: /^template: base:1:11: executing "base" at <\.cluster\.region>: map has no entry for key "region"\n$/,
  },
  {
    name: "fails with Go's parse error for a broken template",
    args: [`${dir}/broken.tmpl`],
    code: 1,
    stderr: /^template: base:1: unexpected "}" in operand\n$/,
  },
  {
    name: 'rejects an unknown --missingkey mode',
    args: [`${dir}/missing.tmpl`, '--missingkey', 'maybe'],
    code: 2,
    stderr: /--missingkey must be one of default, zero, error/,
  },
  {
    name: 'reports an unreadable data file as an input error',
    args: [`${dir}/missing.tmpl`, '--data', `${dir}/nope.json`],
    code: 2,
    stderr: /cannot read .*nope\.json/,
  },
];

for (const c of cases) {
  test(`gotemplate command ${c.name}`, async () => {
    const { out, io: cliIo } = io();
    const code = await runCli(['gotemplate', ...c.args], cliIo);
    assert.equal(code, c.code, out.stderr);
    if (c.stdout !== undefined) assert.equal(out.stdout, c.stdout);
    if (c.stderr) assert.match(out.stderr, c.stderr);
  });
}
