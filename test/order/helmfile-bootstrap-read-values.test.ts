/**
 * The helmfile bootstrap plan uses what the reader read: a values path written as a release
 * template (`values/{{`{{ .Release.Name }}`}}.yaml`, rendered by helmfile per release) is the file
 * helmfile gives, not "a template fleetplan does not execute"; and the text plan shows the bootstrap
 * notes (environment, what fleetplan cannot run) also when no release can be run (ADR 0404).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { committedRepo } from '../support/helmfile-cli.js';

const repo = committedRepo;

interface Stage { name: string; description: string }

test('helmfile bootstrap: a values path that is a release template is read as helmfile renders it, with its values', async () => {
  const dir = repo({
    'helmfile.yaml.gotmpl': `templates:
  default: &default
    values:
      - values/{{\`{{ .Release.Name }}\`}}.yaml
releases:
  - name: web
    namespace: apps
    chart: oci://ghcr.io/example/web
    version: 1.0.0
    <<: *default
`,
    'values/web.yaml': 'replicas: 3\n',
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const c = (JSON.parse(r.stdout) as { clusters: { stages: Stage[]; bootstrapNotes: string[] }[] }).clusters[0]!;
    assert.deepEqual(c.bootstrapNotes.filter((n) => n.startsWith('fleetplan bootstrap cannot run this')), []);
    assert.deepEqual(c.stages.map((s) => s.name), ['release apps/web']);
  } finally {
    removeTree(dir);
  }
});

test('helmfile bootstrap: the text plan shows the bootstrap notes when no release can be run', async () => {
  const dir = repo({
    'helmfile.yaml': `releases:
  - name: web
    namespace: apps
    chart: stable/web
`,
  });
  try {
    const r = await cli(['plan', '--repo', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {2}bootstrap\n {4}note: helmfile environment default/);
    assert.match(r.stdout, /note: fleetplan bootstrap cannot run this: helmfile\.yaml:2: release apps\/web: chart "stable\/web" is neither a local directory, oci:\/\/ nor a chart of a repositories: entry/);
  } finally {
    removeTree(dir);
  }
});
