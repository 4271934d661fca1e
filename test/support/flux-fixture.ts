/** Flux objects for test repositories. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree, writeTree } from './fleet-fixture.js';
import type { CliResult } from './fleet-fixture.js';
import { requireTools, toolEnv } from '../helpers/tools.js';

/**
 * `render --leaves` of the repository `files` with the real tools (a fresh HOME and cache), which
 * must succeed; `read` gets the output folder and the command's result before both are removed.
 */
export async function withRenderedLeaves<T>(files: Record<string, string>, read: (out: string, r: CliResult) => T): Promise<T> {
  requireTools();
  const dir = writeTree(files);
  const home = mkdtempSync(join(tmpdir(), 'fleetplan-flux-home-'));
  try {
    const out = join(dir, 'out');
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(home, 'cache')], process.cwd(), toolEnv(home));
    assert.equal(r.code, 0, r.stderr);
    return read(out, r);
  } finally {
    removeTree(dir);
    removeTree(home);
  }
}

/** A FluxInstance flux-system/flux whose spec.sync is the GitRepository https://example.org/fleet.git (main) at `path`, or the source `sync` says. */
export function fluxInstance(path: string, sync: { kind: string; url: string; ref: string } = { kind: 'GitRepository', url: 'https://example.org/fleet.git', ref: 'refs/heads/main' }): string {
  return `apiVersion: fluxcd.controlplane.io/v1
kind: FluxInstance
metadata:
  name: flux
  namespace: flux-system
spec:
  distribution:
    version: 2.x
    registry: ghcr.io/fluxcd
  sync:
    kind: ${sync.kind}
    url: ${sync.url}
    ref: ${sync.ref}
    path: ${path}
`;
}

/** A Flux Kustomization `name` of the flux-system GitRepository at `./path`; `extra` is more of its spec (indented two spaces); `namespace` its metadata.namespace. */
export function fluxKustomization(name: string, path: string, extra = '', namespace?: string): string {
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
${namespace !== undefined ? `  namespace: ${namespace}\n` : ''}spec:
  interval: 1h
  path: ./${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
${extra}`;
}

/** `clusters/<cluster>/flux-system/gotk-sync.yaml` as `flux bootstrap` writes it: the GitRepository and the root Kustomization. */
export function gotkSync(cluster: string): string {
  return `---
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 1m0s
  ref:
    branch: main
  url: ssh://git@example.org/fleet
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: flux-system
  namespace: flux-system
spec:
  interval: 10m0s
  path: ./clusters/${cluster}
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`;
}

/** A Flux Kustomization in flux-system syncing `path` from the GitRepository `source` (flux-system), after `deps` (spec.dependsOn). */
export const kustomizationWithDeps = (name: string, path: string, deps: string[] = [], source = 'flux-system') => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
${deps.length ? `  dependsOn:\n${deps.map((d) => `    - name: ${d}\n`).join('')}` : ''}  interval: 1h
  path: ${path}
  prune: true
  sourceRef:
    kind: GitRepository
    name: ${source}
`;

/** `spec.chart` of a HelmRelease whose chart is the directory `path` of this repository (GitRepository flux-system), indented for a spec. */
export const localChart = (path: string) => `  chart:
    spec:
      chart: ${path}
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
`;

/** A HelmRelease `namespace/name` (interval 1h) whose spec continues with `rest` (indented two spaces). */
export const helmReleaseOf = (name: string, namespace: string, rest: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  interval: 1h
${rest}`;

/** `patches:` turning kustomize-controller's StrictPostBuildSubstitutions gate on or off, each line after `indent`. */
export function strictGatePatch(on: boolean, indent: string): string {
  return [
    'patches:',
    '  - patch: |',
    '      - op: add',
    '        path: /spec/template/spec/containers/0/args/-',
    `        value: --feature-gates=StrictPostBuildSubstitutions=${on}`,
    '    target:',
    '      kind: Deployment',
    '      name: kustomize-controller',
  ].map((l) => `${indent}${l}\n`).join('');
}
