import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'js-yaml';
import { UsageError } from '../../src/errors/index.js';
import { cmpPluginObjects } from '../../src/generate/cmp-plugin.js';

test('defines the plugin in a ConfigMap that runs fleetplan cmp with the declared variables', () => {
  const { configMap } = cmpPluginObjects({ namespace: 'openshift-gitops', image: 'quay.io/example/fleetplan:0.1.0', variables: ['PLATFORM_BASE_DOMAIN', 'CLUSTER_NAME', 'CLUSTER_NAME'] });
  const cm = configMap as { metadata: { name: string; namespace: string }; data: { 'plugin.yaml': string } };
  assert.deepEqual(cm.metadata, { name: 'fleetplan-cmp-plugin', namespace: 'openshift-gitops' });
  assert.deepEqual(load(cm.data['plugin.yaml']), {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ConfigManagementPlugin',
    metadata: { name: 'fleetplan' },
    spec: {
      discover: { find: { command: ['fleetplan', 'cmp', 'discover'] } },
      generate: { command: ['fleetplan'], args: ['cmp', 'generate', '--variable', 'CLUSTER_NAME', '--variable', 'PLATFORM_BASE_DOMAIN'] },
    },
  });
});

test('patches the ArgoCD repo-server with a sidecar that receives the variables as ARGOCD_ENV_', () => {
  const { argocdPatch } = cmpPluginObjects({ namespace: 'gitops', image: 'img:1', pluginName: 'setenv-cmp-plugin', variables: [], argocdName: 'argocd' });
  const p = argocdPatch as any;
  assert.equal(p.kind, 'ArgoCD');
  assert.deepEqual(p.metadata, { name: 'argocd', namespace: 'gitops' });
  const [sidecar] = p.spec.repo.sidecarContainers;
  assert.equal(sidecar.name, 'setenv-cmp-plugin');
  assert.deepEqual(sidecar.command, ['/var/run/argocd/argocd-cmp-server']);
  assert.deepEqual(sidecar.envFrom, [{ configMapRef: { name: 'environment-variables' }, prefix: 'ARGOCD_ENV_' }]);
  assert.deepEqual(
    sidecar.volumeMounts.map((m: { mountPath: string; name: string }) => `${m.name}:${m.mountPath}`),
    ['var-files:/var/run/argocd', 'plugins:/home/argocd/cmp-server/plugins', 'setenv-cmp-plugin-cmp-tmp:/tmp', 'setenv-cmp-plugin-cmp-plugin:/home/argocd/cmp-server/config/plugin.yaml'],
  );
  assert.deepEqual(p.spec.repo.volumes, [
    { name: 'setenv-cmp-plugin-cmp-plugin', configMap: { name: 'setenv-cmp-plugin-cmp-plugin' } },
    { name: 'setenv-cmp-plugin-cmp-tmp', emptyDir: {} },
  ]);
});

test('refuses a variable name that the plugin could never substitute', () => {
  assert.throws(() => cmpPluginObjects({ namespace: 'n', image: 'i', variables: ['cluster-name'] }), UsageError);
});
