/**
 * Secrets: no Secret with data in Git (SOPS-encrypted files excepted), and every ExternalSecret
 * must point at a SecretStore/ClusterSecretStore that an app on the same cluster defines.
 *
 * A cluster whose apps define no store at all gets its stores from outside the fleet (a policy,
 * a bootstrap step): its ExternalSecrets are not judged. docs/adr/0103-secret-rules.md.
 */
import type { Finding } from '../../model/finding.js';
import type { RuleDefinition } from '../engine.js';
import { at } from '../context.js';
import type { ManifestObject } from '../../load/manifests.js';
import { isObj } from '../../load/manifests.js';

/** Keys of an Argo CD cluster Secret that carry no credential (`config` does). */
const ARGO_CLUSTER_PUBLIC_KEYS = new Set(['name', 'server', 'namespaces', 'clusterResources', 'project', 'shard']);
/**
 * Keys of an Argo CD repository or repo-creds Secret that carry no credential (Argo CD's
 * declarative setup); `username`, `password`, `sshPrivateKey`, `tlsClientCert*`,
 * `githubAppPrivateKey`, `gcpServiceAccountKey`, `bearerToken` do. A `url` holding a
 * `user:password@` is a credential all the same.
 */
const ARGO_REPOSITORY_PUBLIC_KEYS = new Set(['name', 'url', 'type', 'project', 'enableOCI', 'insecure', 'insecureOCIForceHttp', 'enableLfs', 'forceHttpBasicAuth', 'proxy', 'noProxy', 'githubAppID', 'githubAppInstallationID', 'githubAppEnterpriseBaseUrl']);
const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?-[^}]*)?\}$/;
const VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=][^}]*)?\}/g;

/** A `scheme://user:password@` with the password written out. */
function passwordInUrl(literal: string): boolean {
  return /:\/\/[^/@ \t:]*:[^/@\s]+@/.test(literal);
}

/**
 * Literal text that reads as a credential: a private key, `user:password@` in a URL, or a token (a
 * run of 16 or more letters and digits holding both, as keys and passwords are written).
 */
function secretLooking(literal: string): boolean {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(literal)) return true;
  // The password of `scheme://user:password@` written out (a variable, now a line break, is not).
  if (passwordInUrl(literal)) return true;
  return (literal.match(/[A-Za-z0-9+/_]{16,}/g) ?? []).some((t) => /[A-Za-z]/.test(t) && /[0-9]/.test(t));
}

/**
 * A value filled at sync time: only a `${VAR}` placeholder, or variables inside literal text that
 * is not secret-looking (`s3:https://${ENDPOINT}/volsync/${APP}`). The secret parts are the
 * variables, whose values come from where the substitution reads them (a SOPS Secret, the
 * cluster): not committed here (ADR 0421).
 */
function filledAtSync(value: string): boolean {
  const v = value.trim();
  if (PLACEHOLDER.test(v)) return true;
  // Each variable becomes a line break: literal text on either side never joins into one token.
  const literal = v.replace(VARIABLE, '\n');
  return literal !== v && !secretLooking(literal);
}

/** The field holding committed secret material, if any. */
function hasData(o: ManifestObject): 'data' | 'stringData' | undefined {
  const meta = isObj(o.body.metadata) ? o.body.metadata : {};
  const labels = isObj(meta.labels) ? meta.labels : {};
  const secretType = labels['argocd.argoproj.io/secret-type'];
  const argoCluster = secretType === 'cluster';
  const argoRepository = secretType === 'repository' || secretType === 'repo-creds';
  for (const k of ['data', 'stringData'] as const) {
    const v = o.body[k];
    if (!isObj(v)) continue;
    const secretKeys = Object.entries(v).filter(([key, value]) => {
      if (argoCluster && ARGO_CLUSTER_PUBLIC_KEYS.has(key)) return false;
      if (argoRepository && ARGO_REPOSITORY_PUBLIC_KEYS.has(key) && typeof value === 'string' && !passwordInUrl(k === 'data' ? Buffer.from(value, 'base64').toString('utf8') : value)) return false;
      // A value whose secret parts are ${VAR} placeholders is filled in at sync time, not committed.
      return !(typeof value === 'string' && filledAtSync(value));
    });
    if (secretKeys.length > 0) return k;
  }
  return undefined;
}

