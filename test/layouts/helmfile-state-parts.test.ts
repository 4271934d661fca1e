/**
 * A helmfile state read as `helmfile template` reads it, beyond ADR 0364 (ADR 0383):
 *
 * - a `.gotmpl` state file is rendered part by part (parts split on `---`), each part with the
 *   environment values of the parts before it (their `environments:` and `bases:`), as helmfile's
 *   desired-state loader does; a part written as YAML-looking flow maps (`namespace: {{ .Values.ns }}`)
 *   is rendered, not read as a YAML map;
 * - nested `helmfiles:` (a path, a glob or a directory; `values:` as the sub-helmfile's override
 *   values; `selectors:` over release labels) are followed;
 * - `installed: false` releases are not part of what `helmfile template` renders;
 * - sops `secrets:` of an environment, and a sub-helmfile fleetplan cannot read, are said not read
 *   with file, line and field.
 * Small fixtures written by the tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { releaseSource } from '../../src/layouts/helmfile-flux/reader.js';
import type { HelmfileRelease } from '../../src/model/graphs.js';
import { readHelmfileFixture as read } from '../support/helmfile-read.js';
import { fluxKustomization } from '../support/flux-fixture.js';

const ks = (name: string, path: string, extra = '') => fluxKustomization(name, path, extra, 'flux-system');

const ids = (rs: readonly HelmfileRelease[]) => rs.map((r) => `${r.namespace}/${r.name}`);

test('helmfile .gotmpl state: each part is rendered with the environment values of the parts before it', () => {
  const { releases, findings } = read(
    {
      'env/default.yaml': 'ns: edge\nregistry: oci://ghcr.io/example\n',
      'helmfile.yaml.gotmpl': `environments:
  default:
    values:
      - env/default.yaml
      - replicas: 2
---
releases:
  - name: web
    namespace: {{ .Values.ns }}
    chart: {{ .Values.registry }}/web
    version: 1.0.0
    values:
      - replicaCount: {{ .Values.replicas }}
`,
    },
    'helmfile.yaml.gotmpl',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(ids(releases), ['edge/web']);
  assert.equal(releases[0]!.chart, 'oci://ghcr.io/example/web');
  assert.equal(releases[0]!.line, 8, 'positions are the file\'s lines');
  assert.deepEqual(releaseSource(releases[0]!).helm?.values, { replicaCount: 2 });
});

test('helmfile .gotmpl state: a part that reads a value no earlier part defines fails as helmfile fails, named at its line', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml.gotmpl': `releases:
  - name: web
    namespace: {{ .Values.ns }}
    chart: oci://ghcr.io/example/web
---
environments:
  default:
    values:
      - ns: late
`,
    },
    'helmfile.yaml.gotmpl',
  );
  assert.deepEqual(releases, []);
  const f = findings.filter((x) => x.code === 'helmfile-template-not-read');
  assert.equal(f.length, 1, JSON.stringify(findings));
  assert.equal(f[0]!.line, 3);
  assert.match(f[0]!.message, /map has no entry for key "ns"/);
});

test('helmfile state: nested helmfiles are followed (path, glob, directory), with their values as override values and their selectors', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml': `helmfiles:
  - path: apps/helmfile.yaml.gotmpl
    values:
      - tier: gold
  - path: infra/*.yaml
  - path: more
    selectors:
      - team=b
`,
      'apps/helmfile.yaml.gotmpl': `environments:
  default:
    values:
      - tier: bronze
---
releases:
  - name: shop-{{ .Values.tier }}
    namespace: shop
    chart: oci://ghcr.io/example/shop
`,
      'infra/a.yaml': 'releases:\n  - name: dns\n    namespace: infra\n    chart: oci://ghcr.io/example/dns\n',
      'infra/b.yaml': 'releases:\n  - name: certs\n    namespace: infra\n    chart: oci://ghcr.io/example/certs\n',
      'more/helmfile.yaml': 'releases:\n  - name: one\n    namespace: more\n    chart: oci://ghcr.io/example/one\n    labels:\n      team: a\n  - name: two\n    namespace: more\n    chart: oci://ghcr.io/example/two\n    labels:\n      team: b\n',
    },
    'helmfile.yaml',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(ids(releases), ['shop/shop-gold', 'infra/dns', 'infra/certs', 'more/two']);
  assert.equal(releases[0]!.file, 'apps/helmfile.yaml.gotmpl');
});

test('helmfile state: a sub-helmfile that is not in the repository, or remote, is said not read at its entry', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml': `helmfiles:
  - path: git::https://github.com/example/helmfiles.git@cert-manager/helmfile.yaml?ref=1.0.0
  - missing/helmfile.yaml
`,
    },
    'helmfile.yaml',
  );
  assert.deepEqual(releases, []);
  const f = findings.filter((x) => x.code === 'helmfile-state-not-read');
  assert.deepEqual(f.map((x) => [x.file, x.line]), [['helmfile.yaml', 2], ['helmfile.yaml', 3]]);
  assert.match(f[0]!.message, /helmfiles\[0\].*remote/);
  assert.match(f[1]!.message, /helmfiles\[1\].*missing\/helmfile\.yaml/);
});

test('helmfile state: installed: false releases are not rendered by helmfile template, so they are not apps', () => {
  const { releases } = read(
    {
      'helmfile.yaml.gotmpl': `environments:
  default:
    values:
      - monitoring: false
---
releases:
  - name: on
    namespace: a
    chart: oci://ghcr.io/example/on
  - name: off
    namespace: a
    chart: oci://ghcr.io/example/off
    installed: {{ .Values.monitoring }}
  - name: never
    namespace: a
    chart: oci://ghcr.io/example/never
    installed: false
`,
    },
    'helmfile.yaml.gotmpl',
  );
  assert.deepEqual(ids(releases), ['a/on']);
});

test('helmfile state: sops secrets of the environment are named as not read, never taken as empty', () => {
  const { releases, findings } = read(
    {
      'secrets/default.yaml': 'token: ENC[AES256_GCM,data:abc]\nsops:\n  version: 3.8.1\n',
      'helmfile.yaml': `environments:
  default:
    secrets:
      - secrets/default.yaml
---
releases:
  - name: app
    namespace: app
    chart: oci://ghcr.io/example/app
    values:
      - values.yaml.gotmpl
`,
      'values.yaml.gotmpl': 'token: {{ .Values.token }}\n',
    },
    'helmfile.yaml',
  );
  const f = findings.filter((x) => x.code === 'helmfile-value-not-read');
  assert.equal(f.length, 1, JSON.stringify(findings));
  assert.deepEqual([f[0]!.file, f[0]!.line], ['helmfile.yaml', 4]);
  assert.match(f[0]!.message, /environments\.default\.secrets\[0\].*secrets\/default\.yaml/);
  assert.ok(releases[0]!.notRead?.length, 'the release that reads the environment values is not read');
  assert.equal(releaseSource(releases[0]!).repoURL, 'helmfile');
});

test('a plain helmfile repository: helmfile.yaml.gotmpl or helmfile.d/ at the root is read, as helmfile looks for it', async () => {
  const cases: Record<string, string>[] = [
    { 'helmfile.yaml.gotmpl': 'releases:\n  - name: web\n    namespace: web\n    chart: oci://ghcr.io/example/web\n    version: 1.0.0\n' },
    { 'helmfile.d/10-web.yaml': 'releases:\n  - name: web\n    namespace: web\n    chart: oci://ghcr.io/example/web\n    version: 1.0.0\n' },
  ];
  for (const files of cases) {
    const dir = writeTree(files);
    try {
      const r = await cli(['plan', '--repo', dir, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const p = JSON.parse(r.stdout) as { clusters: { apps: { name: string }[] }[] };
      assert.deepEqual(p.clusters[0]!.apps.map((a) => a.name), ['helmfile:web/web']);
    } finally {
      removeTree(dir);
    }
  }
});

test('helmfile state: an environment values file missing under missingFileHandler: Warn is skipped as helmfile skips it; a base renders with its includer\'s folder as base path', () => {
  const { releases, findings } = read(
    {
      'envs/cluster.yaml': 'default:\n  values:\n    - ns: from-base\n',
      'common/shared.yaml.gotmpl': 'environments:\n{{ readFile "envs/cluster.yaml" | nindent 2 }}\n',
      'helmfile.yaml.gotmpl': `bases:
  - common/shared.yaml.gotmpl
---
environments:
  default:
    missingFileHandler: Warn
    values:
      - override.yaml
---
releases:
  - name: web
    namespace: {{ .Values.ns }}
    chart: oci://ghcr.io/example/web
`,
    },
    'helmfile.yaml.gotmpl',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(findings.map((f) => f.code), ['helmfile-value-skipped']);
  assert.deepEqual(ids(releases), ['from-base/web']);
});

test('helmfile state: the state\'s namespace: overrides every release\'s namespace, as helmfile applies it', () => {
  const { releases } = read({ 'helmfile.yaml': 'namespace: shared\nreleases:\n  - name: a\n    chart: oci://ghcr.io/example/a\n  - name: b\n    namespace: own\n    chart: oci://ghcr.io/example/b\n    needs:\n      - a\n' }, 'helmfile.yaml');
  assert.deepEqual(ids(releases), ['shared/a', 'shared/b']);
});

test('helmfile-flux validate: a Kustomization applying Flux\'s own toolkit APIs (HelmRelease, OCIRepository) is no crd-order error — Flux runs, so they are there; a bootstrap release still is judged', async () => {
  const hr = (name: string) => `apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 1h
  url: oci://ghcr.io/controlplaneio-fluxcd/charts/${name}
  ref:
    tag: 0.30.0
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 1h
  chartRef:
    kind: OCIRepository
    name: ${name}
`;
  const dir = writeTree({
    'kubernetes/bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/example/cilium\n    version: 1.0.0\n',
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', 'kubernetes/apps'),
    'kubernetes/apps/flux-system/flux-operator/ks.yaml': ks('flux-operator', 'kubernetes/apps/flux-system/flux-operator/app'),
    'kubernetes/apps/flux-system/flux-operator/app/kustomization.yaml': 'resources:\n  - ./release.yaml\n',
    'kubernetes/apps/flux-system/flux-operator/app/release.yaml': hr('flux-operator'),
    'kubernetes/apps/flux-system/flux-instance/ks.yaml': ks('flux-instance', 'kubernetes/apps/flux-system/flux-instance/app', '  dependsOn:\n    - name: flux-operator\n'),
    'kubernetes/apps/flux-system/flux-instance/app/kustomization.yaml': 'resources:\n  - ./release.yaml\n',
    'kubernetes/apps/flux-system/flux-instance/app/release.yaml': hr('flux-instance'),
  });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const out = JSON.parse(r.stdout) as { findings: { code: string; message: string }[] };
    assert.deepEqual(out.findings.filter((f) => f.code === 'crd-order').map((f) => f.message), []);
  } finally {
    removeTree(dir);
  }
});

test('helmfile state: a release that merges a template with a YAML merge key (<<: *default) gets its values, hooks and fields, as go-yaml reads it', () => {
  const { releases } = read(
    {
      'helmfile.yaml': `templates:
  default: &default
    missingFileHandler: Warn
    values:
      - values/common.yaml
releases:
  - name: web
    namespace: web
    chart: oci://ghcr.io/example/web
    <<: *default
`,
      'values/common.yaml': 'replicas: 2\n',
    },
    'helmfile.yaml',
  );
  assert.deepEqual(releases[0]!.values, [{ file: 'values/common.yaml', values: { replicas: 2 } }]);
});

test('helmfile state: a release\'s secrets: (helm-secrets, sops) are said not read at the entry, and the release is not built with its values missing', () => {
  const { releases, findings } = read(
    { 'helmfile.yaml': 'releases:\n  - name: app\n    namespace: app\n    chart: oci://ghcr.io/example/app\n    secrets:\n      - secrets/app.yaml\n' },
    'helmfile.yaml',
  );
  const f = findings.filter((x) => x.code === 'helmfile-value-not-read');
  assert.deepEqual(f.map((x) => [x.file, x.line]), [['helmfile.yaml', 6]]);
  assert.match(f[0]!.message, /releases\[0\]\.secrets\[0\]: secret values secrets\/app\.yaml of release app\/app not read/);
  assert.equal(releaseSource(releases[0]!).repoURL, 'helmfile');
});

test('helmfile release: a chart of the repository is built from its folder, with plain values files read (a templated path rendered until it is stable) and a missing one skipped under missingFileHandler: Warn', () => {
  const { releases, findings } = read(
    {
      'deploy/helmfile.yaml': `templates:
  default: &default
    missingFileHandler: Warn
    values:
      - values/common.yaml
      - values/{{\`{{ .Release.Name }}\`}}.yaml
      - values/absent.yaml
releases:
  - name: web
    namespace: web
    chart: ./charts/web
    <<: *default
`,
      'deploy/values/common.yaml': 'replicas: 1\nimage:\n  tag: a\n',
      'deploy/values/web.yaml': 'image:\n  tag: b\n',
      'deploy/charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    },
    'deploy/helmfile.yaml',
  );
  assert.deepEqual(findings.filter((f) => f.severity !== 'info'), []);
  assert.deepEqual(releaseSource(releases[0]!), { path: 'deploy/charts/web', helm: { releaseName: 'web', values: { replicas: 1, image: { tag: 'b' } } } });
});

test('helmfile release: a secrets: file that is not in the repository is skipped under missingFileHandler: Warn, as helmfile skips it', () => {
  const { releases, findings } = read(
    {
      'helmfile.yaml': 'releases:\n  - name: app\n    namespace: app\n    chart: oci://ghcr.io/example/app\n    missingFileHandler: Warn\n    secrets:\n      - secrets/{{`{{ .Release.Name }}`}}.yaml\n  - name: db\n    namespace: app\n    chart: oci://ghcr.io/example/db\n    missingFileHandler: Warn\n    secrets:\n      - secrets/{{`{{ .Release.Name }}`}}.yaml\n',
      'secrets/db.yaml': 'password: ENC[AES256_GCM,data:abc]\n',
    },
    'helmfile.yaml',
  );
  assert.deepEqual(findings.map((f) => f.line), [13]);
  assert.equal(releases[0]!.notRead, undefined);
  assert.ok(releases[1]!.notRead?.length);
});

test('helmfile-flux: a ks.yaml under a folder whose kustomization.yaml does not list it is not applied by Flux, so it is no app, and the plan says so', async () => {
  const dir = writeTree({
    'kubernetes/bootstrap/helmfile.yaml': 'releases:\n  - name: cilium\n    namespace: kube-system\n    chart: oci://ghcr.io/example/cilium\n    version: 1.0.0\n',
    'kubernetes/flux/cluster/ks.yaml': ks('cluster-apps', 'kubernetes/apps'),
    'kubernetes/apps/media/kustomization.yaml': 'namespace: media\nresources:\n  - ./listed/ks.yaml\n',
    'kubernetes/apps/media/listed/ks.yaml': ks('listed', 'kubernetes/apps/media/listed/app'),
    'kubernetes/apps/media/forgotten/ks.yaml': ks('forgotten', 'kubernetes/apps/media/forgotten/app'),
    'kubernetes/apps/tools/one/ks.yaml': ks('one', 'kubernetes/apps/tools/one/app'),
  });
  try {
    const r = await cli(['plan', '--repo', dir, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const p = JSON.parse(r.stdout) as { clusters: { apps: { name: string }[] }[]; findings: { code: string; file?: string; message: string }[] };
    // tools/ has no kustomization.yaml: Flux generates one over every file under it.
    assert.deepEqual(p.clusters[0]!.apps.map((a) => a.name).filter((n) => n.startsWith('flux:')).sort(), ['flux:flux-system/cluster-apps', 'flux:flux-system/one', 'flux:media/listed']);
    const f = p.findings.filter((x) => x.code === 'flux-kustomization-not-listed');
    assert.deepEqual(f.map((x) => x.file), ['kubernetes/apps/media/forgotten/ks.yaml']);
    assert.match(f[0]!.message, /kubernetes\/apps\/media\/kustomization\.yaml/);
  } finally {
    removeTree(dir);
  }
});
