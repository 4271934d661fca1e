/**
 * `-e NAME` reads a helmfile repository as `helmfile -e NAME` does (ADR 0394): every part of a
 * state file, its releases and values templates are rendered with that environment's values, for
 * plan, render, validate and diff alike. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { WEB_CHART, appNames, committedRepo, renderLeaves, webHelmfile } from '../support/helmfile-cli.js';

/** Namespace and a values template read from the environment; `only` is defined in prod alone. */
const HELMFILE = webHelmfile('web.{{ .Environment.Name }}.example.org', '        only: yes\n');

function repo(helmfile = HELMFILE): string {
  return committedRepo({ 'helmfile.yaml.gotmpl': helmfile, ...WEB_CHART });
}


test('plan -e NAME renders the helmfile templates with that environment\'s values, and says they were read', async () => {
  const dir = repo();
  try {
    const byDefault = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(byDefault.code, 0, byDefault.stderr);
    assert.deepEqual(appNames(byDefault.stdout), ['helmfile:dev/web']);
    const prod = await cli(['plan', '--repo', dir, '-o', 'json', '-e', 'prod']);
    assert.equal(prod.code, 0, prod.stderr);
    assert.deepEqual(appNames(prod.stdout), ['helmfile:prod/web']);
    const text = await cli(['plan', '--repo', dir, '-e', 'prod']);
    assert.match(text.stdout, /helmfile environment prod: helmfile\.yaml\.gotmpl:5 \(values inline values: read into the helmfile templates\)/);
  } finally {
    removeTree(dir);
  }
});

test('render --leaves -e NAME builds the release with that environment\'s namespace and values', async () => {
  const dir = repo();
  try {
    const { files, text, code, stderr } = await renderLeaves(dir, ['-e', 'prod']);
    assert.equal(code, 0, stderr);
    assert.match(text, /host: "?web\.prod\.example\.org"?/);
    assert.doesNotMatch(text, /web\.default\.example\.org/);
    assert.ok(files.some((f) => f.includes('prod')), files.join(', '));
  } finally {
    removeTree(dir);
  }
});

test('validate -e NAME reads a template that only that environment\'s values make readable', async () => {
  // `.Values.only` is prod's alone: with default the part fails as helmfile fails; with prod it is read.
  const dir = repo(HELMFILE.replace('namespace: {{ .Values.ns }}', 'namespace: {{ .Values.ns }}{{ if not .Values.only }}{{ fail "prod only" }}{{ end }}'));
  try {
    const byDefault = await cli(['validate', '--repo', dir, '-o', 'json']);
    const codes = (stdout: string) => (JSON.parse(stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    assert.ok(codes(byDefault.stdout).includes('helmfile-template-not-read'), byDefault.stdout);
    const prod = await cli(['validate', '--repo', dir, '-o', 'json', '-e', 'prod']);
    assert.equal(prod.code, 0, prod.stderr);
    assert.ok(!codes(prod.stdout).includes('helmfile-template-not-read'), prod.stdout);
  } finally {
    removeTree(dir);
  }
});

test('diff -e NAME reads both sides in that environment', async () => {
  const guarded = HELMFILE.replace('namespace: {{ .Values.ns }}', 'namespace: {{ .Values.ns }}{{ if not .Values.only }}{{ fail "prod only" }}{{ end }}');
  const dir = repo(guarded);
  try {
    // The change drops prod's \`only\`: in prod the part now fails as helmfile fails; in default it failed before and after.
    writeFileSync(join(dir, 'helmfile.yaml.gotmpl'), guarded.replace('        only: yes\n', ''));
    const introduced = (stdout: string) => (JSON.parse(stdout) as { findings: { introduced: { code: string }[] } }).findings.introduced.map((f) => f.code);
    const prod = await cli(['diff', '--repo', dir, '--from', 'HEAD', '-o', 'json', '-e', 'prod']);
    assert.equal(prod.code, 0, prod.stderr);
    assert.ok(introduced(prod.stdout).includes('helmfile-template-not-read'), prod.stdout);
    const byDefault = await cli(['diff', '--repo', dir, '--from', 'HEAD', '-o', 'json']);
    assert.equal(byDefault.code, 0, byDefault.stderr);
    assert.deepEqual(introduced(byDefault.stdout), []);
  } finally {
    removeTree(dir);
  }
});

test('-e on a repository that is not read as helmfile + Flux is a usage error', async () => {
  for (const command of ['plan', 'render', 'validate']) {
    const r = await cli([command, '--repo', 'examples/lab', '-e', 'prod']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--environment is the helmfile environment: it applies to helmfile \+ Flux repositories only/);
  }
});

test('plan: an environment values file skipped under missingFileHandler: Warn is said skipped, not read', async () => {
  const dir = repo(HELMFILE.replace('  prod:\n    values:\n', '  prod:\n    missingFileHandler: Warn\n    values:\n      - prod-extra.yaml\n'));
  try {
    const r = await cli(['plan', '--repo', dir, '-e', 'prod']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /helmfile environment prod: helmfile\.yaml\.gotmpl:5 \(values inline values: read into the helmfile templates; values prod-extra\.yaml: not in the repository, skipped as helmfile skips them \(missingFileHandler: Warn\)\)/);
  } finally {
    removeTree(dir);
  }
});

test('plan -e NAME follows a sub-helmfile whose path is rendered from .Environment.Name', async () => {
  const dir = writeTree({
    'helmfile.yaml.gotmpl': 'helmfiles:\n  - path: clusters/{{ .Environment.Name }}/helmfile.yaml\n---\nenvironments:\n  default: {}\n  edge: {}\n  lab: {}\n',
    'clusters/edge/helmfile.yaml': 'releases:\n  - name: web\n    namespace: edge\n    chart: oci://ghcr.io/example/web\n    version: 1.0.0\n',
  });
  try {
    const byDefault = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.deepEqual(appNames(byDefault.stdout), []);
    assert.match(byDefault.stdout, /clusters\/default\/helmfile\.yaml not read/);
    const edge = await cli(['plan', '--repo', dir, '-o', 'json', '-e', 'edge']);
    assert.equal(edge.code, 0, edge.stderr);
    assert.deepEqual(appNames(edge.stdout), ['helmfile:edge/web']);
    // An environment whose helmfiles are all unread is still a helmfile repository's: the warning says why, no usage error.
    const none = await cli(['plan', '--repo', dir, '-e', 'lab']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /clusters\/lab\/helmfile\.yaml not read/);
  } finally {
    removeTree(dir);
  }
});
