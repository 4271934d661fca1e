import type { Command } from '../command.js';
import { choice, clusterNames, load } from '../common.js';
import { argoCdSchemasFromCrds, ruleCatalog, validateFleet, hasErrors, formatFindingsText, findingsJson, findingsSarif, VERSION } from '../../index.js';
import { resolve } from 'node:path';
import { leafObjectsFromDirectory } from '../../adapters/leaf-objects.js';
import { readManifests } from '../../adapters/manifests.js';

export const validateCommand: Command = {
  name: 'validate',
  summary: 'find what is wrong before it merges; exit 1 when any error is found',
  usage: `Usage: fleetplan validate [--cluster C]... [-o text|json|sarif] [--leaves DIR] [--argocd-crds PATH] [--repo DIR]

Reports schema errors, unknown or cyclic needs, wave conflicts and undefined variables, then
runs the rules: CRDs before their custom resources, waves that do not wait, helmfile needs and
Flux dependsOn graphs, network overlaps across the fleet, secrets in Git, placement policies,
production safety and repository hygiene — each finding with file, line and a hint.
Turn a code off or change its severity in fleet.yaml spec.validation.rules; -o sarif lists the codes.
  -o text    grouped by file, with a summary line (default)
  -o json    { findings: [...], summary: {...} }
  -o sarif   SARIF 2.1.0, for code scanning in CI
  --leaves DIR   check the objects of \`fleetplan render --leaves --out DIR\` instead of reading
                 app directories statically (charts, patches and generators included)
  --argocd-crds PATH   check Application, ApplicationSet and AppProject objects against the
                 CRDs of the Argo CD you run (its CRD files or install manifests, a file or a
                 directory) instead of the built-in schema (Argo CD v3.3)
Exit 1 on errors, 0 when there are only warnings or nothing.`,
  options: { cluster: { type: 'string', multiple: true, short: 'c' }, output: { type: 'string', short: 'o' }, leaves: { type: 'string' }, 'argocd-crds': { type: 'string' } },
  async run(ctx) {
    const format = choice(ctx, 'output', ['text', 'json', 'sarif'] as const, 'text');
    const { fleet } = await load(ctx);
    const leavesDir = ctx.values.leaves as string | undefined;
    const leaves = leavesDir !== undefined ? leafObjectsFromDirectory(resolve(ctx.io.cwd, leavesDir)) : undefined;
    const crds = ctx.values['argocd-crds'] as string | undefined;
    const argoCdSchemas = crds !== undefined ? argoCdSchemasFromCrds(readManifests(resolve(ctx.io.cwd, crds), ctx.io.cwd), crds) : undefined;
    const findings = validateFleet(fleet, { clusters: clusterNames(ctx), ...(leaves ? { leaves } : {}), ...(argoCdSchemas ? { argoCdSchemas } : {}) });
    if (format === 'json') ctx.io.stdout.write(findingsJson(findings));
    else if (format === 'sarif') ctx.io.stdout.write(findingsSarif(findings, VERSION, ruleCatalog()));
    else ctx.io.stdout.write(formatFindingsText(findings));
    return hasErrors(findings) ? 1 : 0;
  },
};
