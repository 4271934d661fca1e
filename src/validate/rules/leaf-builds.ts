/**
 * Rule (issue #13 part 4, ADR 0218): with `validate --leaves DIR`, every app that
 * `render --leaves` builds must have its leaf manifests in DIR. An app whose build failed has no
 * folder there (render writes one per successful build, empty when it built nothing), and the
 * other rules would read its sources statically and say nothing: the failure was silent. It is a
 * finding at the app's definition instead, and the message says how to see the build's error.
 */
import type { Finding } from '../../model/finding.js';
import { leafJobsFor } from '../../render/leaves/jobs.js';
import type { RuleDefinition } from '../engine.js';
import { place } from '../context.js';

const CODE = 'leaf-not-built';
const FAILED = 'leaf-build-failed';

export const leafBuildsRule: RuleDefinition = {
  name: 'leaf-builds',
  codes: {
    [CODE]: {
      severity: 'error',
      summary: 'an app render --leaves builds has no leaf manifests',
      help: 'validate --leaves DIR reads what `fleetplan render --leaves --out DIR` built. An app with no DIR/<cluster>/manifests/<app> failed to build (or DIR is from an older render): run render --leaves, which prints the build error with its file and line, and fix it.',
    },
    [FAILED]: {
      severity: 'error',
      summary: 'the build of an app by render --leaves failed',
      help: 'render --leaves --out DIR records each failed build in DIR (.fleetplan-leaf-failures.json); validate --leaves DIR reports it at the place the build named (the kustomization, chart or manifest line), naming the app, its cluster and where the app is defined. Fix the build and render again.',
    },
  },
  run(ctx) {
    const leaves = ctx.leaves;
    // Objects handed in for some apps only (the library's partial use) say nothing about the rest.
    if (!leaves?.complete) return [];
    const out: Finding[] = [];
    const { jobs } = leafJobsFor(ctx.fleet, ctx.clusters, ctx.fs);
    const byKey = new Map(ctx.clusters.flatMap((c) => c.apps.map((a) => [`${c.name}\0${a.name}`, a] as const)));
    for (const job of jobs) {
      if (leaves.objects(job.cluster, job.app) !== undefined) continue;
      const app = byKey.get(`${job.cluster}\0${job.app}`);
      if (!app) continue;
      const failed = leaves.failure?.(job.cluster, job.app);
      if (failed) {
        const defined = place(ctx.fleet, app.origin, { severity: 'error', code: FAILED, message: '' });
        const where = defined.file ? ` (defined at ${defined.file}${defined.line ? `:${defined.line}` : ''})` : '';
        const build = failed.file ? { file: failed.file, ...(failed.line ? { line: failed.line } : {}), ...(failed.line && failed.column ? { column: failed.column } : {}), ...(failed.path ? { path: failed.path } : {}) } : { ...defined, message: undefined };
        out.push({
          ...build,
          severity: 'error',
          code: FAILED,
          // render's own message starts with "cluster C, app A: " where it names them: said once.
          message: `app "${job.app}" on cluster ${job.cluster}${where}: not built: ${failed.message.replace(`cluster ${job.cluster}, app ${job.app}: `, '')} [${failed.code}]`,
          ...(failed.hint ? { hint: failed.hint } : {}),
          app: job.app,
          cluster: job.cluster,
        });
        continue;
      }
      out.push({
        ...place(ctx.fleet, app.origin, {
          severity: 'error',
          code: CODE,
          message: `app "${job.app}" on cluster ${job.cluster} has no leaf manifests (${job.cluster}/manifests/${job.app}): its build failed or did not run`,
          hint: 'run `fleetplan render --leaves --out DIR`, which prints the build error, and fix it',
          app: job.app,
        }),
        cluster: job.cluster,
      });
    }
    return out;
  },
};
