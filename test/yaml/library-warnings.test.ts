/**
 * The yaml package warns through process.emitWarning (stderr) when a flow map is a key, as a helmfile
 * template read as YAML has (`namespace: {{ .Values.ns }}`): reading YAML never writes to the
 * process's stderr; callers say what they could not read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { located } from '../../src/yaml/documents.js';

test('reading a document whose key is a flow map emits no process warning', async () => {
  const warnings: string[] = [];
  const listen = (w: Error) => warnings.push(w.message);
  process.on('warning', listen);
  try {
    const docs = located('releases:\n  - name: web\n    namespace: {{ .Values.ns }}\n');
    assert.equal(docs.length, 1);
    await new Promise((done) => setImmediate(done));
  } finally {
    process.off('warning', listen);
  }
  assert.deepEqual(warnings, []);
});
