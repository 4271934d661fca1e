/**
 * Stages that behave differently for a layout ask the fleet's capabilities, never compare
 * `fleet.layout` with a layout's name (docs/adr/0180-stage-imports.md): a layout reader under
 * src/layouts/ may know its own name; nothing else branches on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const src = join(repo, 'src');

/** Where a comparison with a layout name is not a branch of behaviour, with the reason. */
const ALLOWED = new Map<string, string>([
  ['src/render/plan-format.ts', 'prints the layout\'s name in the plan\'s first line'],
]);

/** `x.layout === 'flux'`, `layout !== "native"`: a comparison with a layout name. */
const LAYOUT_BRANCH = /(?<!typeof\s+[\w.]*)\blayout\s*[!=]==?\s*['"][a-z-]+['"]|['"][a-z-]+['"]\s*[!=]==?\s*[\w.]*\blayout\b/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('no module outside src/layouts/ branches on a layout\'s name', () => {
  const found: string[] = [];
  for (const file of walk(src)) {
    const rel = relative(repo, file);
    if (rel.startsWith('src/layouts/') || ALLOWED.has(rel)) continue;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (LAYOUT_BRANCH.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, [], 'ask fleet.capabilities (src/model/fleet.ts FleetCapabilities) instead');
});

test('the check sees the comparisons it forbids, and not the ones it allows', () => {
  for (const line of [
    "if (fleet.layout === 'flux') return [];",
    "const keep = ctx.fleet.layout !== \"native\" ? a : b;",
    "return 'helmfile-flux' === fleet.layout;",
  ]) assert.ok(LAYOUT_BRANCH.test(line), line);
  for (const line of [
    "typeof r.fleet.layout === 'string' &&",
    'if (fleet.layout !== base.fleet.layout) return undefined;',
    'const forced = readers.find((r) => r.layout === options.layout);',
  ]) assert.ok(!LAYOUT_BRANCH.test(line), line);
});
