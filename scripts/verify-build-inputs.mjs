#!/usr/bin/env node
// Checks the build-input walker (src/render/leaves/inputs.ts) against what kustomize really
// opens: for every kustomization under the given repositories, runs `kubectl kustomize` under
// `strace -e openat` and compares the repository files it opened with the walked set. A file
// opened but not walked would be a stale-cache bug. Needs strace, .tools/bin and a built dist/.
//   node scripts/verify-build-inputs.mjs REPO_DIR...
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const { InputWalker } = await import('../dist/src/render/leaves/inputs.js');
const { createSourceReader } = await import('../dist/src/adapters/source-reader.js');
const tools = resolve('.tools/bin');
const work = mkdtempSync(join(tmpdir(), 'verify-inputs-'));
let unlisted = 0;
try {
  for (const root of process.argv.slice(2).map((r) => resolve(r))) {
    const found = spawnSync('find', [root, '-name', 'kustomization.yaml', '-o', '-name', 'kustomization.yml', '-o', '-name', 'Kustomization'], { encoding: 'utf8' });
    for (const dir of found.stdout.trim().split('\n').filter(Boolean).map(dirname).sort()) {
      const trace = join(work, 'trace');
      const r = spawnSync('strace', ['-f', '-e', 'trace=openat', '-o', trace, join(tools, 'kubectl'), 'kustomize', dir,
        '--enable-helm', '--helm-command', join(tools, 'helm'), '--load-restrictor', 'LoadRestrictionsNone'],
      { encoding: 'utf8', env: { PATH: `${tools}:/usr/bin:/bin`, HOME: work } });
      const opened = new Set();
      for (const m of readFileSync(trace, 'utf8').matchAll(/openat\(AT_FDCWD, "([^"]+)", [^)]*\) = \d+/g)) {
        const p = m[1];
        if (!p.startsWith(root + '/')) continue;
        try {
          if (statSync(p).isFile()) opened.add(p);
        } catch {
          // vanished temporary file
        }
      }
      const inputs = new InputWalker(createSourceReader()).kustomization(dir);
      const walked = new Set(inputs.files);
      const missed = [...opened].filter((p) => !walked.has(p));
      const extra = inputs.files.filter((p) => !opened.has(p)).length;
      unlisted += missed.length;
      const status = r.status === 0 ? 'built ' : 'failed';
      console.log(`${status} ${relative(process.cwd(), dir)}: opened ${opened.size}, walked ${inputs.files.length} (${extra} not opened), ` +
        `missing ${inputs.missing.length}, remote ${inputs.remote.length}${missed.length ? `; NOT WALKED: ${missed.map((p) => relative(root, p)).join(', ')}` : ''}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = unlisted > 0 ? 1 : 0;
