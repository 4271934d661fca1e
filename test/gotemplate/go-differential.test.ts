/**
 * Recorded differential tests: random templates and data (bench/gotemplate-fuzz.ts, seed 7) with
 * the results Go 1.19's text/template + sprig 3.2.3 + go-yaml v2 gave for them
 * (bench/go-gotemplate-oracle). Runs without Go. Regenerate with
 * `node dist/bench/gotemplate-fuzz.js --cases 500 --seed 7 --record test/fixtures/gotemplate/go-differential.json`
 * and `… --yaml --cases 200 --seed 7 --record test/fixtures/gotemplate/go-differential-toyaml.json`.
 *
 * Success, output and error texts must match exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GoTemplateError, compileGoTemplate, goValueFromJsonArgoCD } from '../../src/gotemplate/index.js';

interface Row {
  template: string;
  data: unknown;
  missingkey: '' | 'zero' | 'error';
  go: { ok: boolean; output: string; error: string };
}

const suites: [string, string][] = [
  ['go-differential.json', 'random templates'],
  ['go-differential-toyaml.json', 'toYaml of random structures (sigs.k8s.io/yaml)'],
];

for (const [file, what] of suites) {
  const rows = JSON.parse(readFileSync(`test/fixtures/gotemplate/${file}`, 'utf8')) as Row[];
  test(`matches Go on ${rows.length} recorded cases: ${what}`, () => check(rows));
}

function check(rows: Row[]): void {
  const failures: string[] = [];
  rows.forEach((row, i) => {
    let ok: boolean;
    let output = '';
    let error = '';
    try {
      const t = compileGoTemplate(row.template, row.missingkey ? { missingkey: row.missingkey } : {});
      output = t.execute(goValueFromJsonArgoCD(row.data));
      ok = true;
    } catch (e) {
      if (!(e instanceof GoTemplateError)) throw e;
      ok = false;
      error = e.message;
    }
    if (ok !== row.go.ok || output !== row.go.output || error !== row.go.error) {
      failures.push(`#${i} ${JSON.stringify(row.template)}\n  go: ${JSON.stringify(row.go)}\n  fp: ${JSON.stringify({ ok, output, error })}`);
    }
  });
  assert.deepEqual(failures, []);
}
