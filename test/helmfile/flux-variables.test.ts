/**
 * A Flux Kustomization's manifests on the helmfile-flux layout are substituted by
 * kustomize-controller from its own `postBuild` (substitute, substituteFrom), never with
 * fleetplan's cluster variables. A `${VAR}` whose value comes from a Secret only the cluster has
 * (an ExternalSecret, a SOPS file) is therefore not an undefined-variable error: fleetplan says it
 * cannot know the value. Found on a real home-operations repository (a tunnel id from a Secret).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, removeTree, writeTree } from '../support/fleet-fixture.js';
import { helmfileRepo } from '../support/helmfile-repo.js';

function repo(): Record<string, string> {
  const files = helmfileRepo();
  files['kubernetes/apps/apps/podinfo/ks.yaml'] = files['kubernetes/apps/apps/podinfo/ks.yaml']!.replace(
    '  path: ./kubernetes/apps/apps/podinfo/app\n',
    '  path: ./kubernetes/apps/apps/podinfo/app\n  postBuild:\n    substituteFrom:\n      - kind: Secret\n        name: tunnel-id-secret\n',
  );
  files['kubernetes/apps/apps/podinfo/app/kustomization.yaml'] = 'resources:\n  - endpoint.yaml\n';
  files['kubernetes/apps/apps/podinfo/app/endpoint.yaml'] = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: endpoint\ndata:\n  target: ${TUNNEL_ID}.cfargotunnel.com\n';
  return files;
}

test('helmfile-flux: a variable Flux substitutes from a Secret not in the repository is not an undefined-variable error', async () => {
  const dir = writeTree(repo());
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(r.stdout) as { findings: { code: string; message: string }[] }).findings;
    assert.deepEqual(findings.filter((f) => f.code === 'undefined-variable'), [], r.stdout);
  } finally {
    removeTree(dir);
  }
});
