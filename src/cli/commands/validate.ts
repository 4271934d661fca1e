import type { Command } from '../command.js';
import { choice, clusterNames, load } from '../common.js';
import { validateFleet } from '../../index.js';
import { hasErrors } from '../../model/finding.js';
import { formatFindingsText } from '../../render/plan-format.js';
import { findingsJson, findingsSarif } from '../../render/findings-format.js';
import { VERSION } from '../../version.js';

export const validateCommand: Command = {
  name: 'validate',
  summary: 'find what is wrong before it merges; exit 1 when any error is found',
  usage: `Usage: fleetplan validate [--cluster C]... [-o text|json|sarif] [--repo DIR]

Reports schema errors, unknown or cyclic needs, wave conflicts, duplicate apps, undefined
variables and app paths that do not exist, each with file, line and a hint.
  -o text    grouped by file, with a summary line (default)
  -o json    { findings: [...], summary: {...} }
  -o sarif   SARIF 2.1.0, for code scanning in CI
Exit 1 on errors, 0 when there are only warnings or nothing.`,
  options: { cluster: { type: 'string', multiple: true, short: 'c' }, output: { type: 'string', short: 'o' } },
  async run(ctx) {
    const format = choice(ctx, 'output', ['text', 'json', 'sarif'] as const, 'text');
    const { fleet } = await load(ctx);
    const findings = validateFleet(fleet, { clusters: clusterNames(ctx) });
    if (format === 'json') ctx.io.stdout.write(findingsJson(findings));
    else if (format === 'sarif') ctx.io.stdout.write(findingsSarif(findings, VERSION));
    else ctx.io.stdout.write(formatFindingsText(findings));
    return hasErrors(findings) ? 1 : 0;
  },
};
