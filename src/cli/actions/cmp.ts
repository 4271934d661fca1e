/**
 * `fleetplan cmp discover|generate`: the Argo CD config-management plugin. Argo CD runs it in the
 * Application's source directory; see src/render/leaves/cmp.ts for the variable rules. Its name,
 * help and flags are in ../commands/cmp.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { locateHelm } from '../../adapters/helm.js';
import { locateKustomize } from '../../adapters/kustomize.js';
import { createSourceReader } from '../../adapters/source-reader.js';
import { discoverKustomization, generateCmpManifests } from '../../entry/cmp.js';
import { UsageError } from '../../entry/core.js';
import type { HelmTool, KustomizeTool } from '../../entry/core.js';

export async function run(ctx: CommandContext): Promise<number> {
  const [sub, ...extra] = ctx.positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`, { hint: 'see `fleetplan cmp --help`' });
  const reader = createSourceReader();
  const { env, cwd } = ctx.io;
  if (sub === 'discover') {
    const found = discoverKustomization(cwd, reader);
    if (found) ctx.io.stdout.write(`${found}\n`);
    return 0;
  }
  if (sub === 'generate') {
    const declared = ((ctx.values.variable as string[] | undefined) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
    let kustomize: Promise<KustomizeTool> | undefined;
    let helm: Promise<HelmTool> | undefined;
    const text = await generateCmpManifests(
      { dir: cwd, env, variables: declared, alphaPlugins: ctx.values['enable-alpha-plugins'] === true },
      {
        reader,
        kustomize: () => (kustomize ??= locateKustomize({ explicit: ctx.values.kustomize as string | undefined, env, cwd })),
        helm: () => (helm ??= locateHelm({ explicit: ctx.values.helm as string | undefined, env, cwd })),
      },
    );
    ctx.io.stdout.write(text);
    return 0;
  }
  throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand "${sub}"`, { hint: 'use `fleetplan cmp discover` or `fleetplan cmp generate`' });
}
