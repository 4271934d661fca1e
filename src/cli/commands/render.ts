import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { clusterOptions, clusterSecretsOptions } from '../command.js';
import { checkSelector, choice, load, progress, reportFindings, selectedClusters } from '../common.js';
import { hasErrors, resolveFleet, UsageError, formatLeafReport, renderedJsonChunks, renderedYamlChunks, repositoryApplications, writeRenderedFleet, writeRenderedFleetWithLeaves } from '../../index.js';

const FORMATS = ['yaml', 'json'] as const;

export const renderCommand: Command = {
  name: 'render',
  summary: 'the Argo CD objects each cluster gets, as files (--out) or one YAML stream',
  usage: `Usage: fleetplan render [--cluster C]... [-l SELECTOR] [--clusters FILE] [--out DIR [--leaves [--fetch]]] [--phase 1|2] [-o yaml|json] [--repo DIR]

Without --out, prints every object as one multi-document YAML stream (or a JSON List with -o json),
so that \`fleetplan render --cluster hub | kubectl apply -f -\` works.
With --out DIR, writes DIR/<cluster>/apps/<app>.yaml, DIR/<cluster>/projects/<project>.yaml and
DIR/<cluster>/bootstrap/NN-*.yaml (and, for a hub that provisions clusters, DIR/<hub>/provision/<app>/
kustomize directories), and removes files an earlier render wrote that are no longer produced.
Under gitops.delivery: applicationset, no apps/ or projects/: bootstrap/ holds the cluster identity
Secret and the root ApplicationSet, and DIR/deploy/<sector>/<region>/argocd/ the rendered
<cluster-type>-values.yaml files and <cluster-type>-manifests/applicationset.yaml. On a repository
whose ApplicationSets are its own (the rosa-regional layout), apps/ holds the Applications each
cluster's ApplicationSet generates, evaluated offline, and nothing is written under deploy/.
Under gitops.engine: flux, apps/<app>.yaml holds a Flux Kustomization, DIR/<cluster>/charts/<app>/
the HelmRelease of a chart app, bootstrap/ the Flux namespace, GitRepository and root Kustomization.
Nothing is written when the fleet has errors (exit 1).

--phase 2 (a fleet with gitops.mirror) also writes the self-referencing objects of phase 2 under
DIR/<cluster>/phase-2/: apps/ and projects/ whose sources read the internal Git URL, and
bootstrap/NN-root-application.yaml, the root Application that reads phase-2/ from the internal Git.
Commit them with the rest: \`fleetplan mirror\` pushes that commit and switches to them.

--leaves (with --out) also builds every Application's source with the real kustomize (or
\`kubectl kustomize\`) or \`helm template\`, substitutes the cluster's variables strictly, and writes
DIR/<cluster>/manifests/<app>/NN-<kind>-<namespace>-<name>.yaml. Builds are cached by content
(--cache-dir, default $XDG_CACHE_HOME/fleetplan or ~/.cache/fleetplan) and run in parallel.
Tools: --kustomize PATH / --helm PATH, else FLEETPLAN_KUSTOMIZE / FLEETPLAN_HELM, else PATH, else the
.tools/bin of a fleetplan checkout (see \`fleetplan version\`). On a terminal a progress line shows
the builds done; a failing build is reported with cluster, app and path; the others still render (exit 1).

--leaves builds offline: a chart from a Helm repository or an OCI registry that is not in the
local chart cache, and a kustomization that reads remote bases or charts, are not built, and each
says so. --fetch lets them reach the network: remote charts are pulled with \`helm pull\` into the
fetch cache (<cache dir>/charts-fetched, by repository, chart and version; a version range is
resolved by Helm and the version printed, with the archive's sha256 and an OCI digest), and
kustomize fetches remote bases as Argo CD does. Helm gets no logins of its own configuration or
the environment: --registry-config FILE (Helm's registry config.json) gives the registry logins.
Apps built by a config-management plugin (source.plugin) are never built: fleetplan does not run
a repository's plugin commands; each is listed in a note.
A directory source's .jsonnet files are evaluated as Argo CD evaluates them (directory.jsonnet
extVars, tlas and libs; imports only inside the repository; 90 s and 64 MiB per file) with
--jsonnet PATH, else FLEETPLAN_JSONNET, else go-jsonnet or jsonnet on PATH; without one, such an
app is not built and says so.`,
  examples: [
    { what: 'every Argo CD object of the hub as one YAML stream, ready for kubectl apply -f -', run: 'fleetplan render --repo examples/lab --cluster hub' },
    { what: 'the spokes as a kubectl List in JSON', run: 'fleetplan render --repo examples/lab -l role=spoke -o json' },
    { what: 'write the files of every cluster under rendered/', run: 'fleetplan render --repo examples/lab --out rendered' },
    {
      what: 'also build every app with kustomize and Helm into rendered/<cluster>/manifests/',
      run: 'fleetplan render --repo examples/lab --out rendered --leaves',
      notRun: 'builds 57 apps with the real tools (test/cli/render-leaves.test.ts runs it)',
    },
    { what: 'apply the hub\'s objects to the cluster of the current context', run: 'fleetplan render --repo examples/lab --cluster hub | kubectl apply -f -', notRun: 'needs a cluster' },
  ],
  options: {
    ...clusterOptions,
    ...clusterSecretsOptions,
    out: { type: 'string' },
    output: { type: 'string', short: 'o' },
    leaves: { type: 'boolean' },
    phase: { type: 'string' },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
    jsonnet: { type: 'string' },
    'cache-dir': { type: 'string' },
    fetch: { type: 'boolean' },
    'registry-config': { type: 'string' },
  },
  complete: { flags: { phase: ['1', '2'], output: FORMATS, clusters: 'file', out: 'dir', 'cache-dir': 'dir', kustomize: 'file', helm: 'file', jsonnet: 'file', 'registry-config': 'file' } },
  async run(ctx) {
    const format = choice(ctx, 'output', FORMATS, 'yaml');
    const leaves = ctx.values.leaves === true;
    if (leaves && !ctx.values.out) throw new UsageError('--leaves needs --out DIR', { hint: 'leaf manifests are written as files under DIR/<cluster>/manifests/' });
    for (const flag of ['fetch', 'registry-config'] as const) {
      if (ctx.values[flag] !== undefined && !leaves) throw new UsageError(`--${flag} needs --leaves`, { hint: 'only leaf builds fetch remote charts and bases' });
    }
    const phase = choice(ctx, 'phase', ['1', '2'] as const, '1') === '2' ? 2 : 1;
    checkSelector(ctx);
    const { fleet } = await load(ctx);
    if (phase === 2 && !fleet.mirror) {
      throw new UsageError('--phase 2 needs an internal Git service: this fleet has no gitops.mirror', { hint: 'add gitops.mirror (url, app, credentials) to fleet.yaml; see fleetplan schema Fleet' });
    }
    if (phase === 2 && fleet.delivery === 'applicationset') {
      throw new UsageError('--phase 2 writes app-of-apps Applications; this fleet sets gitops.delivery: applicationset');
    }
    const selected = selectedClusters(ctx, fleet);
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
    const out = ctx.values.out as string | undefined;
    if (out) {
      const dir = resolve(ctx.io.cwd, out);
      const writeOptions = { wholeFleet: selected.length === 0, phase, ...(generated ? { generated } : {}) } as const;
      const written = (total: { written: number; unchanged: number; removed: number }) =>
        ctx.io.stderr.write(`rendered ${clusters.length} cluster(s) into ${out}: ${total.written} written, ${total.unchanged} unchanged, ${total.removed} removed\n`);
      if (!leaves) {
        written(await writeRenderedFleet(resolved, dir, writeOptions));
        return 0;
      }
      if (fleet.delivery === 'applicationset') {
        written(await writeRenderedFleet(resolved, dir, writeOptions));
        // The Applications are made by the ApplicationSet controller from chart directories.
        ctx.io.stderr.write('note: --leaves builds nothing under gitops.delivery: applicationset (no apps are rendered)\n');
        return 0;
      }
      const cacheDir = ctx.values['cache-dir'] as string | undefined;
      const line = progress(ctx);
      // The builds run while the clusters' files are written (ADR 0276).
      const { leaves: { run } } = await writeRenderedFleetWithLeaves(resolved, dir, writeOptions, {
        onWritten: written,
        onPlanned: (jobs, skipped, notes) => {
          for (const s of skipped) ctx.io.stderr.write(`note: ${s.cluster}/${s.app} not rendered: ${s.reason}\n`);
          for (const n of notes) ctx.io.stderr.write(`note: ${n.cluster}/${n.app}: ${n.note}\n`);
          line.update(`building 0/${jobs} leaf sources…`);
        },
        onProgress: (done, all) => line.update(`building ${done}/${all} leaf sources…`),
        env: ctx.io.env,
        cwd: ctx.io.cwd,
        ...(cacheDir !== undefined ? { cacheDir: resolve(ctx.io.cwd, cacheDir) } : {}),
        ...(typeof ctx.values.kustomize === 'string' ? { kustomize: ctx.values.kustomize } : {}),
        ...(typeof ctx.values.helm === 'string' ? { helm: ctx.values.helm } : {}),
        ...(typeof ctx.values.jsonnet === 'string' ? { jsonnet: ctx.values.jsonnet } : {}),
        ...(ctx.values.fetch === true ? { fetch: true } : {}),
        ...(typeof ctx.values['registry-config'] === 'string' ? { registryConfig: resolve(ctx.io.cwd, ctx.values['registry-config']) } : {}),
      }).finally(() => line.done());
      ctx.io.stderr.write(formatLeafReport(run));
      return run.results.some((r) => r.error) ? 1 : 0;
    }
    const chunks = format === 'json' ? renderedJsonChunks(resolved, generated, { phase }) : renderedYamlChunks(resolved, generated, { phase });
    for (const chunk of chunks) ctx.io.stdout.write(chunk);
    return 0;
  },
};
