/**
 * kustomize's namespace transformer names every Namespace object of the build after the
 * kustomization's `namespace:` (kubectl kustomize gives `Namespace certificates` for a file
 * `name: default` under `namespace: certificates`). Two apps whose bases both write a placeholder
 * `Namespace default`, each under its own `namespace:`, apply two different Namespaces; validate
 * read the files as written and reported `shared-object` "Namespace default is applied with
 * different content by 2 apps", an error the real build never has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

const base = (ns: string) => ({
  [`infra/${ns}/kustomization.yaml`]: `namespace: ${ns}\nresources:\n  - namespace.yaml\n  - cm.yaml\n`,
  [`infra/${ns}/namespace.yaml`]: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n  labels:\n    team: ${ns}\n`,
  [`infra/${ns}/cm.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  k: v\n',
});

test('a Namespace under a kustomization namespace: is that namespace, not two apps sharing Namespace default', async () => {
  const dir = writeTree({
    'apps/certs.yaml': argoPathApplication({ name: 'certs', path: 'infra/certificates', namespace: 'certificates', repoURL: 'https://github.com/acme/lab.git' }),
    'apps/dns.yaml': argoPathApplication({ name: 'dns', path: 'infra/dns', namespace: 'dns', repoURL: 'https://github.com/acme/lab.git' }),
    ...base('certificates'),
    ...base('dns'),
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; message: string }[] }).findings;
    assert.deepEqual(findings.filter((f) => f.code.startsWith('shared-object')).map((f) => f.message), []);
    assert.equal(v.code, 0, v.stdout);
  } finally {
    removeTree(dir);
  }
});

test('the same Namespace written by two apps with different content is still reported', async () => {
  const dir = writeTree({
    'apps/a.yaml': argoPathApplication({ name: 'a', path: 'infra/a', namespace: 'a', repoURL: 'https://github.com/acme/lab.git' }),
    'apps/b.yaml': argoPathApplication({ name: 'b', path: 'infra/b', namespace: 'b', repoURL: 'https://github.com/acme/lab.git' }),
    'infra/a/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shared\n  labels:\n    team: a\n',
    'infra/b/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shared\n  labels:\n    team: b\n',
  });
  try {
    const v = await cli(['validate', '--repo', dir, '-o', 'json']);
    const findings = (JSON.parse(v.stdout) as { findings: { code: string; message: string }[] }).findings;
    assert.equal(findings.filter((f) => f.code === 'shared-object').length, 1, JSON.stringify(findings));
  } finally {
    removeTree(dir);
  }
});
