/**
 * An app-of-apps whose root is `kustomize build` of a directory listing Applications, and whose
 * children list theirs through kustomize again (the most common hand-written layout). Each
 * Application reached is the app itself: the parent's build delivering that very manifest is not a
 * second Application of the same name. Found on a real homelab repository, where validate reported
 * 44 duplicate-app errors, one per Application. A real duplicate (two files writing one name) is
 * still reported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const app = (name: string, path: string) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/acme/homelab.git
    targetRevision: main
    path: ${path}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
`;

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

function repo(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'argocd/root-app.yaml': app('root', 'argocd'),
    'argocd/infra.yaml': app('infra', 'apps/infra'),
    'argocd/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - root-app.yaml\n  - infra.yaml\n`,
    'apps/infra/a-app.yaml': app('a', 'apps/infra/a'),
    'apps/infra/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - a-app.yaml\n`,
    'apps/infra/a/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - cm.yaml\n`,
    'apps/infra/a/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n',
    ...extra,
  };
}

type Found = { code: string; file: string; line: number; message: string };
async function findings(dir: string): Promise<Found[]> {
  const r = await cli(['validate', '--repo', dir, '-o', 'json']);
  return (JSON.parse(r.stdout) as { findings: Found[] }).findings;
}

test('app-of-apps through kustomize: an Application delivered by its parent is the app, not a duplicate', async () => {
  const dir = writeTree(repo());
  try {
    assert.deepEqual((await findings(dir)).filter((f) => f.code === 'duplicate-app'), []);
  } finally {
    removeTree(dir);
  }
});

test('app-of-apps through kustomize: the root build\'s Applications have their own file and line', async () => {
  const dir = writeTree(repo({ 'argocd/infra.yaml': app('infra', 'apps/missing') }));
  try {
    const missing = (await findings(dir)).find((f) => f.code === 'missing-path' || /apps\/missing/.test(f.message));
    assert.ok(missing, 'a finding about apps/missing');
    assert.equal(missing.file, 'argocd/infra.yaml');
  } finally {
    removeTree(dir);
  }
});

test('two files writing Applications of one name in one namespace are still a duplicate-app', async () => {
  const dir = writeTree(repo({
    'apps/infra/b-app.yaml': app('a', 'apps/infra/a'),
    'apps/infra/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - a-app.yaml\n`,
    'argocd/other.yaml': app('a', 'apps/infra/a'),
    'argocd/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - root-app.yaml\n  - infra.yaml\n  - other.yaml\n`,
  }));
  try {
    const dups = (await findings(dir)).filter((f) => f.code === 'duplicate-app');
    assert.ok(dups.length > 0, 'the second Application named a is reported');
  } finally {
    removeTree(dir);
  }
});
