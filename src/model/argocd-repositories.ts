/**
 * Argo CD repository Secrets, read as Argo CD reads them (docs/adr/0316-argocd-repository-secrets.md):
 * Secrets labelled `argocd.argoproj.io/secret-type: repository` configure one repository (matched
 * by `git.SameURL`, a project's own Secret before a project-less one), `repo-creds` Secrets are
 * credential templates matched by the longest URL prefix (`git.NormalizeGitURL` of both sides),
 * used only when the repository has no credentials of its own, and then also giving `enableOCI`,
 * `insecureOCIForceHttp` and `forceHttpBasicAuth` (Argo CD's `Repository.CopyCredentialsFrom`;
 * util/db/repository.go, util/db/repository_secrets.go).
 *
 * Pure: documents in, records out. Secret values are kept only to hand them to a fetcher; nothing
 * here prints them.
 */
import { isPlainObject } from './merge.js';
import { goUrlParses } from './helm-oci.js';

export type RepositorySecretType = 'repository' | 'repo-creds';

/** What of a Secret's credentials fleetplan can read. */
export type RepositoryCredentials =
  | { state: 'none' }
  | { state: 'plain'; username: string; password: string }
  /** A SealedSecret or ExternalSecret (or a field fleetplan cannot decode): the values are not in the repository. */
  | { state: 'unreadable'; fields: string[] };

export interface RepositorySecret {
  secretType: RepositorySecretType;
  /** `Secret`, `SealedSecret` or `ExternalSecret`. */
  kind: string;
  name: string;
  file: string;
  line: number;
  /** `url`; undefined when it is not readable (encrypted, templated). */
  url: string | undefined;
  type: string | undefined;
  project: string;
  enableOCI: boolean;
  insecure: boolean;
  insecureOCIForceHttp: boolean;
  forceHttpBasicAuth: boolean;
  credentials: RepositoryCredentials;
  /** Fields whose values are not readable (encrypted or templated). */
  unreadable: string[];
  /** Problems Argo CD would also have with it (a bool field that is not a Go bool). */
  problems: string[];
}

/** The repository a source uses, as Argo CD's db.GetRepository gives it. */
export interface ResolvedRepository {
  url: string;
  /** The repository Secret that matched (SameURL), if any. */
  secret?: RepositorySecret;
  /** The repo-creds template whose credentials (and OCI flags) it took, if any. */
  template?: RepositorySecret;
  type: string | undefined;
  enableOCI: boolean;
  /** TLS without verification (Argo CD `insecure`): still HTTPS. */
  insecure: boolean;
  /** Plain HTTP to an OCI registry (Argo CD `insecureOCIForceHttp`). */
  insecureOCIForceHttp: boolean;
  forceHttpBasicAuth: boolean;
  credentials: RepositoryCredentials;
  /** Where the answer comes from, for notes: `Secret NAME (file:line)`. */
  from: string[];
  /** True when a field that decides the answer (url, enableOCI, insecureOCIForceHttp) is not readable in a matching or possibly matching Secret. */
  uncertain: string[];
}

export const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
const CREDENTIAL_FIELDS = ['username', 'password', 'bearerToken', 'sshPrivateKey', 'tlsClientCertData', 'githubAppPrivateKey', 'gcpServiceAccountKey', 'azureServicePrincipalClientSecret'];

/** A document and where it starts, as the scanner hands them over. */
export interface LocatedObject {
  file: string;
  line: number;
  value: unknown;
}

/** Go's strconv.ParseBool. */
function goBool(v: string | undefined): boolean | 'invalid' {
  if (v === undefined || v === '') return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return 'invalid';
}

/**
 * The repository and repo-creds Secrets among `docs`: plain Secrets (`stringData` over `data`,
 * base64-decoded), SealedSecrets (`spec.template`; `encryptedData` unreadable) and ExternalSecrets
 * (`spec.target.template`; templated values unreadable).
 */
