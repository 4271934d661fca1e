/**
 * `{{ env "X" }}` and `{{ requiredEnv "X" }}` in a helmfile (ADR 0413): fleetplan never reads the
 * process environment. An `env` of a variable not given reads "" (what helmfile reads for an unset
 * one) with a warning naming the file and line; `--helmfile-env NAME=VALUE` gives a value, as the
 * shell that runs helmfile would. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { WEB_CHART, appNames, committedRepo } from '../support/helmfile-cli.js';

const STATE = `releases:
  - name: web
    namespace: {{ env "TEAM_NS" | default "dev" }}
    chart: ./charts/web
    values:
      - host: web.example.org
`;

interface Finding { code: string; file?: string; line?: number; message: string; hint?: string }
const findingsOf = (stdout: string): Finding[] => (JSON.parse(stdout) as { findings: Finding[] }).findings;

test('env of a variable not given reads "" as helmfile reads an unset one, with a warning at its file and line; the process environment is never read', async () => {
  const dir = committedRepo({ 'helmfile.yaml.gotmpl': STATE, ...WEB_CHART });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json'], process.cwd(), { TEAM_NS: 'from-the-shell' });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(appNames(r.stdout), ['helmfile:dev/web']);
    const notes = findingsOf(r.stdout).filter((f) => f.code === 'helmfile-env-not-read');
    assert.deepEqual(notes.map((f) => [f.file, f.line]), [['helmfile.yaml.gotmpl', 3]]);
    assert.match(notes[0]!.message, /env "TEAM_NS" read as "".*fleetplan does not read the environment/);
    assert.match(notes[0]!.hint ?? '', /--helmfile-env TEAM_NS=VALUE/);
  } finally {
    removeTree(dir);
  }
});

test('--helmfile-env NAME=VALUE gives env and requiredEnv their value, in plan and in diff', async () => {
  const required = STATE.replace('{{ env "TEAM_NS" | default "dev" }}', '{{ requiredEnv "TEAM_NS" }}');
  const dir = committedRepo({ 'helmfile.yaml.gotmpl': required, ...WEB_CHART });
  try {
    const without = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual(appNames(without.stdout), []);
    const failed = findingsOf(without.stdout).find((f) => f.code === 'helmfile-template-not-read');
    assert.match(failed?.hint ?? '', /--helmfile-env TEAM_NS=VALUE/);
    const given = await cli(['plan', '--repo', dir, '-o', 'json', '--helmfile-env', 'TEAM_NS=qa']);
    assert.equal(given.code, 0, given.stderr);
    assert.deepEqual(appNames(given.stdout), ['helmfile:qa/web']);
    assert.deepEqual(findingsOf(given.stdout).filter((f) => f.code.startsWith('helmfile-')), []);
    writeFileSync(join(dir, 'helmfile.yaml.gotmpl'), required.replace('web.example.org', 'www.example.org'));
    const diff = await cli(['diff', '--repo', dir, '-o', 'json', '--helmfile-env', 'TEAM_NS=qa']);
    assert.equal(diff.code, 0, diff.stderr);
    const objects = (JSON.parse(diff.stdout) as { clusters: { objects: { change: string; name: string; namespace?: string }[] }[] }).clusters.flatMap((c) => c.objects);
    assert.deepEqual(objects.map((o) => [o.change, o.namespace, o.name]), [['changed', 'qa', 'web']]);
    for (const bad of ['TEAM_NS', '=x']) {
      const r = await cli(['plan', '--repo', dir, '--helmfile-env', bad]);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--helmfile-env .*NAME=VALUE/);
    }
  } finally {
    removeTree(dir);
  }
});
