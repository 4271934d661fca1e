/**
 * `fleetplan completion bash|zsh|fish`: the shell script that completes fleetplan's command lines.
 * Its name, help and flags are in ../commands/completion.ts; this module is imported when the
 * command runs (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { UsageError } from '../../entry/core.js';
import { SHELLS, completionScripts } from '../completion-scripts.js';
import type { Shell } from '../completion-scripts.js';

export async function run(ctx: CommandContext): Promise<number> {
  const [shell, ...extra] = ctx.positionals;
  if (shell === undefined || extra.length > 0 || !(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(shell === undefined ? 'which shell?' : extra.length > 0 ? `one shell, got ${ctx.positionals.length}` : `unknown shell "${shell}"`, {
      hint: `fleetplan completion ${SHELLS.join('|')}`,
    });
  }
  ctx.io.stdout.write(completionScripts[shell as Shell]);
  return Promise.resolve(0);
}
