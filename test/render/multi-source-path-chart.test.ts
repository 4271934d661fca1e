/**
 * A multi-source Application whose chart is a path of this repository and whose value files come
 * from a `ref` source (`$values/envs/prod.yaml`, Argo CD's documented multi-source pattern).
 * render --leaves used to take the Application's `spec.source` only: a multi-source Application has
 * none, so the chart was templated with its defaults and no value file, release name or parameter,
 * and nothing said so (kostis-codefresh/multi-sources-example: every app rendered with the chart's
 * defaults). The chart's own entry of `spec.sources` carries what Helm gets; `$ref/` files of this
 * repository are read from its root, those of another repository are said not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const URL = 'https://github.com/acme/platform.git';

const application = (name: string, valuesRepo: string) =>
  argoApplication(
    name,
    `    - repoURL: ${URL}
      targetRevision: main
      path: charts/web
      helm:
        releaseName: shop
        valueFiles:
          - $values/envs/common.yaml
          - $values/envs/${name}.yaml
        parameters:
          - name: tier
            value: gold
    - repoURL: ${valuesRepo}
      targetRevision: main
      ref: values
`,
    'sources',
  );

function repo(): string {
  const dir = writeTree({
    'apps/prod.yaml': application('prod', URL),
    'apps/other.yaml': application('other', 'https://github.com/acme/values.git'),
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/values.yaml': 'replicas: 1\nregion: none\ntier: bronze\n',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-web\ndata:\n  replicas: "{{ .Values.replicas }}"\n  region: {{ .Values.region }}\n  tier: {{ .Values.tier }}\n',
    'envs/common.yaml': 'region: eu\n',
    'envs/prod.yaml': 'replicas: 3\n',
  });
  execFileSync('git', ['-C', dir, 'init', '-q', '-b', 'main']);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', URL]);
  return dir;
}

test('render --leaves: a multi-source path chart gets its $values files, release name and parameters; $values of another repository is said not read', async () => {
  const dir = repo();
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--out', out, '--leaves', '--cache-dir', join(out, '.cache')]);
    const manifests = join(out, 'in-cluster', 'manifests', 'prod');
    const files = readdirSync(manifests);
    assert.equal(files.length, 1, files.join(', '));
    const text = readFileSync(join(manifests, files[0]!), 'utf8');
    assert.match(text, /name: shop-web/, 'the release name of the chart\'s source');
    assert.match(text, /replicas: '3'/, '$values/envs/prod.yaml');
    assert.match(text, /region: eu/, '$values/envs/common.yaml');
    assert.match(text, /tier: gold/, 'the parameters');
    assert.match(r.stderr + r.stdout, /other.*value file \$values\/envs\/common\.yaml is in another repository \(https:\/\/github\.com\/acme\/values\.git\)/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
