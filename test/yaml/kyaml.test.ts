/**
 * The `kyaml` schema (src/yaml/go-yaml.ts) reads a plain scalar of a resource as it reaches the
 * cluster through a kustomize build: the real `kubectl kustomize` builds a Flux Kustomization
 * holding each scalar, and its output read as the cluster reads it (the `kubernetes` schema,
 * go-yaml v2) is what the `kyaml` schema, and the `yaml` package with `kyamlTags`, read from the
 * file. `metadata.annotations` keep their text (kustomize writes it), which the Flux readers do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kyamlTags, parseAllDocuments, parseYaml } from '../../src/yaml/index.js';
import { readDocs } from '../../src/layouts/helmfile-flux/reader.js';
import { nodeFileSystem } from '../../src/adapters/node-fs.js';
import { removeDir, requireTools, tempDir } from '../helpers/tools.js';

// Plain scalars whose meaning differs between YAML 1.1, YAML 1.2 core, go-yaml v2 and v3.
const SCALARS = [
  '0755', '0o755', '+0755', '-0755', '08', '0', '00', '0x1F', '-0x1F', '0b101', '1_000', '-_1', '0x_1F', '012',
  '1:20', 'on', 'On', 'off', 'yes', 'No', 'y', 'n', 'true', 'True', 'FALSE', '~', 'null',
  '1e3', '1.', '.5', '-.5', '.5_0', '1_0.5', '1e999', '1.0',
  '2024-01-01', '2024-1-2', '2024-13-01', '2024-02-30', '2024-02-29', '2023-02-29', '2001-12-14t21:59:43.10-05:00', '2024-01-02T10:00:00+02:00',
  '2024-01-02 10:00:00', '2024-1-2 3:04:05.50', '2024-01-02T10:00:00', '2024-01-02T10:00:00.120Z', '2024-01-02T10:00:00+00:00', '2024-01-02 10:00:00Z',
  '9007199254740993', '1e', '0x', '0o8', '+', '.', '1__0', '-0', '3.14',
];

const resource = (lines: string[], annotations: string[]) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: scalars
  namespace: flux-system
  annotations:
${annotations.join('\n')}
spec:
  values:
${lines.join('\n')}
`;

function kustomizeBuild(text: string): Record<string, unknown> {
  const { kubectl } = requireTools();
  const dir = tempDir('kyaml');
  try {
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - ks.yaml\n');
    writeFileSync(join(dir, 'ks.yaml'), text);
    return parseYaml(execFileSync(kubectl, ['kustomize', dir], { encoding: 'utf8' }), { schema: 'kubernetes' }) as Record<string, unknown>;
  } finally {
    removeDir(dir);
  }
}

const values = (o: unknown) => (o as { spec: { values: Record<string, unknown> } }).spec.values;
const annotations = (o: unknown) => (o as { metadata: { annotations: Record<string, unknown> } }).metadata.annotations;

test('the kyaml schema and kyamlTags read every plain scalar as it reaches the cluster through kustomize build', () => {
  const text = resource(SCALARS.map((s, i) => `    k${i}: ${s}`), ['    a: b']);
  const theirs = values(kustomizeBuild(text));
  const ours = values(parseYaml(text, { schema: 'kyaml' }));
  const positioned = values(parseAllDocuments(text, { customTags: kyamlTags })[0]!.toJS());
  SCALARS.forEach((s, i) => {
    const want = theirs[`k${i}`];
    for (const got of [ours[`k${i}`], positioned[`k${i}`]]) assert.deepEqual(typeof got === 'number' && Object.is(got, -0) ? 0 : got, want, s);
  });
  // YAML 1.2 core, which the Flux readers used, differs on these.
  const core = values(parseYaml(text, { schema: 'core' }));
  for (const s of ['0755', '012', '2024-01-01']) assert.notDeepEqual(core[`k${SCALARS.indexOf(s)}`], theirs[`k${SCALARS.indexOf(s)}`], s);
});

test('the Flux readers (readDocs) keep annotations as written, as kustomize does, and read the rest as kyaml', () => {
  const pick = ['0755', 'on', '1e3', '2024-01-01', 'true', '012'];
  const text = resource(pick.map((s, i) => `    k${i}: ${s}`), pick.map((s, i) => `    a${i}: ${s}`));
  const theirs = kustomizeBuild(text);
  const dir = tempDir('kyaml-docs');
  try {
    writeFileSync(join(dir, 'ks.yaml'), text);
    const doc = readDocs(nodeFileSystem(dir), 'ks.yaml', [])[0]!;
    assert.deepEqual(annotations(doc.value), annotations(theirs));
    assert.deepEqual(values(doc.value), values(theirs));
    assert.deepEqual(annotations(doc.value), Object.fromEntries(pick.map((s, i) => [`a${i}`, s])));
    // Positions are kept for errors.
    assert.equal(doc.locate(['spec', 'values', 'k3']).line, text.split('\n').indexOf('    k3: 2024-01-01') + 1);
  } finally {
    removeDir(dir);
  }
});
