/**
 * The provisioning directories render writes for the lab hub, built with the real kustomize: every
 * agent-install kind for each spoke, exactly the objects render lists. (The check of generated
 * provisioning objects against the upstream CRD schemas is test/real/generate/provision-crds.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../src/index.js';
import { writeTree as writeOut } from '../../src/adapters/output.js';
import { renderFleet } from '../../src/render/fleet.js';
import { removeTree } from '../support/fleet-fixture.js';
import { tempDir } from '../helpers/tools.js';
import { kustomizeBuild } from '../support/provision.js';
import { resolveFleet } from '../../src/layering/resolve-fleet.js';

test('the lab hub gets every agent-install kind for each spoke, from the rendered kustomize directories', () => {
  const { fleet } = loadFleet('examples/lab');
  const result = renderFleet(resolveFleet(fleet, { clusters: ['hub'] }));
  const out = tempDir('lab-provision');
  try {
    writeOut(out, result.files, []);
    for (const spoke of ['etl4', 'etl6']) {
      const built = kustomizeBuild(`${out}/hub/provision/${spoke}`);
      const count = (kind: string) => built.filter((o) => o.kind === kind).length;
      assert.deepEqual(
        ['Namespace', 'BareMetalHost', 'ExternalSecret', 'NMStateConfig', 'InfraEnv', 'ClusterDeployment', 'AgentClusterInstall', 'ManagedCluster', 'KlusterletAddonConfig', 'Policy'].map((k) => [k, count(k)]),
        [['Namespace', 1], ['BareMetalHost', 3], ['ExternalSecret', 4], ['NMStateConfig', 3], ['InfraEnv', 1], ['ClusterDeployment', 1], ['AgentClusterInstall', 1], ['ManagedCluster', 1], ['KlusterletAddonConfig', 1], ['Policy', 1]],
      );
      // What kustomize builds from the directory is exactly the objects render lists for it.
      const listed = result.files.filter((f) => f.path.startsWith(`hub/provision/${spoke}/`)).flatMap((f) => f.objects);
      const key = (o: { kind: string; metadata: { name: string; namespace?: string } }) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      assert.deepEqual(built.map(key).sort(), listed.map(key).sort());
      const aci = built.find((o) => o.kind === 'AgentClusterInstall')!.spec as Record<string, unknown>;
      const octet = spoke === 'etl4' ? 16 : 17;
      assert.deepEqual([aci.apiVIPs, aci.ingressVIPs], [[`192.168.135.${octet}3`], [`192.168.135.${octet}4`]]);
      const bmh = built.find((o) => o.kind === 'BareMetalHost' && o.metadata.name === 'master-0')!.spec as { bmc: { address: string; credentialsName: string } };
      assert.equal(bmh.bmc.address, `redfish-virtualmedia://192.168.135.1:8000/redfish/v1/Systems/${spoke}-master-0`);
      assert.equal(bmh.bmc.credentialsName, 'master-0-bmc');
      // No Secret with data in Git: credentials come from ExternalSecrets.
      assert.equal(count('Secret'), 0);
    }
  } finally {
    removeTree(out);
  }
});
