/**
 * validate ⊇ render (issue #13 part 4, ADR 0218). The codes of every error `render --leaves`
 * raises are read from the source (src/render, the leaf pipeline); each must be in the table
 * below, and each entry's fixture makes render raise that code while `validate --leaves` over
 * render's output reports it (and plain `validate` too, where the table names a static code).
 * A new error code in render fails this test until validate covers it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadFleet, renderFleetLeaves, resolveFleet, validateFleet } from '../../src/index.js';
import { leafObjectsFromDirectory } from '../../src/adapters/leaf-objects.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, tempDir, toolEnv, removeDir } from '../helpers/tools.js';
import { fluxKustomization } from '../support/flux-fixture.js';

/** Error codes thrown (InputError, ToolError, …) by the render stage and its leaf pipeline. */
function renderErrorCodes(): Set<string> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk('src/render');
  files.push('src/api/leaves.ts', 'src/api/render.ts');
  const codes = new Set<string>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/new (?:InputError|ToolError|UsageError|OperationError)\(/g)) {
      // The code of this constructor call: the first `code: '…'` before the statement ends.
      const rest = text.slice(m.index, m.index + 600);
      const end = rest.search(/\);\s*$/m);
      const c = /code: '([a-z-]+)'/.exec(end < 0 ? rest : rest.slice(0, end + 2));
      if (c) codes.add(c[1]!);
    }
  }
  return codes;
}

interface Case {
  /** What makes render raise the code. */
  what: string;
  /** Files over the base fleet (test/support/fleet-fixture.ts: apps operator and config on cluster one). */
  files: Record<string, string>;
  /** The app render fails. */
  app: string;
  /** The code plain `validate` reports for it at render's file (undefined: only found with --leaves). */
  staticCode?: string;
  /** The whole repository instead of `files` over the base fleet (another layout). */
  repo?: Record<string, string>;
  /** Run on the written repository before loading it (what a string file cannot be: a symlink). */
  setup?: (root: string) => void;
  /** Every app render fails with the code, when it is more than `app`. */
  apps?: string[];
}

const fluxKs = fluxKustomization;

/** A Flux repository (the helmfile-flux layout) with one app, media/web, whose manifests are `manifest`. */
const fluxRepo = (manifest: string, postBuild = ''): Record<string, string> => ({
  'kubernetes/flux/cluster/ks.yaml': fluxKs('cluster-apps', 'kubernetes/apps').replace('  name: cluster-apps\n', '  name: cluster-apps\n  namespace: flux-system\n'),
  'kubernetes/apps/media/kustomization.yaml': 'namespace: media\nresources:\n  - ./web/ks.yaml\n',
  'kubernetes/apps/media/web/ks.yaml': fluxKs('web', 'kubernetes/apps/media/web/app', `  targetNamespace: media\n${postBuild}`),
  'kubernetes/apps/media/web/app/kustomization.yaml': 'resources:\n  - ./cm.yaml\n',
  'kubernetes/apps/media/web/app/cm.yaml': manifest,
});

const group = (operator: string) => `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: base
spec:
  apps:
    operator:
${operator}
    config:
      path: components/config
      namespace: op
      needs: [operator]
`;