export function readRepositorySecrets(docs: readonly LocatedObject[]): RepositorySecret[] {
  const out: RepositorySecret[] = [];
  for (const d of docs) {
    const o = d.value;
    if (!isPlainObject(o) || typeof o.kind !== 'string' || !isPlainObject(o.metadata)) continue;
    const name = typeof o.metadata.name === 'string' ? o.metadata.name : '';
    const spec = isPlainObject(o.spec) ? o.spec : {};
    let labels: unknown;
    const fields = new Map<string, string>();
    const unreadable: string[] = [];
    if (o.kind === 'Secret' && o.apiVersion === 'v1') {
      labels = o.metadata.labels;
      if (isPlainObject(o.data)) {
        for (const [k, v] of Object.entries(o.data)) {
          if (typeof v !== 'string') continue;
          const text = decodeBase64(v);
          if (text === undefined) unreadable.push(k);
          else fields.set(k, text);
        }
      }
      if (isPlainObject(o.stringData)) for (const [k, v] of Object.entries(o.stringData)) if (v !== null && v !== undefined) fields.set(k, String(v));
    } else if (o.kind === 'SealedSecret') {
      const template = isPlainObject(spec.template) ? spec.template : {};
      labels = isPlainObject(template.metadata) ? template.metadata.labels : undefined;
      if (isPlainObject(template.data)) for (const [k, v] of Object.entries(template.data)) if (typeof v === 'string') fields.set(k, v);
      if (isPlainObject(spec.encryptedData)) unreadable.push(...Object.keys(spec.encryptedData));
    } else if (o.kind === 'ExternalSecret') {
      const target = isPlainObject(spec.target) ? spec.target : {};
      const template = isPlainObject(target.template) ? target.template : {};
      labels = isPlainObject(template.metadata) ? template.metadata.labels : undefined;
      if (isPlainObject(template.data)) {
        for (const [k, v] of Object.entries(template.data)) {
          if (typeof v === 'string' && !v.includes('{{')) fields.set(k, v);
          else unreadable.push(k);
        }
      }
      if (Array.isArray(spec.data)) for (const e of spec.data) if (isPlainObject(e) && typeof e.secretKey === 'string' && !fields.has(e.secretKey)) unreadable.push(e.secretKey);
      if (Array.isArray(spec.dataFrom) && spec.dataFrom.length > 0) unreadable.push('(every field of dataFrom)');
    } else continue;
    const secretType = isPlainObject(labels) ? labels[SECRET_TYPE_LABEL] : undefined;
    if (secretType !== 'repository' && secretType !== 'repo-creds') continue;
    const problems: string[] = [];
    const bool = (k: string): boolean => {
      const b = goBool(fields.get(k));
      if (b === 'invalid') {
        problems.push(`${k}: ${JSON.stringify(fields.get(k))} is not a boolean (Argo CD fails to read the Secret)`);
        return false;
      }
      return b;
    };
    const readableCreds = CREDENTIAL_FIELDS.filter((k) => (fields.get(k) ?? '') !== '');
    const hiddenCreds = CREDENTIAL_FIELDS.filter((k) => unreadable.includes(k)).concat(unreadable.filter((k) => k.startsWith('(')));
    let credentials: RepositoryCredentials;
    if (hiddenCreds.length > 0) credentials = { state: 'unreadable', fields: hiddenCreds };
    else if (readableCreds.length > 0) credentials = { state: 'plain', username: fields.get('username') ?? '', password: fields.get('password') ?? '' };
    else credentials = { state: 'none' };
    out.push({
      secretType,
      kind: o.kind,
      name,
      file: d.file,
      line: d.line,
      url: fields.get('url'),
      type: fields.get('type') || undefined,
      project: fields.get('project') ?? '',
      enableOCI: bool('enableOCI'),
      insecure: bool('insecure'),
      insecureOCIForceHttp: bool('insecureOCIForceHttp'),
      forceHttpBasicAuth: bool('forceHttpBasicAuth'),
      credentials,
      unreadable: [...new Set(unreadable)].sort(),
      problems,
    });
  }
  return out;
}