function isSops(o: ManifestObject): boolean {
  return isObj(o.body.sops);
}

const relevantCache = new WeakMap<readonly ManifestObject[], ManifestObject[]>();

/** Secrets and external-secrets objects among an app's objects (once per directory's object list). */
function relevant(objects: readonly ManifestObject[] | undefined): ManifestObject[] {
  if (!objects) return [];
  let r = relevantCache.get(objects);
  if (!r) relevantCache.set(objects, (r = objects.filter((o) => (o.kind === 'Secret' && o.group === '') || o.group === 'external-secrets.io')));
  return r;
}

export const secretsRule: RuleDefinition = {
  name: 'secrets',
  codes: {
    'secret-in-git': {
      severity: 'error',
      summary: 'Secret with data committed to the repository',
      help: 'Anyone who can read the repository can read the secret, for ever (Git keeps history). Keep the value in a secret store and commit an ExternalSecret, a SealedSecret, or a SOPS-encrypted file.',
    },
    'unknown-secret-store': {
      severity: 'error',
      summary: 'ExternalSecret points at a store no app defines',
      help: 'The ExternalSecret never becomes ready: no SecretStore/ClusterSecretStore of that name is defined by the apps of the cluster. Fix the store name or add the store.',
    },
  },
  run(ctx) {
    const out: Finding[] = [];
    const seen = new Set<string>();
    for (const c of ctx.clusters) {
      const stores = new Set<string>();
      const externals: { o: ManifestObject; app: string; ns: string | undefined }[] = [];
      for (const app of c.apps) {
        for (const o of relevant(ctx.objectsOf(c, app))) {
          if (o.kind === 'Secret' && o.group === '' && !isSops(o)) {
            const k = hasData(o);
            const key = `${o.file}:${o.line}`;
            if (k && !seen.has(key)) {
              seen.add(key);
              out.push(at(o.file, o.keyLines[k] ?? o.line, {
                severity: 'error',
                code: 'secret-in-git',
                message: `Secret "${o.name ?? '?'}" has ${k} committed to the repository (applied by app "${app.name}")`,
                hint: 'store the value in a secret store and commit an ExternalSecret, a SealedSecret, or encrypt the file with SOPS',
              }));
            }
          }
          if (o.group === 'external-secrets.io') {
            const ns = o.namespace ?? app.destination.namespace;
            if (o.kind === 'ClusterSecretStore' && o.name) stores.add(`ClusterSecretStore/${o.name}`);
            else if (o.kind === 'SecretStore' && o.name) stores.add(`SecretStore/${ns ?? ''}/${o.name}`);
            else if (o.kind === 'ExternalSecret') externals.push({ o, app: app.name, ns });
          }
        }
      }
      if (stores.size === 0) continue;
      for (const { o, app, ns } of externals) {
        const spec = isObj(o.body.spec) ? o.body.spec : {};
        const ref = isObj(spec.secretStoreRef) ? spec.secretStoreRef : undefined;
        if (!ref || typeof ref.name !== 'string') continue;
        const kind = ref.kind === 'ClusterSecretStore' ? 'ClusterSecretStore' : 'SecretStore';
        const key = kind === 'ClusterSecretStore' ? `ClusterSecretStore/${ref.name}` : `SecretStore/${ns ?? ''}/${ref.name}`;
        if (stores.has(key)) continue;
        const defined = [...stores].map((s) => s.replace(/^SecretStore\/([^/]*)\//, 'SecretStore $1/').replace(/^ClusterSecretStore\//, 'ClusterSecretStore ')).sort();
        out.push(at(o.file, o.keyLines.spec ?? o.line, {
          severity: 'error',
          code: 'unknown-secret-store',
          message: `ExternalSecret "${o.name ?? '?'}" (app "${app}") uses ${kind} "${ref.name}", which no app on cluster ${c.name} defines`,
          hint: `stores defined on ${c.name}: ${defined.join(', ')}`,
          cluster: c.name,
          app,
        }));
      }
    }
    return out;
  },
};
