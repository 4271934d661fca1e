/**
 * JSON 6902 patches of the kustomizations a fleet builds (`patches:` with a JSON-patch list inline
 * or in a file, and the legacy `patchesJson6902`), checked against the objects their resources
 * produce, statically (./kustomize-static.ts), and metadata.namespace on cluster-scoped kinds.
 *
 * Kustomizations checked: those at the apps' paths, the ones under each cluster's folder, the
 * directory a cluster file is a kustomization of (the region-specs hub's gitops-applications/),
 * the paths of the Applications written there — and everything they include. Each is read once.
 * What kustomize does with an operation on a missing location was measured with kustomize 5.6
 * (docs/adr/0106-json-patch-semantics.md): a `replace` of a missing key is an add (warning:
 * RFC 6902 tools reject it), `remove`, `move`, `test`, and `add`/`replace` below a missing parent
 * fail the build (error), `copy` from a missing location copies null (warning).
 */
import type { Finding } from '../../model/finding.js';
import { sameRepository } from '../../model/git-url.js';
import type { RuleDefinition } from '../engine.js';
import type { RuleContext } from '../context.js';
import { at, normalizeRepoPath } from '../context.js';
import type { OpTrace } from '../kustomize-static.js';
import { StaticKustomize } from '../kustomize-static.js';
import { nestedKustomizations } from '../kustomize-refs.js';
import { argoApplications, clusterKustomizationDir } from '../argo-objects.js';

const shared = new WeakMap<RuleContext['manifests'], StaticKustomize>();

/** One static kustomize reader per validation, shared by the rules that need built objects. */
export function staticKustomize(ctx: RuleContext): StaticKustomize {
  let s = shared.get(ctx.manifests);
  if (!s) shared.set(ctx.manifests, (s = new StaticKustomize(ctx.fs, ctx.manifests)));
  return s;
}

/** The directories the fleet builds: app paths, cluster folders' kustomizations, the layout's own Applications. */
export function fleetKustomizeDirs(ctx: RuleContext): string[] {
  const { fleet, clusters, fs } = ctx;
  const dirs = new Set<string>();
  const add = (path: string | undefined) => {
    const dir = path === undefined ? undefined : normalizeRepoPath(path);
    if (dir !== undefined && fs.isDirectory(dir)) dirs.add(dir);
  };
  for (const c of clusters) for (const app of c.apps) add(ctx.localPath(app));
  for (const c of clusters) {
    add(clusterKustomizationDir(c.file));
    const clusterDir = c.file.includes('/') ? c.file.slice(0, c.file.lastIndexOf('/')) : '.';
    if (clusterDir !== '.') for (const d of nestedKustomizations(fs, clusterDir)) dirs.add(d);
  }
  for (const a of argoApplications(ctx)) {
    if (a.repoURL !== undefined && !sameRepository(a.repoURL, fleet.repoURL)) continue;
    add(a.path);
  }
  return [...dirs].sort();
}

function hintFor(t: OpTrace): string {
  if (t.outcome === 'adds') return 'write `op: add`: it creates the field, and replaces the value where the field exists';
  if (t.outcome === 'copies-null') return `fix \`from\`: the object has nothing at ${t.from ?? '?'}`;
  if (/ has \d+ items?$/.test(t.detail)) return 'use an index inside the list, or `op: add` with `/-` to append';
  if (t.op === 'remove') return 'drop the operation, or make sure the field is there first; JSON patch has no remove-if-present';
  if (t.op === 'test') return 'fix the path, or drop the test';
  if (t.op === 'move') return 'fix `from`';
  const missing = /^it has no (\S+)$/.exec(t.detail)?.[1];
  return missing && missing !== t.pointer ? `add ${missing} first (\`op: add\`, \`path: ${missing}\`, \`value: {}\`), or fix the path` : 'fix the path';
}

