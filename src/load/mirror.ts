/**
 * `gitops.mirror` of fleet.yaml → the fleet's FleetMirror, with the checks the schema cannot
 * make (docs/adr/0235-internal-git-mirror.md): the URLs are http(s) without credentials in them,
 * the mirror is not the fleet repository itself, and the push credentials are named by exactly
 * one reference. Each problem is a finding at the field's line; the mirror is then left out.
 */
import type { Finding } from '../model/finding.js';
import type { FleetMirror } from '../model/fleet.js';
import type { MirrorSpec } from '../model/spec.js';
import type { SourceFile } from '../model/source.js';
import { formatPath } from '../model/source.js';

function at(source: SourceFile, path: readonly string[], f: Omit<Finding, 'file' | 'line' | 'column' | 'path'>): Finding {
  const pos = source.locate(path);
  return { ...f, file: source.file, line: pos.line, column: pos.column, path: formatPath(path) };
}

const BASE = ['spec', 'gitops', 'mirror'];

export function loadMirror(spec: MirrorSpec | undefined, repoURL: string, source: SourceFile, findings: Finding[]): FleetMirror | undefined {
  if (!spec) return undefined;
  const before = findings.length;
  const error = (path: string[], code: string, message: string, hint: string) =>
    findings.push(at(source, [...BASE, ...path], { severity: 'error', code, message, hint }));
  for (const field of ['url', 'pushURL'] as const) {
    const value = spec[field];
    if (value === undefined) continue;
    const problem = urlProblem(value);
    if (problem) error([field], 'mirror-url', `gitops.mirror.${field} ${problem}`, 'give an http:// or https:// URL of the repository, without user or password (those come from credentials)');
  }
  if (normalize(spec.url) === normalize(repoURL)) {
    error(['url'], 'mirror-url', `gitops.mirror.url is the fleet repository itself (${repoURL})`, 'give the URL of the internal Git service inside the cluster');
  }
  const c = spec.credentials;
  if ((c.secretRef === undefined) === (c.externalSecretRef === undefined)) {
    error(['credentials'], 'mirror-credentials',
      `gitops.mirror.credentials must name exactly one of secretRef or externalSecretRef, found ${c.secretRef && c.externalSecretRef ? 'both' : 'neither'}`,
      'secretRef: {namespace, name} of a Secret you create on the cluster, or externalSecretRef: {namespace, name} of the ExternalSecret that makes it');
  }
  if (findings.length > before) return undefined;
  const ref = (c.secretRef ?? c.externalSecretRef)!;
  return {
    url: spec.url,
    pushURL: spec.pushURL ?? spec.url,
    app: spec.app,
    ...(spec.branch !== undefined ? { branch: spec.branch } : {}),
    credentials: {
      kind: c.secretRef ? 'Secret' : 'ExternalSecret',
      namespace: ref.namespace,
      name: ref.name,
      usernameKey: c.usernameKey ?? 'username',
      passwordKey: c.passwordKey ?? 'password',
    },
  };
}

function urlProblem(text: string): string | undefined {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return `is not a URL: "${text}"`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be http or https (the push authenticates over HTTP), got ${u.protocol.replace(/:$/, '')}`;
  if (u.username !== '' || u.password !== '') return 'holds credentials in the URL; they would end up in Argo CD and in process lists';
  return undefined;
}

function normalize(url: string): string {
  return url.replace(/\/+$/, '').replace(/\.git$/, '').toLowerCase();
}
