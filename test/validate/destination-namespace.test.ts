/**
 * foreign-destination-namespace: an app sent to a namespace that belongs to another, unrelated
 * app on the same cluster while none of its own objects live there (the copy/paste of
 * redhat-cop's groups/*\/values.yaml). Small fleets in temporary directories, through the library.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, ruleCatalog, validateFleet } from '../../src/index.js';
import type { Finding } from '../../src/index.js';
import { removeTree, writeTree } from '../support/fleet-fixture.js';

const fleetYaml = (validation = '') => `apiVersion: fleetplan.io/v1alpha1
kind: Fleet
metadata:
  name: t
spec:
  repoURL: https://git.example.com/fleet.git
  revision: main
${validation}`;

const cluster = (name: string) => ({
  [`clusters/${name}/cluster.yaml`]: `apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n  role: standalone\n  groups: [base]\n`,
});

/** groups/base with cert-manager (creates its Namespace) and the app under test. */
const group = (storage: string) => ({
  'groups/base/group.yaml': `apiVersion: fleetplan.io/v1alpha1
kind: Group
metadata:
  name: base
spec:
  apps:
    cert-manager:
      path: components/cert-manager
      namespace: cert-manager
      wave: 5
    storage:
${storage}`,
});

const certManager = {
  'components/cert-manager/kustomization.yaml': 'namespace: cert-manager\nresources:\n  - namespace.yaml\n  - subscription.yaml\n',
  'components/cert-manager/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: cert-manager\n',
  'components/cert-manager/subscription.yaml': 'apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: cert-manager\nspec:\n  name: cert-manager\n',
};

const storageOperator = {
  'components/storage/kustomization.yaml': 'resources:\n  - subscription.yaml\n  - credentials.yaml\n',
  'components/storage/subscription.yaml': 'apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata:\n  name: efs\n  namespace: csi-drivers\nspec:\n  name: aws-efs-csi-driver-operator\n---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n  name: efs\n  namespace: csi-drivers\n',
  'components/storage/credentials.yaml': 'apiVersion: cloudcredential.openshift.io/v1\nkind: CredentialsRequest\nmetadata:\n  name: efs\n  namespace: openshift-cloud-credential-operator\n',
};

function validate(files: Record<string, string>): Finding[] {
  const dir = writeTree({ 'fleet.yaml': fleetYaml(), ...cluster('east'), ...certManager, ...storageOperator, ...files });
  try {
    return validateFleet(loadFleet(dir).fleet).filter((f) => f.code === 'foreign-destination-namespace');
  } finally {
    removeTree(dir);
  }
}

test('an operator sent to the namespace another app creates is reported at the namespace line, naming both apps and where its objects live', () => {
  const found = validate(group('      path: components/storage\n      namespace: cert-manager\n      wave: 5\n'));
  assert.deepEqual(found.map((f) => `${f.severity} ${f.file}:${f.line} ${f.path}`), ['warning groups/base/group.yaml:13 spec.apps.storage.namespace']);
  assert.equal(
    found[0]!.message,
    'app "storage" has destination namespace "cert-manager", which belongs to app "cert-manager" (it creates that Namespace), while the objects of "storage" live in csi-drivers, openshift-cloud-credential-operator on cluster east',
  );
  assert.match(found[0]!.hint!, /^set destination\.namespace to "csi-drivers", the namespace of "storage": .*CreateNamespace.*#14487.*#11588/);
});

test('the same line inherited by several clusters is one finding that names them', () => {
  const found = validate({ ...group('      path: components/storage\n      namespace: cert-manager\n'), ...cluster('west'), ...cluster('north') });
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, / on clusters east, north, west$/);
  assert.equal(found[0]!.cluster, undefined);
});

