/**
 * A multi-source Application whose sources give manifests from more than one source (a chart and a
 * directory): render --leaves and validate build only the app's first such source. The plan says
 * which sources are not built instead of leaving their objects out silently (ADR 0412).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoApplication, argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const SOURCES = `    - repoURL: https://github.com/acme/platform.git
      targetRevision: main
      path: charts/web
      helm:
        valueFiles:
          - $values/values/web.yaml
    - repoURL: https://github.com/acme/platform.git
      targetRevision: main
      ref: values
    - repoURL: https://github.com/acme/platform.git
      targetRevision: main
      path: extra/web
`;

test('argocd: the plan names the sources of a multi-source app that are not built', async () => {
  const dir = writeTree({
    'bootstrap/root.yaml': argoPathApplication({ name: 'root', path: 'apps', namespace: 'argocd' }),
    'apps/web.yaml': argoApplication('web', SOURCES, 'sources'),
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n',
    'values/web.yaml': 'a: 1\n',
    'extra/web/vs.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n',
  });
  try {
    const p = await cli(['plan', '--repo', dir]);
    assert.equal(p.code, 0, p.stderr);
    assert.match(p.stdout, /note: Application web has 2 sources that give manifests; render --leaves and validate build only the first, spec\.sources\[0\] \(path charts\/web\): spec\.sources\[2\] \(path extra\/web\) is not built\n/);
  } finally {
    removeTree(dir);
  }
});
