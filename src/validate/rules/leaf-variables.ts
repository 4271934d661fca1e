/**
 * Rule (issue #13 part 4, ADR 0218): `render --leaves` substitutes each cluster's variables into
 * the built manifests, strictly (DESIGN.md §2: a name with no value and no default is an error
 * with file and line). Without leaves, validate reads the same manifest files statically: a
 * `${NAME}` there that the cluster does not define is the `undefined-variable` error render would
 * raise, at the same file, line and column, so a clean `validate` no longer hides a failing
 * `render --leaves`. Escaped `$${NAME}` and `${NAME:-default}` are fine, as in render.
 *
 * With `--leaves DIR` the objects are render's own output (already substituted) and
 * rules/leaf-builds.ts reports the builds that failed.
 */
import type { Finding } from '../../model/finding.js';
import { referencedVariables } from '../../model/substitute.js';
import { isFluxKustomization } from '../../model/k8s.js';
import type { RuleDefinition } from '../engine.js';
import { at } from '../context.js';

const CODE = 'undefined-variable';

export const leafVariablesRule: RuleDefinition = {
  name: 'leaf-variables',
  codes: {
    [CODE]: {
      severity: 'error',
      summary: 'variable without a value',
      help: 'Define the variable in the cluster or fleet vars, or give a default with ${NAME:-default}; render --leaves substitutes variables in app fields and in the built manifests alike.',
    },
  },
  run(ctx) {
    // Leaves of a layout whose tool substitutes nothing (Validated Patterns) get no variables.
    if (ctx.leaves || ctx.fleet.capabilities.leafVariables === false) return [];
    const out: Finding[] = [];
    const refsOf = new Map<string, ReturnType<typeof referencedVariables>>();
    for (const cluster of ctx.clusters) {
      for (const app of cluster.apps) {
        // A chart's output is Helm's; a Flux Kustomization's leaves get Flux's post-build variables
        // (flux-substitution-* findings), never the cluster's: neither is substituted by fleetplan.
        if (app.source.chart !== undefined || isFluxKustomization(app.manifest)) continue;
        const objects = ctx.objectsOf(cluster, app);
        if (!objects) continue;
        for (const file of new Set(objects.map((o) => o.file))) {
          let refs = refsOf.get(file);
          if (!refs) {
            let text: string;
            try {
              text = ctx.fs.readText(file);
            } catch {
              continue;
            }
            refsOf.set(file, (refs = referencedVariables(text)));
          }
          for (const r of refs) {
            if (r.hasDefault || Object.hasOwn(cluster.vars, r.name)) continue;
            out.push({
              ...at(file, r.line, {
                severity: 'error',
                code: CODE,
                message: `undefined variable \${${r.name}} in the manifests of app "${app.name}": render --leaves substitutes the cluster's variables here`,
                hint: `define ${r.name} in the cluster's or the fleet's vars, give a default with \${${r.name}:-value}, or write $\${${r.name}} for a literal`,
                app: app.name,
              }, r.column),
              cluster: cluster.name,
            });
          }
        }
      }
    }
    return out;
  },
};
