/**
 * A values file with a key written twice (shane-snyder/ocp-homelab clusters/sno-mini/values.yaml:
 * `openshift-pipelines-operator:` twice). Helm reads values with sigs.k8s.io/yaml, which keeps the
 * later entry, and `kustomize build --enable-helm` succeeds; fleetplan gave a duplicate-key error,
 * so validate failed and render wrote nothing. Read as Helm reads it (ParseOptions.duplicateKeys
 * 'later-wins'): a warning at the line, and the later value; fleetplan's own files keep the error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlSource } from '../../src/yaml/source.js';

const TEXT = 'applications:\n  web:\n    wave: 1\n  api:\n    wave: 2\n  web:\n    wave: 3\n';

test('a duplicate key is an error by default, and nothing is read', () => {
  const r = parseYamlSource('values.yaml', TEXT);
  assert.equal(r.source, undefined);
  assert.deepEqual(r.findings.map((f) => `${f.severity} ${f.code} ${f.line}`), ['error duplicate-key 6']);
});

test('later-wins: a warning at the second key, naming the reader, and the later value is read and located', () => {
  const r = parseYamlSource('values.yaml', TEXT, { duplicateKeys: 'later-wins', reader: 'Helm' });
  assert.deepEqual(r.findings.map((f) => `${f.severity} ${f.code} ${f.line}`), ['warning duplicate-key 6']);
  assert.match(r.findings[0]!.message, /Helm keeps the later entry/);
  assert.deepEqual(r.source?.value, { applications: { web: { wave: 3 }, api: { wave: 2 } } });
  assert.equal(r.source?.locate(['applications', 'web', 'wave']).line, 7);
});

test('later-wins does not excuse other YAML errors', () => {
  const r = parseYamlSource('values.yaml', `${TEXT}  broken: [\n`, { duplicateKeys: 'later-wins', reader: 'Helm' });
  assert.equal(r.source, undefined);
  assert.ok(r.findings.some((f) => f.severity === 'error'), JSON.stringify(r.findings));
});
