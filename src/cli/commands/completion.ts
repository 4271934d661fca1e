/** `fleetplan completion bash|zsh|fish`: the shell script that completes fleetplan's command lines. */
import type { Command } from '../command.js';
import { UsageError } from '../../index.js';
import { SHELLS, completionScripts } from '../completion-scripts.js';
import type { Shell } from '../completion-scripts.js';

export const completionCommand: Command = {
  name: 'completion',
  summary: 'a shell completion script: bash, zsh or fish',
  usage: `Usage: fleetplan completion bash|zsh|fish

Prints a script that completes fleetplan's commands, flags and their values: -o formats, cluster,
sector and label names of the fleet in --repo (or the current directory), files and directories.
The script asks fleetplan itself, so completion follows the fleet as it changes.`,
  examples: [
    { what: 'the bash script (load it with source <(fleetplan completion bash))', run: 'fleetplan completion bash' },
    { what: 'zsh, for good (the directory must be on $fpath, with compinit)', run: 'fleetplan completion zsh > "${fpath[1]}/_fleetplan"', notRun: 'writes into the shell\'s configuration' },
    { what: 'fish, for good', run: 'fleetplan completion fish > ~/.config/fish/completions/fleetplan.fish', notRun: 'writes into the shell\'s configuration' },
  ],
  options: {},
  allowPositionals: true,
  complete: { positionals: [SHELLS] },
  run(ctx) {
    const [shell, ...extra] = ctx.positionals;
    if (shell === undefined || extra.length > 0 || !(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(shell === undefined ? 'which shell?' : extra.length > 0 ? `one shell, got ${ctx.positionals.length}` : `unknown shell "${shell}"`, {
        hint: `fleetplan completion ${SHELLS.join('|')}`,
      });
    }
    ctx.io.stdout.write(completionScripts[shell as Shell]);
    return Promise.resolve(0);
  },
};
