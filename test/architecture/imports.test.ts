/**
 * The import direction of src/ (scripts/stages.mjs, docs/adr/0180-stage-imports.md): the ESLint
 * rule rejects a deliberately backward import, every module of src/ obeys the folder rule, and
 * there is no import cycle between modules or between folders.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { ESLint } from 'eslint';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const src = join(repo, 'src');

interface Stages {
  STAGES: string[];
  allowedImports(folder: string): string[] | undefined;
  stageImportConfigs(): object[];
}
const stages = (await import(pathToFileURL(join(repo, 'scripts/stages.mjs')).href)) as Stages;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Module (src-relative, .ts) → the src modules it imports (type-only imports included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walk(src)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps: string[] = [];
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      let target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
      if (!existsSync(target) && existsSync(target.replace(/\.ts$/, '/index.ts'))) target = target.replace(/\.ts$/, '/index.ts');
      if (target.endsWith('.ts')) deps.push(relative(src, target));
    }
    graph.set(relative(src, file), deps);
  }
  return graph;
}

const folderOf = (m: string) => (m.includes('/') ? m.slice(0, m.indexOf('/')) : m.replace(/\.ts$/, ''));

/** Strongly connected components with more than one member (Tarjan). */
function cycles(graph: Map<string, readonly string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

async function lintAs(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: repo,
    overrideConfigFile: true,
    overrideConfig: [{ languageOptions: { parser: (await import('typescript-eslint')).parser } }, ...stages.stageImportConfigs()],
  });
  const [result] = await eslint.lintText(code, { filePath: join(repo, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

test('the folder rule rejects a deliberately backward import, naming what the folder may import', async () => {
  const messages = await lintAs('src/layering/probe.ts', "import { planFleet } from '../order/plan.js';\nexport const x = planFleet;\n");
  assert.equal(messages.length, 1, messages.join('\n'));
  assert.match(messages[0]!, /^no-restricted-imports: .*src\/layering may import only errors, model, yaml, ports, gotemplate, appset, load, layering/);
});

test('the folder rule rejects a stage importing an adapter, and a YAML library outside src/yaml', async () => {
  assert.equal((await lintAs('src/render/leaves/probe.ts', "import { locateHelm } from '../../adapters/helm.js';\nexport const x = locateHelm;\n")).length, 1);
  assert.equal((await lintAs('src/validate/probe.ts', "import jsYaml from 'js-yaml';\nexport const x = jsYaml;\n")).length, 1);
  assert.equal((await lintAs('src/cli/commands/probe.ts', "import { resolveFleet } from '../../layering/resolve-fleet.js';\nexport const x = resolveFleet;\n")).length, 1);
});

test('the folder rule keeps the CLI on the entry points: src/index.ts (every stage at once) is refused', async () => {
  const messages = await lintAs('src/cli/actions/probe.ts', "import { planFleet } from '../../index.js';\nexport const x = planFleet;\n");
  assert.equal(messages.length, 1, messages.join('\n'));
  assert.match(messages[0]!, /src\/cli may import only cli, entry, adapters/);
  assert.deepEqual(await lintAs('src/cli/actions/probe.ts', "import { planFleet } from '../../entry/fleet.js';\nexport const x = planFleet;\n"), []);
  // An entry point is the library's surface, not a way around the stages' order.
  assert.equal((await lintAs('src/layering/probe.ts', "import { planFleet } from '../entry/fleet.js';\nexport const x = planFleet;\n")).length, 1);
});

test('the folder rule lets a stage import the stages before it and the kernel', async () => {
  assert.deepEqual(await lintAs('src/render/probe.ts', "import { planFleet } from '../order/plan.js';\nimport type { Fleet } from '../model/fleet.js';\nexport const x: [typeof planFleet, Fleet?] = [planFleet];\n"), []);
  assert.deepEqual(await lintAs('src/layouts/x/probe.ts', "import { rules } from '../../validate/index.js';\nimport { parseYaml } from '../../yaml/index.js';\nexport const x = [rules, parseYaml];\n"), []);
});

test('every module of src/ imports only what its folder may (the same rule, read from the import graph)', () => {
  const bad: string[] = [];
  for (const [from, deps] of importGraph()) {
    const allowed = stages.allowedImports(folderOf(from));
    if (!allowed) continue; // src/index.ts: the public entry re-exports every stage
    for (const to of deps) if (!allowed.includes(folderOf(to))) bad.push(`${from} → ${to}`);
  }
  assert.deepEqual(bad, []);
});

test('there is no import cycle between modules', () => {
  assert.deepEqual(cycles(importGraph()), []);
});

test('there is no import cycle between folders', () => {
  const folders = new Map<string, Set<string>>();
  for (const [from, deps] of importGraph()) {
    const f = folderOf(from);
    const set = folders.get(f) ?? new Set<string>();
    for (const to of deps) if (folderOf(to) !== f) set.add(folderOf(to));
    folders.set(f, set);
  }
  assert.deepEqual(cycles(new Map([...folders].map(([k, v]) => [k, [...v]]))), []);
});

test('the cycle check finds a cycle (it can fail)', () => {
  assert.deepEqual(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]])), [['a.ts', 'b.ts', 'c.ts']]);
});
