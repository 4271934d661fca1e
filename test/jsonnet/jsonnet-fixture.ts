/**
 * Fixtures of the Jsonnet tests (ADR 0303, 0318, 0319): a repository with an origin on a Git
 * server, Applications in it, and whether a Jsonnet binary is there to run.
 */
import { execFileSync } from 'node:child_process';
import { findCommand } from '../../src/adapters/process.js';
import { argoApplication, writeTree } from '../support/fleet-fixture.js';

export const PATH_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** The `skip` option of a test that runs Jsonnet: a reason where there is none, false under CI=true (where it must fail). */
export function skipWithoutJsonnet(): string | false {
  if (findCommand('go-jsonnet', PATH_ENV) ?? findCommand('jsonnet', PATH_ENV)) return false;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') return false;
  return 'no jsonnet on PATH (apt-get install jsonnet; .ci/run installs it)';
}

export const REPO_URL = 'https://github.com/acme/platform';

/** An Application of this repository with `source` lines (indented four spaces) after repoURL and targetRevision. */
export function application(name: string, source: string): string {
  return argoApplication(name, `    repoURL: ${REPO_URL}\n    targetRevision: main\n${source}`);
}

/** The files as a git repository whose origin is REPO_URL. */
export function repo(files: Record<string, string>, dir?: string): string {
  const root = writeTree(files, ...(dir ? [dir] : []));
  execFileSync('git', ['-C', root, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', root, 'remote', 'add', 'origin', `${REPO_URL}.git`]);
  return root;
}

/** A kustomization with one ConfigMap named `name`, at `dir`. */
export function kustomizeApp(dir: string, name: string): Record<string, string> {
  return {
    [`${dir}/kustomization.yaml`]: 'resources:\n  - cm.yaml\n',
    [`${dir}/cm.yaml`]: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  app: ${name}\n`,
  };
}

/** Jsonnet: a function `child(name, path)` giving an Application of this repository whose source is `path`. */
export const CHILD_LIB = [
  '{',
  "  child(name, path, dest='https://kubernetes.default.svc'):: {",
  "    apiVersion: 'argoproj.io/v1alpha1',",
  "    kind: 'Application',",
  "    metadata: { name: name, namespace: 'argocd' },",
  '    spec: {',
  "      project: 'default',",
  '      destination: { server: dest, namespace: name },',
  `      source: { repoURL: '${REPO_URL}', targetRevision: 'main', path: path },`,
  '    },',
  '  },',
  '}',
  '',
].join('\n');
