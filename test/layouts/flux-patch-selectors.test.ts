/**
 * A Flux Kustomization's `spec.patches` (and a listing kustomization's patches) select objects
 * with Kubernetes label and annotation selectors, set-based terms included (`k in (a,b)`,
 * `k notin (a)`), as kustomize's target selector parses them (apimachinery labels.Parse).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatches } from '../../src/layouts/helmfile-flux/listing.js';

const ks = (labels: Record<string, string>) => ({ apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'app', namespace: 'flux-system', labels }, spec: { path: './app' } });

function patched(selector: string, labels: Record<string, string>): boolean {
  const out = applyPatches(ks(labels), [{ patch: { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'not-used' }, spec: { wait: true } }, target: { group: 'kustomize.toolkit.fluxcd.io', kind: 'Kustomization', labelSelector: selector }, from: 'test' }]);
  return (out.spec as Record<string, unknown>).wait === true;
}

test('flux patch selectors: set-based label terms select as Kubernetes does', () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['substitution.flux.home.arpa/disabled notin (true)', {}, true],
    ['substitution.flux.home.arpa/disabled notin (true)', { 'substitution.flux.home.arpa/disabled': 'true' }, false],
    ['substitution.flux.home.arpa/disabled notin (true)', { 'substitution.flux.home.arpa/disabled': 'false' }, true],
    ['tier in (web, api)', { tier: 'api' }, true],
    ['tier in (web, api)', {}, false],
    ['tier in (web,api),env=prod', { tier: 'web', env: 'prod' }, true],
    ['tier in (web,api),env=prod', { tier: 'web', env: 'dev' }, false],
    ['env!=prod', {}, true],
    ['!skip', { skip: '' }, false],
    ['env', { env: 'x' }, true],
  ];
  for (const [selector, labels, want] of cases) assert.equal(patched(selector, labels), want, `${selector} over ${JSON.stringify(labels)}`);
});