function decodeBase64(v: string): string | undefined {
  const s = v.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return undefined;
  return Buffer.from(s, 'base64').toString('utf8');
}

const SSH_URL = /^(ssh:\/\/)?([^/:]*?)@[^@]+$/;

/** Argo CD's git.NormalizeGitURL: lower case, scp-style SSH as ssh://, no `.git`; '' when Go cannot parse it. */
export function normalizeGitUrl(repo: string): string {
  let r = repo.trim().toLowerCase();
  if (SSH_URL.test(r) && !r.startsWith('ssh://')) r = `ssh://${r.replace(':', '/')}`;
  r = r.replace(/\.git$/, '');
  if (!goUrlParses(r)) return '';
  return r.replace(/^ssh:\/\//, '');
}

/** Argo CD's git.SameURL (NormalizeGitURLAllowInvalid on both sides). */
export function sameArgoUrl(a: string, b: string): boolean {
  const n = (u: string) => normalizeGitUrl(u) || u;
  return n(a) !== '' && n(b) !== '' && n(a) === n(b);
}

function hasCredentials(c: RepositoryCredentials): boolean {
  return c.state !== 'none';
}

function where(s: RepositorySecret): string {
  return `${s.kind} ${s.name} (${s.file}:${s.line})`;
}

/**
 * The repository `repoURL` is for an Application of `project`, as Argo CD's db.GetRepository gives
 * it: the repository Secret (SameURL; the project's own first, else one without a project), its
 * credentials, else those of the repo-creds template with the longest matching prefix. Undefined
 * when no Secret of the repository says anything about it.
 */
export function repositoryFor(secrets: readonly RepositorySecret[], repoURL: string, project: string): ResolvedRepository | undefined {
  const repos = secrets.filter((s) => s.secretType === 'repository');
  const candidates = repos.filter((s) => s.url !== undefined && sameArgoUrl(s.url, repoURL));
  const secret = candidates.find((s) => s.project === project) ?? candidates.find((s) => s.project === '');
  const uncertain = repos.filter((s) => s.url === undefined).map((s) => `${where(s)} has no readable url`);
  const r: ResolvedRepository = {
    url: repoURL,
    type: secret?.type,
    enableOCI: secret?.enableOCI ?? false,
    insecure: secret?.insecure ?? false,
    insecureOCIForceHttp: secret?.insecureOCIForceHttp ?? false,
    forceHttpBasicAuth: secret?.forceHttpBasicAuth ?? false,
    credentials: secret?.credentials ?? { state: 'none' },
    from: secret ? [where(secret)] : [],
    uncertain,
    ...(secret ? { secret } : {}),
  };
  if (secret) for (const f of ['enableOCI', 'insecureOCIForceHttp'] as const) if (secret.unreadable.includes(f)) uncertain.push(`${where(secret)}: ${f} is not readable`);
  if (!hasCredentials(r.credentials)) {
    // getRepositoryCredentialIndex: the longest normalized prefix.
    const target = normalizeGitUrl(repoURL);
    let best: RepositorySecret | undefined;
    let bestLen = 0;
    for (const t of secrets) {
      if (t.secretType !== 'repo-creds') continue;
      if (t.url === undefined) {
        uncertain.push(`${where(t)} has no readable url`);
        continue;
      }
      const prefix = normalizeGitUrl(t.url);
      if (target.startsWith(prefix) && prefix.length > bestLen) {
        best = t;
        bestLen = prefix.length;
      }
    }
    if (best) {
      r.template = best;
      r.credentials = best.credentials;
      r.type ??= best.type;
      r.enableOCI = best.enableOCI;
      r.insecureOCIForceHttp = best.insecureOCIForceHttp;
      r.forceHttpBasicAuth = best.forceHttpBasicAuth;
      r.from.push(`${where(best)} (credential template)`);
      for (const f of ['enableOCI', 'insecureOCIForceHttp'] as const) if (best.unreadable.includes(f)) uncertain.push(`${where(best)}: ${f} is not readable`);
    }
  }
  return r.secret || r.template ? r : uncertain.length ? r : undefined;
}
