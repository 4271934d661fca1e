import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { choice, clusterNames, load, reportFindings } from '../common.js';
import { renderFleet, renderedStream } from '../../render/fleet.js';
import { hasErrors } from '../../model/finding.js';
import { writeTree } from '../../adapters/output.js';
import { toSortedJson } from '../../render/yaml.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'the Argo CD objects each cluster gets, as files (--out) or one YAML stream',
  usage: `Usage: fleetplan render [--cluster C]... [--out DIR] [-o yaml|json] [--repo DIR]

Without --out, prints every object as one multi-document YAML stream (or a JSON List with -o json),
so that \`fleetplan render --cluster hub | kubectl apply -f -\` works.
With --out DIR, writes DIR/<cluster>/apps/<app>.yaml, DIR/<cluster>/projects/<project>.yaml and
DIR/<cluster>/bootstrap/NN-*.yaml (and, for a hub that provisions clusters,
DIR/<hub>/provision/<app>/ kustomize directories), and removes files an earlier render wrote that are no longer produced.
Nothing is written when the fleet has errors (exit 1).`,
  options: {
    cluster: { type: 'string', multiple: true, short: 'c' },
    out: { type: 'string' },
    output: { type: 'string', short: 'o' },
  },
  async run(ctx) {
    const format = choice(ctx, 'output', ['yaml', 'json'] as const, 'yaml');
    const { fleet } = load(ctx);
    const result = renderFleet(fleet, { clusters: clusterNames(ctx) });
    reportFindings(ctx, result.findings);
    if (hasErrors(result.findings)) {
      ctx.io.stderr.write('nothing rendered: fix the errors above\n');
      return 1;
    }
    const out = ctx.values.out as string | undefined;
    if (out) {
      const dir = resolve(ctx.io.cwd, out);
      const managed = [
        ...new Set([
          ...result.clusters.flatMap((c) => ['apps', 'projects', 'bootstrap'].map((d) => `${c.name}/${d}`)),
          ...result.files.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))),
        ]),
      ];
      const stats = writeTree(dir, result.files, managed);
      ctx.io.stderr.write(
        `rendered ${result.clusters.length} cluster(s) into ${out}: ${stats.written} written, ${stats.unchanged} unchanged, ${stats.removed} removed\n`,
      );
      return 0;
    }
    if (format === 'json') {
      ctx.io.stdout.write(toSortedJson({ apiVersion: 'v1', kind: 'List', items: result.files.flatMap((f) => f.objects) }));
    } else {
      ctx.io.stdout.write(renderedStream(result.files));
    }
    return 0;
  },
};
