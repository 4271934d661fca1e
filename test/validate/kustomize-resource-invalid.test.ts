/**
 * A file a built kustomization lists in `resources` that is not YAML: `kustomize build` (and so
 * Argo CD's sync) fails there ("MalformedYAMLError: yaml: line 2: mapping values are not allowed
 * in this context"), and validate said nothing: the resource files of a kustomization were never
 * read. rich-p-ai/argo-demo's `namespace.yaml` begins with " ---" (a space before the document
 * marker), so its second line starts a mapping after a scalar.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argoPathApplication, cli, removeTree, writeTree } from '../support/fleet-fixture.js';

interface Finding {
  code: string;
  file?: string;
  line?: number;
  message: string;
  severity: string;
}

const APP = argoPathApplication({ name: 'virt', path: 'components/virt', namespace: 'virt' });
const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - namespace.yaml\n  - cm.yaml\n';
const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: virt\n';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: virt\n  namespace: virt\n';

async function findings(files: Record<string, string>): Promise<Finding[]> {
  const dir = writeTree({ 'roots/virt.yaml': APP, 'components/virt/kustomization.yaml': KUSTOMIZATION, 'components/virt/cm.yaml': CM, ...files });
  try {
    const r = await cli(['validate', '--repo', dir, '-o', 'json']);
    return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  } finally {
    removeTree(dir);
  }
}

test('a resources file that is not YAML is an error at the kustomization entry, naming the file and the line', async () => {
  const found = (await findings({ 'components/virt/namespace.yaml': ` ---\n${NAMESPACE}` })).filter((f) => f.code === 'kustomize-resource-invalid');
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.severity, 'error');
  assert.equal(found[0]!.file, 'components/virt/kustomization.yaml');
  assert.equal(found[0]!.line, 4);
  assert.match(found[0]!.message, /resources entry "namespace\.yaml" of components\/virt names components\/virt\/namespace\.yaml, which is not valid YAML \(line 2:[^)]*\): kustomize build fails here/);
});

test('valid resources files, one of several documents, are not reported', async () => {
  const found = await findings({ 'components/virt/namespace.yaml': `---\n${NAMESPACE}---\n${CM.replace('name: virt\n', 'name: other\n')}` });
  assert.deepEqual(found.filter((f) => f.code === 'kustomize-resource-invalid'), []);
});