const CASES: Record<string, Case | { excluded: string }> = {
  'missing-path': {
    what: 'an app path that does not exist',
    files: { 'groups/base/group.yaml': group('      path: components/nowhere\n      namespace: op\n      wave: 5') },
    app: 'operator',
    staticCode: 'missing-path',
  },
  'path-escapes-repo': {
    what: 'an app path above the repository root',
    files: { 'groups/base/group.yaml': group('      path: ../outside\n      namespace: op\n      wave: 5') },
    app: 'operator',
    staticCode: 'path-escapes-repo',
  },
  'undefined-variable': {
    what: 'a leaf manifest using a variable the cluster does not define',
    files: {
      'components/operator/kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: info\n  namespace: op\ndata:\n  domain: ${CLUSTER_BASE_DOMAIN}\n',
    },
    app: 'operator',
    staticCode: 'undefined-variable',
  },
  'build-failed': {
    what: 'a kustomization kustomize refuses',
    files: { 'components/operator/kustomization.yaml': 'resources: []\nnotAField: 1\n' },
    app: 'operator',
  },
  'invalid-manifests': {
    what: 'a variable whose value breaks the YAML of the built manifests',
    files: {
      'clusters/one/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: one\nspec:\n  role: hub\n  sector: canary\n  groups: [base]\n  vars:\n    ODD: "a: b: c"\n',
      'components/operator/kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'components/operator/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: info\n  namespace: op\ndata:\n  odd: ${ODD}\n',
    },
    app: 'operator',
  },
  'chart-not-cached': {
    what: 'a remote chart that is not in the local chart cache',
    files: { 'groups/base/group.yaml': group('      chart: nothing-here\n      repoURL: https://charts.invalid/x\n      targetRevision: 1.0.0\n      namespace: op\n      wave: 5') },
    app: 'operator',
  },
  'chart-dependency-not-vendored': {
    what: 'a chart of the repository whose remote dependency is not vendored in its charts/ folder',
    files: {
      'groups/base/group.yaml': group('      path: components/shop\n      namespace: op\n      wave: 5'),
      'components/shop/Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n  - name: redis\n    version: 17.3.7\n    repository: https://charts.invalid/stable\n',
      'components/shop/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shop\n',
    },
    app: 'operator',
  },
  'remote-not-fetched': {
    what: 'a kustomization reading a remote base, offline (no --fetch)',
    files: { 'components/operator/kustomization.yaml': 'resources:\n  - https://github.com/acme/bases//operator?ref=v1\n' },
    app: 'operator',
  },
  'flux-substitution': {
    what: 'a Flux post-build substitution Flux refuses',
    files: {},
    repo: fluxRepo('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n  v: "${APP-web}"\n', '  postBuild:\n    substitute:\n      APP: web\n'),
    app: 'flux:media/web',
  },
  'flux-substitution-unresolved': {
    what: 'a Flux substituteFrom Secret that only the cluster has',
    files: {},
    repo: fluxRepo('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n  v: ${SECRET_DOMAIN}\n', '  postBuild:\n    substituteFrom:\n      - kind: Secret\n        name: cluster-secrets\n'),
    app: 'flux:media/web',
  },
  'parse-error': { excluded: "raised inside one Flux HelmRelease's chart build (a valuesFiles entry that is not YAML, ADR 0418), which render --leaves reports as that HelmRelease not rendered, a warning, without failing the app; validate does not read Flux valuesFiles yet" },
  'symlink-outside-repo': {
    what: 'a file of an app linked to a file outside the repository',
    files: { 'components/operator/kustomization.yaml': 'resources:\n  - cm.yaml\n' },
    setup: (root) => symlinkSync('/etc/hostname', join(root, 'components/operator/cm.yaml')),
    app: 'operator',
    // kustomize would follow the link: no app is built while it is there (ADR 0210).
    apps: ['config', 'operator'],
    staticCode: 'symlink-outside-repo',
  },
  'not-a-kustomization': { excluded: 'raised by `cmp generate` (the Argo CD plugin), not by render' },
  cancelled: { excluded: 'builds not started because writing the output directory failed (ADR 0276): that failure is the one reported, not an input error' },
  internal: { excluded: 'an OperationError for an unexpected exception: a bug, not an input error' },
  'oci-not-fetched': {
    what: 'an Argo CD 3.1 oci:// source offline (no --fetch)',
    files: { 'groups/base/group.yaml': group('      repoURL: oci://ghcr.io/acme/operator\n      targetRevision: 1.0.0\n      path: .\n      namespace: op\n      wave: 5') },
    app: 'operator',
  },
  'invalid-oci-reference': {
    what: 'an oci:// source whose revision is neither a tag, a digest nor a range',
    files: { 'groups/base/group.yaml': group('      repoURL: oci://ghcr.io/acme/operator\n      targetRevision: "not a tag!"\n      path: .\n      namespace: op\n      wave: 5') },
    app: 'operator',
    staticCode: 'invalid-oci-reference',
  },
  'chart-repository-not-oci': {
    what: 'a chart repository without a scheme (IP:port) whose repository Secret does not enable OCI',
    files: {
      'groups/base/group.yaml': group('      chart: operator\n      repoURL: 127.0.0.1:5000/charts\n      targetRevision: 1.0.0\n      namespace: op\n      wave: 5'),
      'argocd/repository.yaml': 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: charts\n  namespace: argocd\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  type: helm\n  url: 127.0.0.1:5000/charts\n',
    },
    app: 'operator',
    staticCode: 'chart-repository-not-oci',
  },
  'plugin-not-run': { excluded: 'raised only for a plugin source inside a pulled OCI artifact (--fetch and a registry); offline, validate reads no artifact, and the plan notes that the artifact is not read (ADR 0317)' },
  'jsonnet-not-evaluated': { excluded: 'raised only for Jsonnet inside a pulled OCI artifact (--fetch and a registry); offline, validate reads no artifact, and the plan notes that the artifact is not read (ADR 0317); Jsonnet of the repository is judged by the jsonnet rule' },
  'tool-missing': { excluded: 'a tool this machine lacks (jsonnet, helm, kustomize): the run\'s environment, not the repository; `fleetplan version` names it' },
  'jsonnet-outside-repo': {
    what: 'a Jsonnet file of a directory source importing a file above the repository (ADR 0303, 0319)',
    files: {
      'groups/base/group.yaml': group('      path: components/web\n      namespace: op\n      wave: 5'),
      'components/web/main.jsonnet': "// climbs out of the checkout\nimport '../../../outside.libsonnet'\n",
    },
    app: 'operator',
    staticCode: 'jsonnet-outside-repo',
  },
};

