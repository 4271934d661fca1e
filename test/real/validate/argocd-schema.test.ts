/**
 * The embedded Argo CD schemas (src/validate/catalog/argocd-schemas.json) are what
 * scripts/gen-argocd-schemas.mjs makes of the upstream Argo CD CRDs in crds/argo-cd of the shared
 * data, byte for byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedPath } from '../../support/shared.js';

test('scripts/gen-argocd-schemas.mjs regenerates the committed module byte for byte', () => {
  const committed = readFileSync('src/validate/catalog/argocd-schemas.json', 'utf8');
  const source = /--source '([^']+)'/.exec(committed)![1]!;
  const dir = mkdtempSync(join(tmpdir(), 'fleetplan-argocd-schemas-'));
  try {
    const out = join(dir, 'argocd-schemas.json');
    execFileSync(process.execPath, ['scripts/gen-argocd-schemas.mjs', '--source', source, '--out', out, ...['application', 'applicationset', 'appproject'].map((k) => sharedPath('crds', 'argo-cd', `${k}-crd.yaml`))]);
    assert.equal(readFileSync(out, 'utf8'), committed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
