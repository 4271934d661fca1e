/**
 * An app-of-apps whose source is not in the repository (an `oci://` artifact, a chart from a remote
 * Helm repository) holds child Applications fleetplan cannot see offline (issue #12 part 2, ADR
 * 0368). The plan names it in the cluster's notes as "not read", with the source and the parent's
 * file:line, and validate gives one warning at the parent; an ordinary remote chart (a leaf) is
 * not named. The same for a path in another git repository (ADR 0378): the note says why it is not
 * followed (plan reads this clone only; --fetch pulls charts and artifacts for render --leaves, it
 * does not clone repositories to follow).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const root = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: root
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/fleet.git
    targetRevision: main
    path: apps
  destination:
    server: https://kubernetes.default.svc
    namespace: argocd
`;

const ociApps = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: platform
  namespace: argocd
spec:
  project: default
  source:
    repoURL: oci://ghcr.io/acme/platform-apps
    targetRevision: 1.4.0
    path: .
  destination:
    server: https://kubernetes.default.svc
    namespace: argocd
`;

const chartApps = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: addons
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://argoproj.github.io/argo-helm
    chart: argocd-apps
    targetRevision: 2.0.2
    helm:
      valuesObject:
        applications:
          cert-manager:
            namespace: argocd
  destination:
    server: https://kubernetes.default.svc
    namespace: argocd
`;

const leafChart = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ingress
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://kubernetes.github.io/ingress-nginx
    chart: ingress-nginx
    targetRevision: 4.11.0
  destination:
    server: https://kubernetes.default.svc
    namespace: ingress-nginx
`;

type Found = { severity: string; code: string; file?: string; line?: number; path?: string; message: string };
type Plan = { clusters: { name: string; notes: string[] }[] };

test('remote app-of-apps: an oci:// and a remote argocd-apps chart are "not read" in the plan with source and parent file:line, and one warning each', async () => {
  const dir = writeTree({ 'bootstrap/root.yaml': root, 'apps/platform.yaml': ociApps, 'apps/addons.yaml': chartApps, 'apps/ingress.yaml': leafChart });
  try {
    const plan = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as Plan;
    const notes = plan.clusters.flatMap((c) => c.notes);
    const oci = notes.find((n) => n.startsWith('not read:') && n.includes('oci://ghcr.io/acme/platform-apps') && n.includes('apps/platform.yaml:4'));
    assert.ok(oci, notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('not read:') && n.includes('argocd-apps') && n.includes('https://argoproj.github.io/argo-helm') && n.includes('apps/addons.yaml:4')), notes.join('\n'));
    assert.ok(!notes.some((n) => n.startsWith('not read:') && n.includes('ingress-nginx')), 'an ordinary remote chart is a leaf, not named');
    const findings = (JSON.parse((await cli(['validate', '--repo', dir, '-o', 'json'])).stdout) as { findings: Found[] }).findings.filter((f) => f.code === 'apps-not-read');
    assert.deepEqual(findings.map((f) => `${f.severity} ${f.file}:${f.line} ${f.path}`).sort(), [
      'warning apps/addons.yaml:4 spec.source.repoURL',
      'warning apps/platform.yaml:4 spec.source.repoURL',
    ]);
  } finally {
    removeTree(dir);
  }
});

/** An Application whose source is a path of another git repository. */
const gitApp = (name: string, url: string, path: string, namespace: string) => argoPathApplication({ name, repoURL: url, revision: 'v2', path, namespace });

test('remote app-of-apps in another git repository: "not read" with the source, its revision and why, and one warning; a leaf of another repository is not named', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': root,
    'apps/platform.yaml': gitApp('platform', 'https://github.com/acme/platform-gitops.git', 'clusters/prod', 'argocd'),
    'apps/teams.yaml': gitApp('teams', 'https://github.com/acme/teams.git', 'app-of-apps', 'teams'),
    'apps/guestbook.yaml': gitApp('guestbook', 'https://github.com/argoproj/argocd-example-apps.git', 'guestbook', 'guestbook'),
    'apps/argo.yaml': gitApp('argo-cd', 'https://github.com/argoproj/argo-cd.git', 'manifests/cluster-install', 'argocd'),
    // The upstream of a fork: the same path here holds the ApplicationSets, but Argo CD reads the upstream's.
    'apps/upstream.yaml': gitApp('upstream', 'https://github.com/acme/upstream.git', 'manifests/sets', 'sets'),
    'manifests/sets/web.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: web\nspec:\n  generators: []\n  template:\n    metadata:\n      name: web\n    spec:\n      project: default\n      source:\n        repoURL: https://github.com/acme/upstream.git\n        path: web\n      destination:\n        server: https://kubernetes.default.svc\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/acme/fleet.git']);
  try {
    const plan = JSON.parse((await cli(['plan', '--repo', dir, '-o', 'json'])).stdout) as Plan;
    const notes = plan.clusters.flatMap((c) => c.notes).filter((n) => n.startsWith('not read:'));
    const platform = notes.find((n) => n.includes('https://github.com/acme/platform-gitops.git path clusters/prod v2') && n.includes('apps/platform.yaml:4'));
    assert.ok(platform, notes.join('\n'));
    assert.match(platform, /another repository than this clone/);
    assert.match(platform, /--fetch/);
    assert.ok(notes.some((n) => n.includes('https://github.com/acme/teams.git path app-of-apps')), notes.join('\n'));
    assert.ok(!notes.some((n) => /guestbook|argo-cd\.git/.test(n)), 'a leaf, and Argo CD installing itself, are not named');
    assert.ok(notes.some((n) => n.includes('https://github.com/acme/upstream.git path manifests/sets') && n.includes('the same path in this clone holds Argo CD objects')), notes.join('\n'));
    const findings = (JSON.parse((await cli(['validate', '--repo', dir, '-o', 'json'])).stdout) as { findings: Found[] }).findings.filter((f) => f.code === 'apps-not-read');
    assert.deepEqual(findings.map((f) => `${f.severity} ${f.file}:${f.line} ${f.path}`).sort(), [
      'warning apps/platform.yaml:4 spec.source.repoURL',
      'warning apps/teams.yaml:4 spec.source.repoURL',
      'warning apps/upstream.yaml:4 spec.source.repoURL',
    ]);
  } finally {
    removeTree(dir);
  }
});
