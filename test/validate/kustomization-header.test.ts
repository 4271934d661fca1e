/**
 * The kustomization-header rule: every code with a failing and a passing case, on small fleets
 * whose apps build kustomizations (and the components they pull in).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, validateFleet } from '../../src/index.js';
import { baseFleet, removeTree, writeTree } from '../support/fleet-fixture.js';

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
const COMPONENT = 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';

function headerFindings(files: Record<string, string>): string[] {
  const dir = writeTree(baseFleet({ 'components/operator/kustomization.yaml': `${KUSTOMIZATION}resources: []\n`, ...files }));
  try {
    const { fleet } = loadFleet(dir);
    return validateFleet(fleet)
      .filter((f) => f.code.startsWith('kustomization-'))
      .map((f) => `${f.severity} ${f.code} ${f.file}:${f.line ?? ''} ${f.path ?? ''}`.trimEnd());
  } finally {
    removeTree(dir);
  }
}

const cases: { name: string; files: Record<string, string>; expected: string[] }[] = [
  {
    name: 'kustomization-missing-header: an app kustomization without apiVersion and kind is a warning',
    files: { 'components/config/kustomization.yaml': 'resources:\n  - cm.yaml\n', 'components/config/cm.yaml': CM },
    expected: ['warning kustomization-missing-header components/config/kustomization.yaml:1'],
  },
  {
    name: 'kustomization-missing-header: kind without apiVersion is reported too, as is a kustomization the app pulls in',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - ../shared\n`,
      'components/shared/kustomization.yaml': 'kind: Kustomization\nresources:\n  - cm.yaml\n',
      'components/shared/cm.yaml': CM,
    },
    expected: ['warning kustomization-missing-header components/shared/kustomization.yaml:1'],
  },
  {
    name: 'kustomization-missing-header passes: apiVersion and kind written out',
    files: { 'components/config/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - cm.yaml\n`, 'components/config/cm.yaml': CM },
    expected: [],
  },
  {
    name: 'kustomization-header-mismatch: a Component with the Kustomization apiVersion is an error at the apiVersion',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}components:\n  - ../extra\n`,
      'components/extra/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Component\n',
    },
    expected: ['error kustomization-header-mismatch components/extra/kustomization.yaml:1 apiVersion'],
  },
  {
    name: 'kustomization-header-mismatch: a kind kustomize does not know is an error at the kind',
    files: { 'components/config/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomizaton\n' },
    expected: ['error kustomization-header-mismatch components/config/kustomization.yaml:2 kind'],
  },
  {
    name: 'kustomization-header-mismatch passes: a Component with its own apiVersion, listed under components',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}components:\n  - ../extra\n`,
      'components/extra/kustomization.yaml': COMPONENT,
    },
    expected: [],
  },
  {
    name: 'kustomization-component-kind: a components entry naming a Kustomization is an error at the entry, not a missing header',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}components:\n  - ../extra\n`,
      'components/extra/kustomization.yaml': 'resources: []\n',
    },
    expected: ['error kustomization-component-kind components/config/kustomization.yaml:4 components[0]'],
  },
  {
    name: 'kustomization-component-kind: a Component listed under resources is an error at the entry',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - ../extra\n`,
      'components/extra/kustomization.yaml': COMPONENT,
    },
    expected: ['error kustomization-component-kind components/config/kustomization.yaml:4 resources[0]'],
  },
  {
    name: 'kustomizations under a cluster folder that no app builds yet are checked too',
    files: {
      'components/config/kustomization.yaml': `${KUSTOMIZATION}resources: []\n`,
      'clusters/one/overlays/x/kustomization.yaml': 'resources: []\n',
    },
    expected: ['warning kustomization-missing-header clusters/one/overlays/x/kustomization.yaml:1'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.deepEqual(headerFindings(c.files), c.expected);
  });
}

test('a missing header is a warning: validate exits 0 on it alone', () => {
  const dir = writeTree(baseFleet({ 'components/operator/kustomization.yaml': 'resources: []\n', 'components/config/kustomization.yaml': 'resources: []\n' }));
  try {
    const { fleet } = loadFleet(dir);
    const findings = validateFleet(fleet);
    assert.deepEqual(findings.map((f) => [f.severity, f.code]), [
      ['warning', 'kustomization-missing-header'],
      ['warning', 'kustomization-missing-header'],
    ]);
  } finally {
    removeTree(dir);
  }
});
