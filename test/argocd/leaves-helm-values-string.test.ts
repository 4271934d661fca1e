/**
 * An Argo CD Helm source's `helm.values` (a YAML string) reaches `helm template` in render
 * --leaves, as the repo-server passes it; `valuesObject` wins over it when both are given. The
 * leaves were built with the chart's defaults only, in single- and multi-source Applications alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { argoApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const source = (indent: string, extra: string) => `${indent}repoURL: https://github.com/acme/platform.git
${indent}targetRevision: main
${indent}path: chart
${indent}helm:
${indent}  values: |
${indent}    message: from-values
${extra}`;

test('render --leaves: helm.values of an Argo CD source reaches helm template; valuesObject wins over it', async () => {
  const dir = writeTree({
    'apps/single.yaml': argoApplication('single', source('    ', '')),
    'apps/multi.yaml': argoApplication('multi', `    - ${source('      ', '').trimStart()}    - repoURL: https://github.com/acme/platform.git\n      targetRevision: main\n      ref: values\n`, 'sources'),
    'apps/both.yaml': argoApplication('both', source('    ', '      valuesObject:\n        message: from-object\n')),
    'chart/Chart.yaml': 'apiVersion: v2\nname: chart\nversion: 0.1.0\n',
    'chart/values.yaml': 'message: default\n',
    'chart/templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  message: {{ .Values.message }}\n',
  });
  try {
    const out = `${dir}/out`;
    const r = await cli(['render', '--repo', dir, '--leaves', '--out', out], process.cwd(), {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const message = (app: string) => {
      const d = `${out}/in-cluster/manifests/${app}`;
      return /message: (\S+)/.exec(readdirSync(d).map((f) => readFileSync(`${d}/${f}`, 'utf8')).join(''))?.[1];
    };
    assert.equal(message('single'), 'from-values');
    assert.equal(message('multi'), 'from-values');
    assert.equal(message('both'), 'from-object');
  } finally {
    removeTree(dir);
  }
});
