/** The help texts: `fleetplan --help` (the commands) and `fleetplan help CMD` / `CMD --help`. */
import type { Command } from './command.js';
import { SELECTOR_SYNTAX } from '../entry/core.js';

export function topHelp(commands: readonly Command[]): string {
  const rows: [string, string][] = [...commands.map((c): [string, string] => [c.name, c.summary]), ['help', 'help about a command: fleetplan help COMMAND']];
  const width = Math.max(...rows.map(([n]) => n.length));
  return [
    'fleetplan: plan, render, validate and bootstrap GitOps fleets',
    '',
    'Usage: fleetplan COMMAND [flags]',
    '',
    'Commands:',
    ...rows.map(([n, s]) => `  ${n.padEnd(width)}  ${s}`),
    '',
    'Flags of every command:',
    '  --repo DIR      the fleet repository (default: the current directory)',
    '  -h, --help      help for the command',
    '  -v, --version   fleetplan\'s version and the kustomize, Helm and git it finds',
    '',
    'Run `fleetplan help COMMAND` (or `fleetplan COMMAND --help`) for a command\'s flags and examples.',
    '',
  ].join('\n');
}

/** Shown by every command that takes --cluster. */
export const SELECTOR_HELP = `Choosing clusters:
  -c, --cluster C     a cluster by name (repeat for more); default: every cluster
  -l, --selector SEL  clusters whose labels match, in kubectl's syntax:
                      ${SELECTOR_SYNTAX}.
                      Keys: the cluster's labels (metadata.labels, spec.labels) and the built-in
                      fleetplan.io/name, /role, /sector, /region, /hub and /group (a cluster
                      matches a group requirement when any of its groups does), and role, sector,
                      region when the cluster has no label of that name. Repeat: all must hold.
                      With --cluster, only the named clusters that match.`;

export function commandHelp(c: Command): string {
  const parts = [c.usage.replace(/\n+$/, '')];
  if (c.options.selector) parts.push(SELECTOR_HELP);
  if (c.examples.length > 0) {
    parts.push(`Examples:\n${c.examples.map((e) => `  # ${e.what}\n  ${e.run}`).join('\n\n')}`);
  }
  return parts.join('\n\n') + '\n';
}