function messageFor(t: OpTrace): string {
  const on = `${t.object} (${t.objectFile})`;
  const what = t.from !== undefined ? `${t.op} from ${t.from} to ${t.pointer}` : `${t.op} ${t.pointer}`;
  if (t.outcome === 'adds') {
    return `patch operation ${what} on ${on}: ${t.detail}. kustomize 5 adds the field (its JSON-patch library treats a replace of a missing key as an add); RFC 6902 requires the location to exist, so kubectl patch --type=json and other JSON-patch tools reject this patch`;
  }
  if (t.outcome === 'copies-null') return `patch operation ${what} on ${on}: ${t.detail}, so kustomize 5 copies null to ${t.pointer} (RFC 6902 rejects the patch)`;
  return `patch operation ${what} on ${on}: ${t.detail}, so kustomize build fails`;
}

export const kustomizePatchesRule: RuleDefinition = {
  name: 'kustomize-patches',
  codes: {
    'patch-path-missing': {
      severity: 'warning',
      summary: 'JSON patch operation on a location the target object does not have',
      help: 'A JSON 6902 operation names a location the patched object lacks. kustomize 5 accepts a `replace` of a missing key as an add (warning: RFC 6902 and other JSON-patch tools reject it; write `op: add`), copies null from a missing `from` (warning), and fails the build for `remove`, `move`, `test` and for locations below a missing parent (error).',
    },
    'namespace-on-cluster-scoped': {
      severity: 'warning',
      summary: 'metadata.namespace on a cluster-scoped kind',
      help: 'The API server stores cluster-scoped objects without a namespace, and Argo CD drops it once it knows the kind: the namespace written in the repository is never applied, and tools that key objects by namespace see an object that does not exist. Remove it (kustomize `namespace:` sets it on custom cluster-scoped kinds it does not know).',
    },
    'patch-target-unmatched': {
      severity: 'warning',
      summary: 'JSON patch target selects no object',
      help: 'kustomize 5 applies a JSON patch whose target matches nothing to nothing, without a word. Target fields are anchored regular expressions matched against the original and the current name and namespace. Reported only when every resource of the kustomization was read.',
    },
  },
  run(ctx) {
    const reader = staticKustomize(ctx);
    for (const dir of fleetKustomizeDirs(ctx)) reader.build(dir);
    const out: Finding[] = [];
    const seen = new Set<string>();
    const push = (f: Finding, path: string | undefined) => {
      if (path) f.path = path;
      const key = `${f.code}\0${f.file}\0${f.line ?? 0}\0${f.message}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push(f);
    };
    for (const b of reader.all()) {
      for (const t of b.ops) {
        push(at(t.file, t.line, {
          severity: t.outcome === 'fails' ? 'error' : 'warning',
          code: 'patch-path-missing',
          message: messageFor(t),
          hint: hintFor(t),
        }, t.column), t.path);
      }
      for (const n of b.namespaces) {
        const message =
          n.how === 'patch'
            ? `patch sets metadata.namespace on ${n.object} (${n.objectFile}), which is cluster-scoped: the API server stores it without a namespace`
            : n.how === 'resource'
              ? `${n.object} sets metadata.namespace, but ${n.kind} is cluster-scoped: the API server stores it without a namespace`
              : `namespace of ${n.kustomization} is set on ${n.object} (${n.objectFile}): kustomize does not know that ${n.kind} is cluster-scoped, the API server stores it without a namespace`;
        push(at(n.file, n.line, {
          severity: 'warning',
          code: 'namespace-on-cluster-scoped',
          message,
          hint: n.how === 'patch' ? 'drop the operation on /metadata/namespace' : n.how === 'resource' ? 'remove metadata.namespace' : `move ${n.kind} to a kustomization without namespace:, or accept that the namespace is dropped`,
        }, n.column), n.path);
      }
      for (const u of b.unmatched) {
        push(at(u.file, u.line, {
          severity: 'warning',
          code: 'patch-target-unmatched',
          message: `patch target (${u.target}) of ${u.kustomization} selects none of the objects its resources produce: kustomize 5 applies the patch to nothing`,
          hint: 'fix the target (its fields are anchored regular expressions), or remove the patch',
        }, u.column), u.path);
      }
    }
    return out;
  },
};
