/**
 * The evaluation half of validate's Jsonnet checks (docs/adr/0319-validate-reads-jsonnet.md):
 * every Jsonnet evaluation Argo CD runs (jsonnet-sources.ts) is run with the real binary, through
 * the JsonnetTool port, as render --leaves runs it; its syntax and evaluation errors become
 * findings at the file and line Jsonnet names (rules/jsonnet.ts). A file whose imports lead out
 * of the repository is never given to the binary. Without a binary nothing is evaluated, and
 * validate says which files it could not check.
 */
import { resolve } from 'node:path';
import { ToolError } from '../errors/index.js';
import type { JsonnetTool } from '../ports/tools.js';
import type { RepoFileSystem } from '../ports/filesystem.js';
import { JSONNET_MAX_OUTPUT_BYTES, JSONNET_TIMEOUT_MS, jsonnetErrorLocation, jsonnetOutputManifests, jsonnetStdLibraryGap, lineOf } from '../render/leaves/jsonnet.js';
import type { JsonnetSource } from './jsonnet-sources.js';
import { jsonnetEvaluationKey, jsonnetImportProblems } from './jsonnet-sources.js';

/** The outcome of one evaluation. */
export type JsonnetEvaluation =
  | { ok: true }
  | {
      ok: false;
      /** `jsonnet-syntax` (a STATIC ERROR), `jsonnet-failed` (a RUNTIME ERROR), `jsonnet-limit`, `invalid-manifests` (output that is no object). */
      code: string;
      /** Jsonnet's message, its paths relative to the repository, cut to 8 lines. */
      message: string;
      file: string;
      line?: number;
      column?: number;
      /** Jsonnet could not open an import (the static check names it at the import). */
      missingImport: boolean;
      /** `jsonnet-std-missing`: the standard-library function the interpreter lacks (not a verdict on the file). */
      std?: string;
    };

export interface JsonnetEvaluations {
  /** By jsonnetEvaluationKey(dir, file, settings). */
  results: ReadonlyMap<string, JsonnetEvaluation>;
  /** The implementation that ran, e.g. `the C++ jsonnet 0.18.0`. */
  tool?: string;
  /** Why nothing was evaluated (no Jsonnet): syntax and evaluation errors were not checked. */
  notEvaluated?: string;
}

/** Evaluates each source's files once per settings; `locate` finds the binary on first need. */
export async function evaluateJsonnetSources(sources: readonly JsonnetSource[], fs: RepoFileSystem, locate: () => Promise<JsonnetTool>): Promise<JsonnetEvaluations> {
  const results = new Map<string, JsonnetEvaluation>();
  const root = resolve(fs.root);
  const work: { key: string; dir: string; file: string; source: JsonnetSource }[] = [];
  for (const s of sources) {
    for (const file of s.files) {
      const key = jsonnetEvaluationKey(s.dir, file, s.settings);
      if (work.some((w) => w.key === key)) continue;
      // A file that would read outside the repository is not run (the static check reports it).
      if (jsonnetImportProblems(fs, s.dir, file, s.settings.libs).some((p) => p.kind !== 'missing')) continue;
      work.push({ key, dir: s.dir, file, source: s });
    }
  }
  if (work.length === 0) return { results };
  let tool: JsonnetTool;
  try {
    tool = await locate();
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    return { results, notEvaluated: e.message };
  }
  const name = `${tool.flavor === 'go' ? 'go-jsonnet' : 'the C++ jsonnet'} ${tool.version}`;
  await Promise.all(
    work.map(async ({ key, dir, file, source }) => {
      const searchPath = [resolve(root, dir), ...source.settings.libs.map((l) => resolve(root, l))];
      let json: string;
      try {
        json = await tool.evaluate({ file: resolve(root, file), searchPath, extVars: source.settings.extVars, tlas: source.settings.tlas, timeoutMs: JSONNET_TIMEOUT_MS, maxOutputBytes: JSONNET_MAX_OUTPUT_BYTES });
      } catch (e) {
        if (!(e instanceof ToolError) || (e.code !== 'build-failed' && e.code !== 'build-limit')) throw e;
        const at = jsonnetErrorLocation(e.message, root);
        const gap = tool.flavor === 'cpp' ? jsonnetStdLibraryGap(e.message, root, (f, n) => lineOf(fs, f, n)) : undefined;
        const lines = e.message.split(`${root}/`).join('').split('\n');
        const message = lines.length > 8 ? [...lines.slice(0, 8), `\t… (${lines.length - 8} more lines)`].join('\n') : lines.join('\n');
        results.set(key, {
          ok: false,
          code: gap !== undefined ? 'jsonnet-std-missing' : e.code === 'build-limit' ? 'jsonnet-limit' : /STATIC ERROR/.test(e.message) ? 'jsonnet-syntax' : 'jsonnet-failed',
          ...(gap !== undefined ? { std: gap } : {}),
          message,
          file: at?.file ?? file,
          ...(at ? { line: at.line, column: at.column } : {}),
          missingImport: /couldn't open import/i.test(e.message),
        });
        return;
      }
      try {
        jsonnetOutputManifests(json);
        results.set(key, { ok: true });
      } catch (e) {
        results.set(key, { ok: false, code: 'invalid-manifests', message: (e as Error).message, file, missingImport: false });
      }
    }),
  );
  return { results, tool: name };
}
