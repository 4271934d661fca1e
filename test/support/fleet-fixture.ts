/** Small fleets written to temporary directories, and an in-process CLI runner. */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../../src/cli/run.js';

export function writeTree(files: Record<string, string>, dir = mkdtempSync(join(tmpdir(), 'fleetplan-test-'))): string {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: string[], cwd = process.cwd(), env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd,
  });
  return { code, stdout, stderr };
}

/** A minimal valid fleet; override or add files per test. */
export function baseFleet(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    'fleet.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: t
spec:
  repoURL: https://git.example.com/fleet.git
  revision: main
  sectors:
    - name: canary
    - name: production
      revision: 0123456789abcdef0123456789abcdef01234567
  vars:
    DOMAIN: example.com
  defaults:
    project: platform
    syncOptions:
      - ServerSideApply=true
`,
    'groups/base/group.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: base
spec:
  apps:
    operator:
      path: components/operator
      namespace: op
      wave: 5
    config:
      path: components/config
      namespace: op
      needs: [operator]
`,
    'clusters/one/cluster.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Cluster
metadata:
  name: one
spec:
  role: hub
  sector: canary
  groups: [base]
`,
    'components/operator/kustomization.yaml': 'resources: []\n',
    'components/config/kustomization.yaml': 'resources: []\n',
    ...overrides,
  };
}

/**
 * An Argo CD Application in namespace argocd whose one source is `path` of `repoURL` at
 * `revision`, sent to the in-cluster destination namespace `namespace`.
 */
export function argoPathApplication(o: { name: string; path: string; namespace: string; repoURL?: string; revision?: string; project?: string }): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${o.name}
  namespace: argocd
spec:
  project: ${o.project ?? 'default'}
  source:
    repoURL: ${o.repoURL ?? 'https://github.com/acme/platform.git'}
    targetRevision: ${o.revision ?? 'main'}
    path: ${o.path}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${o.namespace}
`;
}

/**
 * An Argo CD Application named `name` (namespace argocd, project default) whose `spec.source` is
 * `source` (indented 4), or whose `spec.sources` list it is when `field` is `sources`.
 */
export function argoApplication(name: string, source: string, field: 'source' | 'sources' = 'source'): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: default
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
  ${field}:
${source}`;
}

/**
 * An Argo CD ApplicationSet `name` (namespace argocd, goTemplate) whose list generator gives one
 * element `{ app }` per name in `apps`, each an Application `{{.app}}` of `path` sent to the
 * in-cluster namespace `{{.app}}`.
 */
export function argoListApplicationSet(o: { name: string; apps: string[]; path: string; repoURL?: string }): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ${o.name}
  namespace: argocd
spec:
  goTemplate: true
  generators:
    - list:
        elements:
${o.apps.map((a) => `          - app: ${a}\n`).join('')}  template:
    metadata:
      name: '{{.app}}'
    spec:
      project: default
      source:
        repoURL: ${o.repoURL ?? 'https://github.com/acme/platform.git'}
        targetRevision: main
        path: ${o.path}
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{.app}}'
`;
}

/**
 * A CustomResourceDefinition of `kind` in `group` (version v1, status subresource, any fields kept)
 * with the given scope; `plural` defaults to the lower-cased kind with an `s`.
 */
export function customResourceDefinition(kind: string, group: string, scope: 'Cluster' | 'Namespaced', plural = `${kind.toLowerCase()}s`): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
spec:
  group: ${group}
  names: {kind: ${kind}, listKind: ${kind}List, plural: ${plural}, singular: ${kind.toLowerCase()}}
  scope: ${scope}
  versions:
    - name: v1
      served: true
      storage: true
      subresources: {status: {}}
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
}
