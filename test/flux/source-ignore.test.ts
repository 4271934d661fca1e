/**
 * A GitRepository artifact leaves out what source-controller excludes by default (fluxcd/pkg
 * sourceignore: `.git/`, `.github/`, CI files, `**\/.sops.yaml`, `**\/.flux.yaml`, …), so the
 * kustomization Flux generates for a folder without one does not list them (ADR 0411). A
 * `.sops.yaml` creation-rules file beside a cluster's Kustomizations made render --leaves fail
 * ("missing Resource metadata") where Flux builds the folder. Small repositories written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { gotkSync } from '../support/flux-fixture.js';
import { fluxSourceIgnored } from '../../src/model/flux-source-ignore.js';

test('flux source ignore: the default exclusions of source-controller, at any depth where gitignore puts them', () => {
  for (const p of ['clusters/prod/.sops.yaml', '.sops.yaml', 'a/.flux.yaml', 'a/.goreleaser.yml', '.github/workflows/x.yaml', 'a/.github/x.yaml', 'a/cloudbuild.yaml', '.gitlab-ci.yml', 'a/.git/config', 'x/logo.png']) assert.equal(fluxSourceIgnored(p), true, p);
  for (const p of ['clusters/prod/apps.yaml', 'a/.config.yaml', 'a/sops.yaml', 'a/github/x.yaml']) assert.equal(fluxSourceIgnored(p), false, p);
});

test('flux source ignore: render --leaves builds a cluster folder holding .sops.yaml as Flux does, with the dot files Flux does build', async () => {
  const files: Record<string, string> = {
    'clusters/prod/flux-system/gotk-sync.yaml': gotkSync('prod'),
    'clusters/prod/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/prod/.sops.yaml': 'creation_rules:\n  - path_regex: .*.yaml\n    encrypted_regex: ^(data|stringData)$\n    age: age1example\n',
    // Not excluded by source-controller: Flux applies it.
    'clusters/prod/.extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: default\n',
    'clusters/prod/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: default\n',
  };
  const dir = writeTree(files);
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const written = readdirSync(join(out, 'prod', 'manifests'), { recursive: true }).map(String).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, 'prod', 'manifests', f), 'utf8')).join('\n');
    assert.match(written, /name: extra/);
    assert.match(written, /name: cm/);
    assert.doesNotMatch(written, /creation_rules/);
  } finally {
    removeTree(dir);
  }
});