test('the finding lands on the layer that set the namespace, not the one that defined the app', () => {
  const dir = writeTree({
    'fleet.yaml': fleetYaml(),
    ...certManager,
    ...storageOperator,
    ...group('      path: components/storage\n      namespace: csi-drivers\n'),
    'clusters/east/cluster.yaml': 'apiVersion: fleetplan.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: east\nspec:\n  role: standalone\n  groups: [base]\n  apps:\n    storage:\n      namespace: cert-manager\n',
  });
  try {
    const found = validateFleet(loadFleet(dir).fleet).filter((f) => f.code === 'foreign-destination-namespace');
    assert.deepEqual(found.map((f) => `${f.file}:${f.line}`), ['clusters/east/cluster.yaml:10']);
  } finally {
    removeTree(dir);
  }
});

test('a kustomization entry that names nothing is read the one way it can mean, and the message says so', () => {
  const found = validate({
    ...group('      path: overlays/storage\n      namespace: cert-manager\n'),
    // one folder too few and a typo: ../components/storag names overlays/components/storag
    'overlays/storage/kustomization.yaml': 'resources:\n  - ../components/storag/\n',
  });
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /objects of "storage" \(reading "\.\.\/components\/storag\/" of overlays\/storage as components\/storage, see kustomize-missing-path\) live in csi-drivers/);
});

const passing: { name: string; files: Record<string, string> }[] = [
  {
    name: 'the app is sent to its own namespace',
    files: group('      path: components/storage\n      namespace: csi-drivers\n'),
  },
  {
    name: 'the namespace belongs to no other app',
    files: group('      path: components/storage\n      namespace: storage-system\n'),
  },
  {
    name: 'the app has objects without a namespace, which land in the destination namespace',
    files: {
      ...group('      path: components/storage\n      namespace: cert-manager\n'),
      'components/storage/kustomization.yaml': 'resources:\n  - subscription.yaml\n  - deployment.yaml\n',
      'components/storage/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: helper\n',
    },
  },
  {
    name: 'the app has no namespaced objects at all',
    files: {
      ...group('      path: components/storage\n      namespace: cert-manager\n'),
      'components/storage/kustomization.yaml': 'resources:\n  - class.yaml\n',
      'components/storage/class.yaml': 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: efs\nprovisioner: efs.csi.aws.com\n',
    },
  },
  {
    name: 'the app configures the operator whose namespace it targets (uses an API it provides)',
    files: {
      ...group('      path: components/issuers\n      namespace: cert-manager\n'),
      'components/issuers/kustomization.yaml': 'resources:\n  - issuer.yaml\n',
      'components/issuers/issuer.yaml': 'apiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: ca\n  namespace: certs\n',
    },
  },
  {
    name: 'the app needs the app that owns the namespace',
    files: group('      path: components/storage\n      namespace: cert-manager\n      needs: [cert-manager]\n'),
  },
  {
    name: 'the app creates the namespace too',
    files: {
      ...group('      path: components/storage\n      namespace: cert-manager\n'),
      'components/storage/kustomization.yaml': 'resources:\n  - subscription.yaml\n  - ns.yaml\n',
      'components/storage/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: cert-manager\n',
    },
  },
  {
    name: 'the objects cannot be known offline (a chart from another repository)',
    files: group('      repoURL: https://charts.example.com\n      chart: storage\n      targetRevision: 1.0.0\n      namespace: cert-manager\n'),
  },
  {
    name: 'a broken reference with no single reading leaves the objects unknown',
    files: {
      ...group('      path: overlays/storage\n      namespace: cert-manager\n'),
      'overlays/storage/kustomization.yaml': 'resources:\n  - ../components/nothing-like-it/\n',
    },
  },
];

for (const c of passing) {
  test(`no foreign-destination-namespace when ${c.name}`, () => {
    assert.deepEqual(validate(c.files), []);
  });
}

test('foreign-destination-namespace is in the rule catalog as a warning and can be turned off in fleet.yaml', () => {
  assert.equal(ruleCatalog()['foreign-destination-namespace']?.severity, 'warning');
  const dir = writeTree({
    'fleet.yaml': fleetYaml('  validation:\n    rules:\n      foreign-destination-namespace: "off"\n'),
    ...cluster('east'),
    ...certManager,
    ...storageOperator,
    ...group('      path: components/storage\n      namespace: cert-manager\n'),
  });
  try {
    assert.deepEqual(validateFleet(loadFleet(dir).fleet), []);
  } finally {
    removeTree(dir);
  }
});