test('every error code render raises is in the table', () => {
  const codes = [...renderErrorCodes()].sort();
  assert.ok(codes.length >= 5, `found ${codes.join(', ')}`);
  assert.deepEqual(codes.filter((c) => !(c in CASES)), [], 'render error codes validate is not proven to cover');
});

for (const [code, c] of Object.entries(CASES)) {
  if ('excluded' in c) continue;
  test(`render's ${code} (${c.what}) is a validate finding`, async () => {
    const { kubectl, helm } = requireTools();
    const root = writeTree(c.repo ?? baseFleet(c.files));
    c.setup?.(root);
    const work = tempDir('covers-render');
    try {
      const out = join(work, 'out');
      const resolved = resolveFleet(loadFleet(root).fleet);
      const { run } = await renderFleetLeaves(resolved, { outDir: out, cacheDir: join(work, 'cache'), kustomize: kubectl, helm, env: toolEnv(join(work, 'home')) });
      const failed = run.results.filter((r) => r.error);
      assert.deepEqual(
        failed.map((r) => [r.app, r.error!.code]).sort(),
        (c.apps ?? [c.app]).map((a) => [a, code]),
        failed.map((r) => r.error!.message).join('\n'),
      );
      const renderLoc = failed.find((r) => r.app === c.app)!.error!.location;
      if (c.staticCode) {
        const f = validateFleet(resolved).filter((x) => x.code === c.staticCode);
        assert.equal(f.length, 1, `plain validate reports ${c.staticCode}: ${JSON.stringify(f)}`);
        if (renderLoc?.line !== undefined) {
          // Render names a line: validate names the same file, line and column.
          assert.deepEqual([f[0]!.file, f[0]!.line, f[0]!.column], [renderLoc.file, renderLoc.line, renderLoc.column]);
        } else if (renderLoc) {
          assert.ok(f[0]!.file === renderLoc.file || f[0]!.message.includes(renderLoc.file), `${f[0]!.file}: ${f[0]!.message} names ${renderLoc.file}`);
        }
      }
      const withLeaves = validateFleet(resolved, { leaves: leafObjectsFromDirectory(out) });
      const codes = withLeaves.filter((x) => x.app === c.app || x.code === c.staticCode).map((x) => x.code);
      assert.ok(codes.includes('leaf-build-failed') || (c.staticCode !== undefined && codes.includes(c.staticCode)), `validate --leaves: ${codes.join(', ')}`);
      // The build's failure, as render --leaves recorded it in DIR (ADR 0260): render's code, at
      // render's file, line and column, naming the app and where it is defined.
      const built = withLeaves.find((x) => x.code === 'leaf-build-failed' && x.app === c.app);
      assert.ok(built, `validate --leaves reports the build failure of ${c.app}: ${codes.join(', ')}`);
      assert.match(built.message, new RegExp(`^app "${c.app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" on cluster \\S+ .*not built: .*\\[${code}\\]$`, 's'));
      if (renderLoc?.file) assert.deepEqual([built.file, built.line, built.column], [renderLoc.file, renderLoc.line, renderLoc.column], built.message);
    } finally {
      removeTree(root);
      removeDir(work);
    }
  });
}

test('validate --leaves reads a Flux Kustomization\'s leaves from the folder render names after it (flux_<ns>_<name>)', () => {
  const work = tempDir('leaf-objects-flux');
  try {
    writeTree({ 'one/manifests/flux_media_web/configmap-s.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n' }, work);
    const objects = leafObjectsFromDirectory(work).objects('one', 'flux:media/web');
    assert.deepEqual(objects?.map((o) => (o.metadata as { name: string }).name), ['s']);
  } finally {
    removeDir(work);
  }
});
