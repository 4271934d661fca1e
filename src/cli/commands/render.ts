import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { choice, clusterNames, load, reportFindings } from '../common.js';
import { deliveryFiles, renderCluster, renderedStream } from '../../render/fleet.js';
import { hasErrors } from '../../model/finding.js';
import { writeTree } from '../../adapters/output.js';
import type { WriteStats } from '../../adapters/output.js';
import { createTreeWriter } from '../../adapters/output-writer.js';
import { jsonOf } from '../../render/yaml.js';
import { resolveFleet } from '../../layering/resolve-fleet.js';
import { UsageError } from '../../errors/index.js';
import { nodeFileSystem } from '../../adapters/node-fs.js';
import { formatLeafReport, renderLeaves } from '../../render/leaves/index.js';
import { leafJobsFor } from '../../render/leaves/jobs.js';

/** From this many clusters, `--out` writes through a worker thread (starting one costs ~30 ms). */
const WRITER_MIN_CLUSTERS = 32;

export const renderCommand: Command = {
  name: 'render',
  summary: 'the Argo CD objects each cluster gets, as files (--out) or one YAML stream',
  usage: `Usage: fleetplan render [--cluster C]... [--out DIR] [-o yaml|json] [--repo DIR]

Without --out, prints every object as one multi-document YAML stream (or a JSON List with -o json),
so that \`fleetplan render --cluster hub | kubectl apply -f -\` works.
With --out DIR, writes DIR/<cluster>/apps/<app>.yaml, DIR/<cluster>/projects/<project>.yaml and
DIR/<cluster>/bootstrap/NN-*.yaml (and, for a hub that provisions clusters, DIR/<hub>/provision/<app>/
kustomize directories), and removes files an earlier render wrote that are no longer produced.
Under gitops.delivery: applicationset, no apps/ or projects/: bootstrap/ holds the cluster identity
Secret and the root ApplicationSet, and DIR/deploy/<sector>/<region>/argocd/ the rendered
<cluster-type>-values.yaml files and <cluster-type>-manifests/applicationset.yaml.
Under gitops.engine: flux, apps/<app>.yaml holds a Flux Kustomization, DIR/<cluster>/charts/<app>/
the HelmRelease of a chart app, bootstrap/ the Flux namespace, GitRepository and root Kustomization.
Nothing is written when the fleet has errors (exit 1).

--leaves (with --out) also builds every Application's source with the real kustomize (or
\`kubectl kustomize\`) or \`helm template\`, substitutes the cluster's variables strictly, and writes
DIR/<cluster>/manifests/<app>/NN-<kind>-<namespace>-<name>.yaml. Builds are cached by content
(--cache-dir, default $XDG_CACHE_HOME/fleetplan or ~/.cache/fleetplan) and run in parallel.
Tools: --kustomize PATH / --helm PATH, or FLEETPLAN_KUSTOMIZE / FLEETPLAN_HELM, or PATH.
A failing build is reported with cluster, app and path; the others still render (exit 1).`,
  options: {
    cluster: { type: 'string', multiple: true, short: 'c' },
    out: { type: 'string' },
    output: { type: 'string', short: 'o' },
    leaves: { type: 'boolean' },
    kustomize: { type: 'string' },
    helm: { type: 'string' },
    'cache-dir': { type: 'string' },
  },
  async run(ctx) {
    const format = choice(ctx, 'output', ['yaml', 'json'] as const, 'yaml');
    const leaves = ctx.values.leaves === true;
    if (leaves && !ctx.values.out) throw new UsageError('--leaves needs --out DIR', { hint: 'leaf manifests are written as files under DIR/<cluster>/manifests/' });
    const { fleet } = await load(ctx);
    const { clusters, findings } = resolveFleet(fleet, { clusters: clusterNames(ctx) });
    reportFindings(ctx, findings);
    if (hasErrors(findings)) {
      ctx.io.stderr.write('nothing rendered: fix the errors above\n');
      return 1;
    }
    // One cluster at a time: memory stays proportional to a cluster, not the fleet.
    const out = ctx.values.out as string | undefined;
    if (out) {
      const dir = resolve(ctx.io.cwd, out);
      const total = { written: 0, unchanged: 0, removed: 0 };
      const add = (stats: WriteStats) => {
        total.written += stats.written;
        total.unchanged += stats.unchanged;
        total.removed += stats.removed;
      };
      // Many clusters: a worker writes each cluster's files while the next ones render (on two
      // cores, writing no longer comes on top of rendering). Few: written here, no worker to start.
      const writer = clusters.length >= WRITER_MIN_CLUSTERS ? createTreeWriter(dir) : undefined;
      try {
        for (const c of clusters) {
          const files = renderCluster(fleet, c);
          // Provisioning directories (DIR/<hub>/provision/<app>) are managed like apps/ and bootstrap/.
          const managed = new Set([...['apps', 'projects', 'bootstrap'].map((d) => `${c.name}/${d}`), ...files.map((f) => f.path.slice(0, f.path.lastIndexOf('/')))]);
          // A spoke removed from the fleet leaves DIR/<hub>/provision/<spoke>: its generated files go too
          // (and a chart app removed from a Flux cluster its DIR/<cluster>/charts/<app>).
          const parents = [`${c.name}/provision`, `${c.name}/clustergroup`, `${c.name}/charts`];
          if (writer) await writer.write(files, [...managed], parents);
          else add(writeTree(dir, files, [...managed], parents));
        }
        if (writer) add(await writer.close());
        // delivery: applicationset — values files and ApplicationSet copies shared by clusters of one
        // sector, region and cluster type; stale ones are removed only when the whole fleet is rendered.
        const shared = deliveryFiles(fleet, clusters);
        if (shared.length > 0) {
          const managedShared = clusterNames(ctx).length === 0 ? [...new Set(shared.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))))] : [];
          add(writeTree(dir, shared, managedShared));
        }
      } catch (e) {
        await writer?.abort();
        throw e;
      }
      ctx.io.stderr.write(
        `rendered ${clusters.length} cluster(s) into ${out}: ${total.written} written, ${total.unchanged} unchanged, ${total.removed} removed\n`,
      );
      if (!leaves) return 0;
      if (fleet.delivery === 'applicationset') {
        // The Applications are made by the ApplicationSet controller from chart directories.
        ctx.io.stderr.write('note: --leaves builds nothing under gitops.delivery: applicationset (no apps are rendered)\n');
        return 0;
      }
      const { jobs, skipped } = leafJobsFor(fleet, clusters, nodeFileSystem(fleet.root));
      for (const s of skipped) ctx.io.stderr.write(`note: ${s.cluster}/${s.app} not rendered: ${s.reason}\n`);
      const cacheDir = ctx.values['cache-dir'] as string | undefined;
      const run = await renderLeaves(jobs, {
        repoRoot: fleet.root,
        outDir: dir,
        env: ctx.io.env,
        cwd: ctx.io.cwd,
        ...(cacheDir !== undefined ? { cacheDir: resolve(ctx.io.cwd, cacheDir) } : {}),
        ...(typeof ctx.values.kustomize === 'string' ? { kustomize: ctx.values.kustomize } : {}),
        ...(typeof ctx.values.helm === 'string' ? { helm: ctx.values.helm } : {}),
      });
      ctx.io.stderr.write(formatLeafReport(run));
      return run.results.some((r) => r.error) ? 1 : 0;
    }
    if (format === 'json') {
      // A kubectl List, streamed; the same bytes as toSortedJson of the whole list.
      ctx.io.stdout.write('{\n  "apiVersion": "v1",\n  "items": [');
      let first = true;
      for (const c of clusters) {
        for (const f of renderCluster(fleet, c)) {
          for (const o of f.objects) {
            ctx.io.stdout.write((first ? '\n    ' : ',\n    ') + jsonOf(o, '    '));
            first = false;
          }
        }
      }
      ctx.io.stdout.write(first ? ']' : '\n  ]');
      ctx.io.stdout.write(',\n  "kind": "List"\n}\n');
      return 0;
    }
    for (const c of clusters) ctx.io.stdout.write(renderedStream(renderCluster(fleet, c)));
    return 0;
  },
};
