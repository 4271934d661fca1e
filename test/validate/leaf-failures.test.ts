/**
 * `validate --leaves DIR` reports a build failure only a real build finds with the build's own
 * code, file and line, naming the app, its cluster and where the app is defined (ADR 0260):
 * `render --leaves --out DIR` records each failed build in DIR/.fleetplan-leaf-failures.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseFleet, cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { requireTools, tempDir, toolEnv, removeDir } from '../helpers/tools.js';
import { LEAF_FAILURES } from '../../src/adapters/leaf-objects.js';

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';

test('validate --leaves names the failed build (code, file) and the app with its definition, not only "not built"', async () => {
  const { kubectl, helm } = requireTools();
  // A configMapGenerator file that does not exist: static rules do not look, kustomize fails.
  const root = writeTree(
    baseFleet({
      'components/config/kustomization.yaml': 'resources:\n  - cm.yaml\nconfigMapGenerator:\n  - name: g\n    files: [nothere.txt]\n',
      'components/config/cm.yaml': CM.replace('name: x', 'name: y'),
      'components/operator/cm.yaml': CM,
      'components/operator/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    }),
  );
  const work = tempDir('leaf-failures');
  const env = { ...toolEnv(join(work, 'home')), FLEETPLAN_KUSTOMIZE: kubectl, FLEETPLAN_HELM: helm };
  try {
    const out = join(work, 'out');
    const r = await cli(['render', '--repo', root, '--out', out, '--leaves'], process.cwd(), env);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(existsSync(join(out, LEAF_FAILURES)), 'the failure is recorded');
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(out, LEAF_FAILURES), 'utf8')) as object), ['one/config']);
    const v = await cli(['validate', '--repo', root, '--leaves', out, '-o', 'json'], process.cwd(), env);
    assert.equal(v.code, 1, v.stderr);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; file?: string; message: string; app?: string }[] }).findings;
    const f = findings.filter((x) => x.code === 'leaf-build-failed');
    assert.equal(f.length, 1, JSON.stringify(findings, null, 2));
    assert.equal(f[0]!.file, 'components/config', 'at the build render names');
    assert.equal(f[0]!.app, 'config');
    assert.match(f[0]!.message, /^app "config" on cluster one \(defined at groups\/base\/group\.yaml:\d+\): not built: kustomize build of components\/config failed: .*nothere\.txt.* \[build-failed\]$/s);
    assert.ok(!findings.some((x) => x.code === 'leaf-not-built'), 'not the generic finding');
    // Fixed and rendered again: the record is forgotten, validate is clean of it.
    writeTree({ 'components/config/nothere.txt': 'x\n' }, root);
    assert.equal((await cli(['render', '--repo', root, '--out', out, '--leaves'], process.cwd(), env)).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(out, LEAF_FAILURES), 'utf8')), {});
    const v2 = await cli(['validate', '--repo', root, '--leaves', out, '-o', 'json'], process.cwd(), env);
    assert.ok(!v2.stdout.includes('leaf-build-failed'), v2.stdout);
  } finally {
    removeTree(root);
    removeDir(work);
  }
});
