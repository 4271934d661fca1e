/**
 * Rule (issue #12 parts 4 and 5, docs/adr/0319-validate-reads-jsonnet.md): the Jsonnet Argo CD
 * evaluates — the `.jsonnet` files its directory sources select, with each Application's libs —
 * is read: every import leading outside the repository (render refuses it, ADR 0303) and every
 * import that names no file are reported at the importing file and line; with the evaluations of
 * the real binary (`ctx.jsonnet`, jsonnet-evaluate.ts), its syntax and evaluation errors too, at
 * the file and line Jsonnet names. A `.jsonnet` file no source evaluates is not judged.
 *
 * Jsonnet reads an import only when its value is needed: a missing import the evaluation never
 * reached (it succeeded) is a warning, not an error Argo CD would hit.
 */
import type { Finding } from '../../model/finding.js';
import type { RuleDefinition } from '../engine.js';
import type { JsonnetUse } from '../jsonnet-sources.js';
import { jsonnetEvaluationKey, jsonnetImportProblems, jsonnetSources } from '../jsonnet-sources.js';

/** `Application web (defined at apps/web.yaml:3) on cluster one`, for up to three uses. */
function readBy(uses: readonly JsonnetUse[]): string {
  const apps = new Map<string, { definedAt: string | undefined; clusters: string[] }>();
  for (const u of uses) {
    const a = apps.get(u.app) ?? { definedAt: u.definedAt, clusters: [] };
    if (!a.clusters.includes(u.cluster)) a.clusters.push(u.cluster);
    apps.set(u.app, a);
  }
  const parts = [...apps].map(([app, a]) => {
    const at = a.definedAt?.match(/ at (\S+)$/)?.[1];
    return `Application ${app}${at ? ` (${at})` : ''} on cluster${a.clusters.length === 1 ? '' : 's'} ${a.clusters.join(', ')}`;
  });
  return parts.length > 3 ? `${parts.slice(0, 3).join('; ')} and ${parts.length - 3} more` : parts.join('; ');
}

