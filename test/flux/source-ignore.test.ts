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
import { DEFAULT_SOURCE_IGNORE, artifactIgnore, fluxSourceIgnored } from '../../src/model/flux-source-ignore.js';

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

test('flux source ignore: .sourceignore patterns are scoped to their folder, a later pattern wins, spec.ignore adds to the defaults (go-git gitignore matching)', () => {
  const tree: Record<string, string> = {
    '.sourceignore': '# comment\n\n/docs/\n*.draft.yaml\n',
    'clusters/prod/.sourceignore': '/local/\ntest-*.yaml\n!test-keep.yaml\n',
  };
  const dirs = new Set(['.', 'clusters', 'clusters/prod', 'docs']);
  const fs = {
    list: (d: string) => [...new Set(Object.keys(tree).filter((p) => (d === '.' || p.startsWith(`${d}/`))).map((p) => (d === '.' ? p : p.slice(d.length + 1)).split('/')[0]!))],
    isDirectory: (p: string) => dirs.has(p),
    readText: (p: string) => tree[p]!,
  };
  const m = artifactIgnore(fs, undefined);
  const yes = ['docs/x.yaml', 'apps/a.draft.yaml', 'clusters/prod/local/x.yaml', 'clusters/prod/test-a.yaml', 'clusters/prod/.sops.yaml'];
  const no = ['apps/docs/x.yaml', 'clusters/local/x.yaml', 'clusters/test-a.yaml', 'clusters/prod/test-keep.yaml', 'clusters/prod/app.yaml'];
  for (const p of yes) assert.equal(m.ignored(p), true, p);
  for (const p of no) assert.equal(m.ignored(p), false, p);
  // spec.ignore is appended: the defaults and .sourceignore still hold, and its own patterns add to them.
  const withSpec = artifactIgnore(fs, { spec: { ignore: '/*\n!/clusters/\nclusters/**/secret-*.yaml\n' } });
  for (const p of ['apps/x.yaml', 'README.md', 'clusters/prod/x/secret-a.yaml']) assert.equal(withSpec.ignored(p), true, p);
  // `!/clusters/` comes after the defaults and .sourceignore: it brings back even what they leave out, as in go-git.
  for (const p of ['clusters/prod/app.yaml', 'clusters/prod/.sops.yaml', 'clusters/prod/test-a.yaml']) assert.equal(withSpec.ignored(p), false, p);
  // Without a slash: any depth; a folder pattern matches the files below the folder, not a file of that name.
  const g = DEFAULT_SOURCE_IGNORE.with('tmp/\n**/generated/*.yaml\na/**/b.yaml\n[Rr]eadme.yaml\n');
  for (const p of ['x/tmp/y.yaml', 'p/q/generated/z.yaml', 'a/b.yaml', 'a/x/y/b.yaml', 'docs/Readme.yaml']) assert.equal(g.ignored(p), true, p);
  for (const p of ['x/tmp', 'p/generated/q/z.yaml', 'x/a/b.yaml', 'docs/readme.yml']) assert.equal(g.ignored(p), false, p);
});

test('flux source ignore: plan and render --leaves leave out what .sourceignore and the GitRepository spec.ignore name from the folder Flux generates a kustomization for', async () => {
  const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n`;
  const ks = (name: string) => `apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: ${name}\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./apps/${name}\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n`;
  const files: Record<string, string> = {
    'clusters/prod/flux-system/gotk-sync.yaml': gotkSync('prod').replace('  url: ssh://git@example.org/fleet\n', '  url: ssh://git@example.org/fleet\n  ignore: |\n    apps/web/values-*.yaml\n'),
    'clusters/prod/flux-system/kustomization.yaml': 'resources:\n  - gotk-sync.yaml\n',
    'clusters/prod/apps.yaml': ks('web'),
    // A Kustomization left out of the artifact by .sourceignore: Flux never applies it.
    'clusters/prod/disabled/other.yaml': ks('other'),
    '.sourceignore': '/clusters/prod/disabled/\n',
    'apps/web/cm.yaml': cm('web'),
    'apps/web/values-dev.yaml': 'replicas: 1\n',
    'apps/web/.sourceignore': 'notes/\n',
    'apps/web/notes/draft.yaml': 'just: notes\n',
    'apps/other/cm.yaml': cm('other'),
  };
  const dir = writeTree(files);
  try {
    const plan = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(plan.code, 0, plan.stderr + plan.stdout);
    assert.match(plan.stdout, /flux-system\/web"/);
    assert.doesNotMatch(plan.stdout, /flux-system\/other"/);
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const written = readdirSync(join(out, 'prod', 'manifests'), { recursive: true }).map(String).filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join(out, 'prod', 'manifests', f), 'utf8')).join('\n');
    assert.match(written, /name: web/);
    assert.doesNotMatch(written, /replicas: 1|just: notes|name: other/);
  } finally {
    removeTree(dir);
  }
});
