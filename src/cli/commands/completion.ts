/** `fleetplan completion bash|zsh|fish`: the shell script that completes fleetplan's command lines. */
import type { CommandSpec } from '../command.js';
import { SHELLS } from '../completion-scripts.js';

export const completionCommand: CommandSpec = {
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
};
