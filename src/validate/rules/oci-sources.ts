/**
 * OCI sources and repository Secrets, judged as Argo CD reads them (ADR 0316, 0317): an `oci://`
 * repoURL oras-go cannot parse, or a targetRevision that is neither a tag, a digest nor a semver
 * range, fails on the cluster; a `chart` beside an `oci://` repoURL is ignored there; a chart
 * repoURL without a scheme whose repository Secret does not enable OCI cannot be fetched; a
 * repository Secret whose boolean field is not a Go bool is not read at all.
 */
import type { Finding } from '../../model/finding.js';
import { parseOciRepoURL } from '../../model/helm-oci.js';
import type { RuleDefinition } from '../engine.js';
import { at, fieldOrigin, place } from '../context.js';
import { RepositorySecrets, chartRepositoryIsOci, sourceLocations } from '../../render/leaves/jobs-oci.js';
import { ociRevision } from '../../render/leaves/oci.js';
import type { SourceLocation } from '../../errors/index.js';

export const ociSourcesRule: RuleDefinition = {
  name: 'oci-sources',
  codes: {
    'invalid-oci-reference': {
      severity: 'error',
      summary: 'an oci:// source Argo CD cannot pull',
      help: 'Argo CD 3.1 pulls repoURL oci://registry/repository at targetRevision (a tag, a sha256: digest or a semver range); a malformed one fails the Application.',
    },
    'oci-chart-ignored': {
      severity: 'warning',
      summary: 'chart is ignored beside an oci:// repoURL',
      help: 'Argo CD 3 treats an oci:// repoURL as the artifact itself and ignores chart; write the chart into repoURL and set path: ".".',
    },
    'chart-repository-not-oci': {
      severity: 'error',
      summary: 'a chart repository without a scheme that Argo CD reads as an HTTP repository',
      help: 'A repoURL without a scheme works only as an OCI registry: Go must parse it without a host, or its repository Secret must set enableOCI: "true".',
    },
    'repository-secret-invalid': {
      severity: 'error',
      summary: 'a repository Secret Argo CD cannot read',
      help: 'Argo CD reads enableOCI, insecure, insecureOCIForceHttp and forceHttpBasicAuth with Go\'s ParseBool; another value makes the whole Secret unreadable.',
    },
  },
  run(ctx) {
    const { fleet, clusters, fs } = ctx;
    const out: Finding[] = [];
    // These are Argo CD's rules for its Applications; a Flux or helmfile fleet's charts are read by
    // helm-controller and helmfile, which take an oci:// chart as the chart itself.
    if (fleet.engine !== 'argocd') return out;
    const seen = new Set<string>();
    const repositories = new RepositorySecrets(fs);
    const push = (key: string, f: Finding) => {
      if (seen.has(key)) return;
      seen.add(key);
      out.push(f);
    };
    const where = (loc: SourceLocation | undefined, fallback: () => Finding, draft: Omit<Finding, 'file' | 'line'>): Finding =>
      loc ? at(loc.file, loc.line, { ...draft, ...(loc.path ? { path: loc.path } : {}) }, loc.column) : { ...fallback(), ...draft };
    let anyRemote = false;
    for (const c of clusters) {
      for (const app of c.apps) {
        const url = app.source.repoURL;
        if (url === undefined) continue;
        if (url.startsWith('oci://')) {
          anyRemote = true;
          const locs = sourceLocations(fs, app.from, app.name, url);
          const fallback = (field: string) => () => place(fleet, fieldOrigin(fleet, app, [field]), { severity: 'error', code: 'invalid-oci-reference', message: '' });
          const parsed = parseOciRepoURL(url);
          if (typeof parsed === 'string') {
            push(`${app.from}\0${app.name}\0repo`, where(locs?.repoURL, fallback('repoURL'), {
              severity: 'error',
              code: 'invalid-oci-reference',
              message: `Application ${app.name}: repoURL ${url} is not an OCI reference Argo CD can pull: ${parsed}`,
              hint: 'write oci://registry[:port]/repository (lower case), with the tag or digest in targetRevision',
              cluster: c.name,
              app: app.name,
            }));
          }
          const rev = ociRevision(app.source.targetRevision ?? '');
          if (typeof rev === 'string') {
            push(`${app.from}\0${app.name}\0rev`, where(locs?.version ?? locs?.repoURL, fallback('targetRevision'), {
              severity: 'error',
              code: 'invalid-oci-reference',
              message: `Application ${app.name}: targetRevision of ${url}: ${rev}`,
              hint: 'write a tag (1.2.0), a digest (sha256: and 64 hex digits) or a semver range (^1.2.0)',
              cluster: c.name,
              app: app.name,
            }));
          }
          // A chart that the repoURL already ends with is ignored harmlessly: the artifact is that chart.
          if (app.source.chart !== undefined && app.source.chart !== '' && url.replace(/\/+$/, '').split('/').pop() !== app.source.chart) {
            push(`${app.from}\0${app.name}\0chart`, where(locs?.chart ?? locs?.repoURL, fallback('chart'), {
              severity: 'warning',
              code: 'oci-chart-ignored',
              message: `Application ${app.name}: chart ${app.source.chart} is ignored: Argo CD pulls ${url} itself as the artifact`,
              hint: `write repoURL: ${url.replace(/\/+$/, '')}/${app.source.chart} and path: "."`,
              cluster: c.name,
              app: app.name,
            }));
          }
          continue;
        }
        if (app.source.chart === undefined || app.source.chart.startsWith('oci://') || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) continue;
        anyRemote = true;
        const decided = chartRepositoryIsOci(url, repositories.for(url, app.project));
        if (decided.refusal !== undefined) {
          const locs = sourceLocations(fs, app.from, app.name, url);
          push(`${app.from}\0${app.name}\0notoci`, where(locs?.repoURL, () => place(fleet, fieldOrigin(fleet, app, ['repoURL']), { severity: 'error', code: 'chart-repository-not-oci', message: '' }), {
            severity: 'error',
            code: 'chart-repository-not-oci',
            message: `Application ${app.name}: ${decided.refusal}`,
            hint: 'set enableOCI: "true" on the repository Secret',
            cluster: c.name,
            app: app.name,
          }));
        }
      }
    }
    if (anyRemote) {
      for (const s of repositories.all) {
        for (const p of s.problems) {
          push(`${s.file}\0${s.line}\0${p}`, at(s.file, s.line, {
            severity: 'error',
            code: 'repository-secret-invalid',
            message: `${s.kind} ${s.name}: ${p}`,
            hint: 'write "true" or "false"',
          }));
        }
      }
    }
    return out;
  },
};
