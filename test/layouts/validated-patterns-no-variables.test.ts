/**
 * Validated Patterns (ADR 0344): Argo CD and the clustergroup chart substitute none of fleetplan's
 * `${VAR}` variables, neither in the Applications the chart writes nor in the leaves Argo CD builds.
 * A `${X}` there is output verbatim and is never an undefined-variable finding.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const files: Record<string, string> = {
  'values-global.yaml': 'global:\n  pattern: demo\nmain:\n  clusterGroupName: hub\n  git:\n    repoURL: https://git.example.com/demo.git\n    revision: main\n',
  'values-hub.yaml': [
    'clusterGroup:',
    '  name: hub',
    '  namespaces:',
    '    - web',
    '  applications:',
    '    web:',
    '      name: web',
    '      namespace: web',
    '      path: charts/web',
    '      overrides:',
    '        - name: image.tag',
    '          value: ${IMAGE_TAG}',
    '      extraValueFiles:',
    '        - /overrides/${SITE}.yaml',
    '',
  ].join('\n'),
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  run.sh: echo ${BASE}/bin\n',
};

test('Validated Patterns: a ${X} in an application\'s overrides is written verbatim into the Application and is no undefined-variable', async () => {
  const dir = writeTree(files);
  try {
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    type App = { kind: string; metadata: { name: string }; spec: { source: { helm: { parameters: { name: string; value: string }[] } } } };
    const web = (JSON.parse(r.stdout) as { items: App[] }).items.find((o) => o.kind === 'Application' && o.metadata.name === 'web')!;
    assert.deepEqual(web.spec.source.helm.parameters.find((p) => p.name === 'image.tag'), { name: 'image.tag', value: '${IMAGE_TAG}' });
    const v = await cli(['validate', '--repo', dir]);
    assert.doesNotMatch(v.stdout + v.stderr, /undefined-variable/);
  } finally {
    removeTree(dir);
  }
});

test('Validated Patterns: render --leaves writes a ${X} of a chart\'s template verbatim (Argo CD\'s Helm substitutes nothing)', async (t) => {
  const dir = writeTree(files);
  const out = writeTree({});
  try {
    const r = await cli(['render', '--repo', dir, '--cluster', 'hub', '--leaves', '--out', out]);
    if (r.code !== 0 && /helm.*not found|no helm/i.test(r.stderr)) {
      t.skip('no helm');
      return;
    }
    assert.equal(r.code, 0, r.stderr);
    const { execFileSync } = await import('node:child_process');
    const text = execFileSync('grep', ['-r', 'run.sh', out], { encoding: 'utf8' });
    assert.match(text, /echo \$\{BASE\}\/bin/);
  } finally {
    removeTree(dir);
    removeTree(out);
  }
});
