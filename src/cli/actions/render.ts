/**
 * `fleetplan render`: the Argo CD objects each cluster gets, as files or one stream. Its name, help
 * and flags are in ../commands/render.ts; this module is imported when the command runs
 * (docs/adr/0288-lazy-command-line.md).
 */
import type { CommandContext } from '../command.js';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { checkSelector, choice, progress } from '../common.js';
import { load, reportFindings, selectedClusters } from '../fleet-read.js';
import { hasErrors, UsageError } from '../../entry/core.js';
import { resolveFleet } from '../../entry/fleet-plan.js';
import { canWriteWhileResolving, renderedJsonChunks, renderedYamlChunks, repositoryApplications, resolveAndWriteFleet, writeRenderedFleet } from '../../entry/render.js';
import { FORMATS } from '../commands/render.js';
import { startWriterThread } from '../../adapters/output-writer.js';

export async function run(ctx: CommandContext): Promise<number> {
  const format = choice(ctx, 'output', FORMATS, 'yaml');
  const leaves = ctx.values.leaves === true;
  if (leaves && !ctx.values.out) throw new UsageError('--leaves needs --out DIR', { hint: 'leaf manifests are written as files under DIR/<cluster>/manifests/' });
  for (const flag of ['fetch', 'registry-config'] as const) {
    if (ctx.values[flag] !== undefined && !leaves) throw new UsageError(`--${flag} needs --leaves`, { hint: 'only leaf builds fetch remote charts and bases' });
  }
  const phase = choice(ctx, 'phase', ['1', '2'] as const, '1') === '2' ? 2 : 1;
  checkSelector(ctx);
  const kustomize = typeof ctx.values.kustomize === 'string' ? { kustomize: ctx.values.kustomize } : {};
  // The leaf builds' modules only for --leaves (ADR 0417); kustomize's version check runs while the fleet loads (ADR 0332).
  const leafEntry = leaves ? await import('../../entry/render-leaves.js') : undefined;
  const tools = leafEntry ? leafEntry.startLeafTools({ ...kustomize, env: ctx.io.env, cwd: ctx.io.cwd, ...(ctx.values.fetch === true ? { fetch: true } : {}) }) : undefined;
  // With --out the writer thread starts now, on the other core while the fleet loads (ADR 0371);
  // a fleet too small to write through a thread lets it go unused.
  const writerThread = ctx.values.out && availableParallelism() > 1 ? startWriterThread() : undefined;
  try {
    const { fleet } = await load(ctx);
    if (phase === 2 && !fleet.mirror) {
      throw new UsageError('--phase 2 needs an internal Git service: this fleet has no gitops.mirror', { hint: 'add gitops.mirror (url, app, credentials) to fleet.yaml; see fleetplan schema Fleet' });
    }
    if (phase === 2 && fleet.delivery === 'applicationset') {
      throw new UsageError('--phase 2 writes app-of-apps Applications; this fleet sets gitops.delivery: applicationset');
    }
    const selected = selectedClusters(ctx, fleet);
    const out = ctx.values.out as string | undefined;
    if (out && !leaves && canWriteWhileResolving(fleet, resolve(ctx.io.cwd, out))) {
      // A fresh output directory: each cluster's files are written while the next clusters resolve,
      // and removed again if the findings hold an error (ADR 0330).
      const r = await resolveAndWriteFleet(fleet, { clusters: selected }, resolve(ctx.io.cwd, out), { wholeFleet: selected.length === 0, phase, ...(writerThread ? { writerThread } : {}) });
      reportFindings(ctx, r.findings);
      if (hasErrors(r.findings)) {
        ctx.io.stderr.write('nothing rendered: fix the errors above\n');
        return 1;
      }
      if (!r.written) throw r.failure;
      ctx.io.stderr.write(`rendered ${r.clusters} cluster(s) into ${out}: ${r.written.written} written, ${r.written.unchanged} unchanged, ${r.written.removed} removed\n`);
      return 0;
    }
    const resolved = resolveFleet(fleet, { clusters: selected });
    const { clusters } = resolved;
    // A layout whose root ApplicationSets are the repository's own: their Applications, evaluated offline.
    const repoApps = await repositoryApplications(resolved);
    const findings = repoApps ? [...resolved.findings, ...repoApps.findings] : resolved.findings;
    const generated = repoApps?.generated;
    reportFindings(ctx, findings);
    if (hasErrors(findings)) {
      ctx.io.stderr.write('nothing rendered: fix the errors above\n');
      return 1;
    }
    // One cluster at a time: memory stays proportional to a cluster, not the fleet.
    if (out) {
      const dir = resolve(ctx.io.cwd, out);
      const writeOptions = { wholeFleet: selected.length === 0, phase, ...(generated ? { generated } : {}), ...(writerThread ? { writerThread } : {}) } as const;
      const written = (total: { written: number; unchanged: number; removed: number }) =>
        ctx.io.stderr.write(`rendered ${clusters.length} cluster(s) into ${out}: ${total.written} written, ${total.unchanged} unchanged, ${total.removed} removed\n`);
      if (!leaves) {
        written(await writeRenderedFleet(resolved, dir, writeOptions));
        return 0;
      }
      if (fleet.delivery === 'applicationset') {
        written(await writeRenderedFleet(resolved, dir, writeOptions));
        // The Applications are made by the ApplicationSet controller: render writes them when the
        // repository's ApplicationSets are evaluated offline, else the ApplicationSets; no leaf is built.
        const what = generated
          ? `the ${[...generated.byCluster.values()].reduce((n, g) => n + g.applications.length, 0)} Applications the ApplicationSets generate are written (<cluster>/apps/)`
          : `the ApplicationSets that make the ${clusters.reduce((n, c) => n + c.apps.length, 0)} Applications are written, as without --leaves`;
        ctx.io.stderr.write(`leaves: none built: fleetplan builds no leaf manifests under gitops.delivery: applicationset; ${what}, not the manifests they deploy\n`);
        return 0;
      }
      const { writeRenderedFleetWithLeaves, formatLeafReport } = leafEntry ?? (await import('../../entry/render-leaves.js'));
      const cacheDir = ctx.values['cache-dir'] as string | undefined;
      const line = progress(ctx);
      // The builds run while the clusters' files are written (ADR 0276).
      const { leaves: { run, skipped } } = await writeRenderedFleetWithLeaves(resolved, dir, writeOptions, {
        onWritten: written,
        onPlanned: (jobs, skipped, notes) => {
          for (const s of skipped) ctx.io.stderr.write(`note: ${s.cluster}/${s.app} not rendered: ${s.reason}\n`);
          for (const n of notes) ctx.io.stderr.write(`note: ${n.cluster}${n.app ? `/${n.app}` : ''}: ${n.note}\n`);
          line.update(`building 0/${jobs} leaf sources…`);
        },
        onProgress: (done, all) => line.update(`building ${done}/${all} leaf sources…`),
        env: ctx.io.env,
        cwd: ctx.io.cwd,
        ...(cacheDir !== undefined ? { cacheDir: resolve(ctx.io.cwd, cacheDir) } : {}),
        ...kustomize,
        ...(tools ? { tools } : {}),
        ...(typeof ctx.values.helm === 'string' ? { helm: ctx.values.helm } : {}),
        ...(typeof ctx.values.jsonnet === 'string' ? { jsonnet: ctx.values.jsonnet } : {}),
        ...(ctx.values.fetch === true ? { fetch: true } : {}),
        ...(typeof ctx.values['registry-config'] === 'string' ? { registryConfig: resolve(ctx.io.cwd, ctx.values['registry-config']) } : {}),
      }).finally(() => line.done());
      ctx.io.stderr.write(formatLeafReport(run, skipped));
      return run.results.some((r) => r.error) ? 1 : 0;
    }
    const chunks = format === 'json' ? renderedJsonChunks(resolved, generated, { phase }) : renderedYamlChunks(resolved, generated, { phase });
    for (const chunk of chunks) ctx.io.stdout.write(chunk);
    return 0;
  } finally {
    await writerThread?.release();
  }
}
