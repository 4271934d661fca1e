/**
 * `render --out` into a fresh directory writes each cluster's files while the next ones resolve,
 * through a writer thread that gets the first cluster at once (ADRs 0330, 0417). Errors found late,
 * or only over the whole fleet, must come out as they do when everything is resolved before any
 * file is written: the same lines on stderr, the same exit code, and nothing left in the directory.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSyntheticFleet } from '../../bench/synthetic.js';
import { cli } from '../support/fleet-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'fleetplan-render-out-errors-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A 40-cluster fleet (written through the writer thread from 32) with `change` applied to its files. */
function fleetWith(name: string, change: (repo: string) => void): string {
  const repo = join(root, name);
  writeSyntheticFleet(repo, { clusters: 40, appsPerCluster: 12 });
  change(repo);
  return repo;
}

const edit = (file: string, from: string, to: string) => {
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${file} has ${from}`);
  writeFileSync(file, text.replace(from, to));
};

const cases: [string, (repo: string) => void, string][] = [
  // Found when the last cluster resolves, after every other cluster's files were written.
  ['an undefined variable in the last cluster', (repo) => edit(join(repo, 'clusters/c39/cluster.yaml'), '${CLUSTER_BASE_DOMAIN}', '${NO_SUCH_VARIABLE}'), 'undefined-variable'],
  // A load error in a cluster's file: the fleet's other clusters are rendered, and the error is a load finding.
  ['a cluster file in the wrong folder', (repo) => edit(join(repo, 'clusters/c20/cluster.yaml'), 'name: c20', 'name: c20-moved'), 'cluster-name-mismatch'],
  // A cluster naming a hub that is not in the fleet: a question about the whole fleet.
  ['a hub that is not in the fleet', (repo) => edit(join(repo, 'clusters/c33/cluster.yaml'), 'hub: c00', 'hub: no-such-hub'), 'unknown-hub'],
];

for (const [what, change, code] of cases) {
  test(`${what}: render --out of a fresh directory says what render says, exits as it does, and leaves nothing`, async () => {
    const repo = fleetWith(what.replace(/\W+/g, '-'), change);
    // Printing resolves every cluster before anything is written: the reference.
    const stream = await cli(['render', '--repo', repo]);
    // The fleet is sound but for the one change: exactly its error.
    assert.equal(stream.code, 1);
    assert.match(stream.stderr, new RegExp(`\\[${code}\\]\\n1 error, 0 warnings\\nnothing rendered: fix the errors above\\n$`));
    const fresh = join(root, `${what.replace(/\W+/g, '-')}-out`, 'tree');
    const out = await cli(['render', '--repo', repo, '--out', fresh]);
    assert.equal(out.code, stream.code);
    assert.equal(out.stderr, stream.stderr);
    assert.equal(existsSync(fresh), false, 'the directory this run made is gone');
    // Into a directory with a file in it the fleet is resolved before writing (ADR 0330): the same again.
    const used = join(root, `${what.replace(/\W+/g, '-')}-used`);
    mkdirSync(used);
    writeFileSync(join(used, 'notes.txt'), 'mine\n');
    const over = await cli(['render', '--repo', repo, '--out', used]);
    assert.equal(over.code, stream.code);
    assert.equal(over.stderr, stream.stderr);
    assert.deepEqual(readdirSync(used), ['notes.txt']);
  });
}
