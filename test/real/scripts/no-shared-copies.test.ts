/**
 * Nothing from the shared data may be committed to the project (ADR 0150): no tracked file has
 * the content of a file in the shared directory. (Derivatives, such as a schema extracted from a
 * CRD, cannot be found by content; the review and ADR 0150 cover those.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sharedDir } from '../../support/shared.js';

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) files(p, out);
    else if (st.isFile()) out.push(p);
  }
  return out;
}

const sha1 = (path: string) => createHash('sha1').update(readFileSync(path)).digest('hex');

test('no tracked file of the repository is a byte copy of a file in the shared data', () => {
  const shared = new Map<string, string>();
  for (const f of files(sharedDir())) {
    // An empty file says nothing about where it came from.
    if (statSync(f).size > 0) shared.set(sha1(f), f);
  }
  assert.ok(shared.size > 50, `${shared.size} files in ${sharedDir()}`);
  const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((f) => f !== '');
  assert.ok(tracked.length > 100, `${tracked.length} tracked files`);
  const copies = tracked
    .filter((f) => { try { return statSync(f).isFile() && statSync(f).size > 0; } catch { return false; } })
    .flatMap((f) => {
      const from = shared.get(sha1(f));
      return from ? [`${f} = ${from}`] : [];
    });
  assert.deepEqual(copies, []);
});