export const jsonnetRule: RuleDefinition = {
  name: 'jsonnet',
  codes: {
    'jsonnet-outside-repo': {
      severity: 'error',
      summary: 'a Jsonnet import or lib leads outside the repository',
      help: 'Argo CD evaluates a directory source\'s .jsonnet files inside the repository checkout; render --leaves refuses an import (import, importstr, importbin) or a directory.jsonnet.libs path that would read outside it (ADR 0303). Vendor the library into the repository and name it in spec.source.directory.jsonnet.libs.',
    },
    'jsonnet-import-missing': {
      severity: 'error',
      summary: 'a Jsonnet import names no file',
      help: 'The import is resolved beside the importing file, then in the libs (last first), then in the source directory, as Argo CD\'s repo-server resolves it; nothing is there. Jsonnet fails the evaluation when it reaches the import ("couldn\'t open import"); where the evaluation with the Application\'s settings succeeded, it never reached it and the finding is a warning.',
    },
    'jsonnet-syntax': {
      severity: 'error',
      summary: 'a Jsonnet file Argo CD evaluates does not parse',
      help: 'Jsonnet reports a STATIC ERROR at the file and line; Argo CD fails the app the same way. Fix the syntax.',
    },
    'jsonnet-failed': {
      severity: 'error',
      summary: 'the evaluation of a Jsonnet file Argo CD evaluates fails',
      help: 'Jsonnet reports a RUNTIME ERROR (an error expression, a missing field, a wrong type, an unknown ext var or TLA) with the Application\'s directory.jsonnet settings; Argo CD fails the app the same way.',
    },
    'jsonnet-limit': {
      severity: 'error',
      summary: 'a Jsonnet evaluation runs too long or writes too much',
      help: 'Each evaluation is bounded as Argo CD bounds its tools (90 s) and to 64 MiB of output.',
    },
    'jsonnet-output': {
      severity: 'error',
      summary: 'a Jsonnet file\'s output is not Kubernetes objects',
      help: 'Argo CD reads the output of a .jsonnet file as one object or an array of objects, each with a kind.',
    },
    'jsonnet-std-missing': {
      severity: 'warning',
      summary: 'the Jsonnet that ran lacks a standard-library function the file calls',
      help: 'The C++ jsonnet 0.18 (Debian\'s) lacks standard-library functions go-jsonnet has (std.objectKeysValues, std.all, …); Argo CD runs go-jsonnet. The file is not judged by this evaluation: install go-jsonnet and point FLEETPLAN_JSONNET at it.',
    },
    'jsonnet-not-evaluated': {
      severity: 'info',
      summary: 'Jsonnet files were not evaluated (no Jsonnet binary)',
      help: 'Imports were checked; syntax and evaluation errors need a Jsonnet (apt-get install jsonnet, or go-jsonnet; FLEETPLAN_JSONNET).',
    },
  },
  run(ctx) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    const push = (f: Finding): void => {
      const k = `${f.code}\0${f.file ?? ''}\0${f.line ?? ''}\0${f.message}`;
      if (seen.has(k)) return;
      seen.add(k);
      out.push(f);
    };
    const sources = jsonnetSources(ctx.fleet, ctx.clusters, ctx.fs);
    const unchecked = new Set<string>();
    for (const s of sources) {
      const by = readBy(s.uses);
      const who = s.uses.length > 0 ? { app: s.uses[0]!.app, cluster: s.uses[0]!.cluster } : {};
      for (const file of s.files) {
        const problems = jsonnetImportProblems(ctx.fs, s.dir, file, s.settings.libs);
        const evaluation = ctx.jsonnet?.results.get(jsonnetEvaluationKey(s.dir, file, s.settings));
        if (!evaluation) unchecked.add(file);
        for (const p of problems) {
          if (p.kind === 'lib-outside') {
            push({
              severity: 'error',
              code: 'jsonnet-outside-repo',
              message: `directory.jsonnet.libs "${p.path}" of the source ${s.dir} resolves to ${p.target}, outside the repository (read by ${by})`,
              file: s.uses[0]?.definedAt?.match(/ at ([^:\s]+)/)?.[1] ?? s.dir,
              hint: 'libs are paths relative to the repository root; Argo CD refuses one that leaves it',
              ...who,
            });
          } else if (p.kind === 'outside') {
            push({
              severity: 'error',
              code: 'jsonnet-outside-repo',
              message: `${p.importKind} "${p.path}" would read ${p.target}, outside the repository (${p.file === file ? '' : `reached from ${file}, `}read by ${by})`,
              file: p.file,
              line: p.line!,
              hint: 'Jsonnet imports must stay inside the repository: vendor the library into it and name it in spec.source.directory.jsonnet.libs',
              ...who,
            });
          } else {
            const reached = evaluation === undefined || (!evaluation.ok && evaluation.missingImport);
            push({
              severity: reached ? 'error' : 'warning',
              code: 'jsonnet-import-missing',
              message: `${p.importKind} "${p.path}" names no file beside ${p.file}, in the libs or in ${s.dir} (${p.file === file ? '' : `reached from ${file}, `}read by ${by})${reached ? '' : `: the evaluation with these settings never reached it, but Argo CD fails the app the moment it does`}`,
              file: p.file,
              line: p.line!,
              hint: 'fix the path, add the file, or name the folder that holds it in spec.source.directory.jsonnet.libs',
              ...who,
            });
          }
        }
        if (evaluation && !evaluation.ok) {
          // An import Jsonnet could not open is the static finding above, at the import.
          if (evaluation.missingImport && problems.some((p) => p.kind === 'missing')) continue;
          if (evaluation.std !== undefined) {
            push({
              severity: 'warning',
              code: 'jsonnet-std-missing',
              message: `${file} (read by ${by}) calls std.${evaluation.std}, which ${ctx.jsonnet?.tool ?? 'the Jsonnet found'} lacks; go-jsonnet, which Argo CD runs, has newer standard-library functions: not judged`,
              file: evaluation.file,
              ...(evaluation.line ? { line: evaluation.line } : {}),
              hint: 'install go-jsonnet (https://github.com/google/go-jsonnet) and point FLEETPLAN_JSONNET at it',
              ...who,
            });
            continue;
          }
          push({
            severity: 'error',
            code: evaluation.code === 'invalid-manifests' ? 'jsonnet-output' : evaluation.code,
            message: `jsonnet ${file} (read by ${by}): ${evaluation.message}`,
            file: evaluation.file,
            ...(evaluation.line ? { line: evaluation.line } : {}),
            ...(evaluation.line && evaluation.column ? { column: evaluation.column } : {}),
            hint: `fix the Jsonnet: Argo CD cannot evaluate it either${ctx.jsonnet?.tool ? ` (evaluated with ${ctx.jsonnet.tool})` : ''}`,
            ...who,
          });
        }
      }
    }
    if (ctx.jsonnet?.notEvaluated !== undefined && unchecked.size > 0) {
      const files = [...unchecked].sort();
      push({
        severity: 'info',
        code: 'jsonnet-not-evaluated',
        message: `${files.length} Jsonnet file${files.length === 1 ? '' : 's'} Argo CD evaluates ${files.length === 1 ? 'was' : 'were'} not checked for syntax and evaluation errors (${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''}): ${ctx.jsonnet.notEvaluated}`,
        file: files[0]!,
        hint: 'install Jsonnet (apt-get install jsonnet, or go-jsonnet), or point FLEETPLAN_JSONNET at one',
      });
    }
    return out;
  },
};
