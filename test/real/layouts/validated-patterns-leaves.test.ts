/**
 * multicloud-gitops (realrepos/ of the shared data): the leaves `render --leaves` builds for each
 * local chart equal `helm template` with what the clustergroup chart's Application gives the chart
 * (values-global.yaml, values-<group>.yaml, global.pattern, global.namespace = the destination
 * namespace), plus the namespace the sync sets on objects without one (ADR 0420); remote charts are reported per app; validate reports nothing in Helm-built folders.
 * The same behaviours on small fixtures: test/layouts/validated-patterns-leaves.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { cli } from '../../support/fleet-fixture.js';
import { parseManifests, placeInNamespace, serializeObject } from '../../../src/render/leaves/manifests.js';
import { realRepo } from '../../support/shared.js';
import type { PlanJson } from '../../support/plan-json.js';
import { removeDir, requireTools, tempDir, toolEnv } from '../../helpers/tools.js';

const mcg = () => realRepo('validatedpatterns__multicloud-gitops');

/** Objects of a YAML stream, each as canonical JSON, sorted. */
function objects(text: string): string[] {
  const canon = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v;
  return parseAllDocuments(text)
    .map((d) => d.toJS({}) as unknown)
    .filter((o) => o !== null && o !== undefined)
    .map((o) => JSON.stringify(canon(o)))
    .sort();
}

test('multicloud-gitops render --leaves: each local chart equals helm template with the values and parameters of its Application', async () => {
  const { helm } = requireTools();
  const dir = tempDir('vp-leaves');
  try {
    const plan = JSON.parse((await cli(['plan', '--repo', mcg(), '-o', 'json'])).stdout) as PlanJson;
    const r = await cli(['render', '--repo', mcg(), '--out', join(dir, 'out'), '--leaves']);
    let compared = 0;
    for (const c of plan.clusters) {
      for (const app of c.apps) {
        const path = app.source.path;
        if (!path?.startsWith('charts/')) continue;
        const ns = app.destination.namespace!;
        const expected = execFileSync(helm, [
          'template', app.name, join(mcg(), path), '--namespace', ns, '--include-crds',
          '--values', join(mcg(), 'values-global.yaml'), '--values', join(mcg(), `values-${c.name}.yaml`),
          '--set', `global.namespace=${ns}`, '--set', 'global.pattern=multicloud-gitops',
        ], { encoding: 'utf8', env: toolEnv(join(dir, 'home')) });
        // The leaf is helm template's output plus the namespace the sync sets: the destination (ADR 0420).
        const synced = placeInNamespace(parseManifests(expected, 'helm template'), ns).objects.map(serializeObject).join('---\n');
        const leafDir = join(dir, 'out', c.name, 'manifests', app.name);
        const actual = readdirSync(leafDir).sort().map((f) => readFileSync(join(leafDir, f), 'utf8')).join('\n---\n');
        assert.deepEqual(objects(actual), objects(synced), `${c.name}/${app.name}`);
        compared++;
      }
    }
    assert.equal(compared, 4, 'hello-world and config-demo on hub and group-one');
    // Remote charts cannot be fetched offline: each app says so.
    for (const app of ['hub, app acm', 'hub, app openshift-external-secrets', 'hub, app vault', 'group-one, app openshift-external-secrets']) {
      assert.match(r.stderr, new RegExp(`cluster ${app}: remote chart .* is not in the local chart cache`));
    }
  } finally {
    removeDir(dir);
  }
});

test('multicloud-gitops validate: no finding in the chart folders Argo CD builds with Helm', async () => {
  const r = await cli(['validate', '--repo', mcg(), '-o', 'json']);
  const findings = (JSON.parse(r.stdout) as { findings: { code: string; file?: string }[] }).findings;
  assert.deepEqual(findings.filter((f) => f.file?.startsWith('charts/')), []);
  assert.deepEqual(findings.filter((f) => f.code.startsWith('kustomize-')), []);
});
