/**
 * `fleetplan version`: fleetplan's version and the kustomize, Helm and git it finds, in the lookup
 * order every command uses (docs/adr/0172-tool-lookup.md): each with its version, path and where it
 * came from, the candidates refused before it and why, or why there is none. Its name, help and
 * flags are in ../commands/version.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { choice, yamlOfJson } from '../common.js';
import { findHelm } from '../../adapters/helm.js';
import { findKustomize } from '../../adapters/kustomize.js';
import { findJsonnet } from '../../adapters/jsonnet.js';
import type { ToolReport } from '../../adapters/tools.js';
import { describeGit, packageRoot } from '../../adapters/tools.js';
import { toSortedJson, VERSION } from '../../entry/core.js';
import { FORMATS } from '../commands/version.js';

interface ToolInfo {
  found: boolean;
  binary?: string;
  version?: string;
  from?: string;
  /** kustomize: `kustomize` (kustomize build) or `kubectl` (kubectl kustomize); jsonnet: `go` or `cpp`. */
  flavor?: string;
  /** Why there is none (not found, or the first refusal). */
  error?: string;
  refused: { binary: string; from: string; reason: string }[];
}

function info<T extends { binary: string; version: string; flavor?: string }>(r: ToolReport<T>): ToolInfo {
  const refused = r.refused.map((x) => ({ binary: x.binary, from: x.from, reason: x.error.message }));
  if (!r.tool) return { found: false, error: r.error?.format() ?? 'not found', refused };
  return { found: true, binary: r.tool.binary, version: r.tool.version, ...(r.from ? { from: r.from } : {}), ...(r.tool.flavor ? { flavor: r.tool.flavor } : {}), refused };
}

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'text');
  const { env, cwd } = ctx.io;
  const where = { env, cwd };
  const [kustomize, helm, git, jsonnet] = await Promise.all([
    findKustomize({ ...where, ...(typeof ctx.values.kustomize === 'string' ? { explicit: ctx.values.kustomize } : {}) }),
    findHelm({ ...where, ...(typeof ctx.values.helm === 'string' ? { explicit: ctx.values.helm } : {}) }),
    describeGit(env),
    findJsonnet({ ...where, ...(typeof ctx.values.jsonnet === 'string' ? { explicit: ctx.values.jsonnet } : {}) }),
  ]);
  const tools: Record<string, ToolInfo> = { kustomize: info(kustomize), helm: info(helm), git: info(git), jsonnet: info(jsonnet) };
  const doc = { fleetplan: { version: VERSION, node: process.version, package: packageRoot() ?? null }, tools };
  if (format === 'json') {
    ctx.io.stdout.write(toSortedJson(doc));
    return 0;
  }
  if (format === 'yaml') {
    ctx.io.stdout.write(yamlOfJson(toSortedJson(doc)));
    return 0;
  }
  const p = ctx.color.stdout;
  const lines = [`fleetplan ${VERSION} (node ${process.version}${doc.fleetplan.package ? `, ${doc.fleetplan.package}` : ''})`];
  for (const [name, t] of Object.entries(tools)) {
    if (t.found) {
      const how = [t.flavor === 'kubectl' ? 'kubectl kustomize' : t.flavor === 'go' ? 'go-jsonnet' : t.flavor === 'cpp' ? 'C++ jsonnet' : undefined, t.from ? `from ${t.from}` : undefined].filter(Boolean).join(', ');
      lines.push(`${name.padEnd(10)} ${(t.version ?? '').padEnd(8)} ${t.binary ?? ''}${how ? `  (${how})` : ''}`);
    } else {
      lines.push(`${name.padEnd(10)} ${p.red('missing')}  ${t.error ?? ''}`);
    }
    for (const r of t.refused) {
      if (!t.found && t.error?.startsWith(r.reason)) continue;
      lines.push(`${''.padEnd(10)} ${p.yellow('refused')}  ${r.reason}`);
    }
  }
  ctx.io.stdout.write(lines.join('\n') + '\n');
  return 0;
}
