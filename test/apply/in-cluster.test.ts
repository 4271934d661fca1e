/**
 * `fleetplan bootstrap` in a pod (ADR 0238): with nothing naming a kubeconfig it uses the service
 * account's token and CA and KUBERNETES_SERVICE_HOST/PORT, as client-go does, and says so. The
 * test server serves HTTPS with a certificate made here, and demands the token.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, removeTree } from '../support/fleet-fixture.js';
import { LAB, setGitContent } from '../support/bootstrap-cluster.js';
import { CRD_SETS, startKubeServer, type KubeServer } from '../support/kube-server/index.js';
import { inClusterCredentials } from '../../src/adapters/in-cluster.js';
import { describeKubeSource, kubeSource } from '../../src/adapters/kube.js';
import { InputError } from '../../src/errors/index.js';
import { selfSigned } from '../support/tls.js';

const TOKEN = 'service-account-token-of-the-job';

describe('in-cluster credentials', () => {
  const files = (names: Record<string, string>) => ({ exists: (p: string) => p in names, read: (p: string) => names[p] ?? '' });
  const sa = '/sa';
  const all = { '/sa/token': 't', '/sa/ca.crt': 'ca', '/sa/namespace': 'fleet-jobs\n' };
  const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

  const cases: Array<{ name: string; env: Record<string, string>; files: Record<string, string>; want: unknown }> = [
    { name: 'outside a pod (no service environment) there are none', env: {}, files: all, want: undefined },
    { name: 'without a mounted token (automountServiceAccountToken: false) there are none', env, files: { '/sa/ca.crt': 'ca' }, want: undefined },
    { name: 'token, CA and namespace of the service account, server over https', env, files: all,
      want: { server: 'https://10.96.0.1:443', tokenFile: '/sa/token', caFile: '/sa/ca.crt', namespace: 'fleet-jobs' } },
    { name: 'an IPv6 service host is bracketed', env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, files: { '/sa/token': 't', '/sa/ca.crt': 'ca' },
      want: { server: 'https://[fd00::1]:443', tokenFile: '/sa/token', caFile: '/sa/ca.crt' } },
    { name: 'port 8080 stays https (client-go), unlike client-node loadFromCluster', env: { KUBERNETES_SERVICE_HOST: 'kubernetes', KUBERNETES_SERVICE_PORT: '8080' }, files: { '/sa/token': 't', '/sa/ca.crt': 'ca' },
      want: { server: 'https://kubernetes:8080', tokenFile: '/sa/token', caFile: '/sa/ca.crt' } },
  ];
  for (const c of cases) {
    test(c.name, () => assert.deepEqual(inClusterCredentials({ env: c.env, dir: sa, ...files(c.files) }), c.want));
  }

  test('a token without its CA is an error naming both files', () => {
    assert.throws(() => inClusterCredentials({ env, dir: sa, ...files({ '/sa/token': 't' }) }),
      (e: unknown) => e instanceof InputError && /token \/sa\/token exists but its CA \/sa\/ca\.crt does not/.test(e.message));
  });

  test('kubeSource: anything naming a kubeconfig (flag, KUBECONFIG, ~/.kube/config, --context) wins over the service account', () => {
    const fs = files({ ...all, '/home/u/.kube/config': 'x', '/k': 'x' });
    const pod = { ...env, HOME: '/nohome' };
    assert.equal(kubeSource({ env: pod, serviceAccountDir: sa }, fs.exists, fs.read).kind, 'in-cluster');
    assert.deepEqual(kubeSource({ env: { ...pod, HOME: '/home/u' }, serviceAccountDir: sa }, fs.exists, fs.read), { kind: 'kubeconfig', files: ['/home/u/.kube/config'] });
    assert.deepEqual(kubeSource({ env: { ...pod, KUBECONFIG: '/k' }, serviceAccountDir: sa }, fs.exists, fs.read), { kind: 'kubeconfig', files: ['/k'] });
    assert.deepEqual(kubeSource({ env: pod, kubeconfig: '/k', serviceAccountDir: sa }, fs.exists, fs.read), { kind: 'kubeconfig', files: ['/k'] });
    assert.throws(() => kubeSource({ env: pod, context: 'hub-admin', serviceAccountDir: sa }, fs.exists, fs.read), /no kubeconfig/);
    const source = kubeSource({ env: pod, serviceAccountDir: sa }, fs.exists, fs.read);
    assert.equal(describeKubeSource(source), 'in-cluster service account (token /sa/token, CA /sa/ca.crt, namespace fleet-jobs) at https://10.96.0.1:443');
  });
});

describe('fleetplan bootstrap with in-cluster credentials against the HTTPS test server', () => {
  let server: KubeServer;
  let dir: string;
  let saDir: string;
  let podEnv: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleetplan-in-cluster-'));
    const tls = selfSigned(dir, 'apiserver');
    server = await startKubeServer({ crds: CRD_SETS.olm, namespaces: ['openshift-operators', 'openshift-marketplace'], tls, token: TOKEN });
    server.seed([{ apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup', metadata: { name: 'global-operators', namespace: 'openshift-operators' }, spec: {} }], 'cluster-version-operator');
    setGitContent(server, LAB, 'hub');
    saDir = join(dir, 'serviceaccount');
    mkdirSync(saDir);
    writeFileSync(join(saDir, 'token'), TOKEN);
    writeFileSync(join(saDir, 'ca.crt'), tls.cert);
    writeFileSync(join(saDir, 'namespace'), 'fleetplan-bootstrap');
    const port = new URL(server.url).port;
    // A pod: no KUBECONFIG, a HOME without .kube/config, the service environment and the token.
    podEnv = { HOME: join(dir, 'home'), KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port, FLEETPLAN_SERVICE_ACCOUNT_DIR: saDir };
  });
  after(async () => {
    await server.close();
    removeTree(dir);
  });

  test('bootstrap applies through the service account, verifying the server with its CA, and names the credentials', async () => {
    assert.match(server.url, /^https:/);
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--no-wait', '--timeout', '60s'], process.cwd(), podEnv);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stderr, new RegExp(`credentials: in-cluster service account \\(token ${saDir}/token, CA ${saDir}/ca\\.crt, namespace fleetplan-bootstrap\\) at https://127\\.0\\.0\\.1:\\d+`));
    // The server demands the token: objects exist only because the requests carried it.
    assert.ok(server.object('argoproj.io/v1alpha1', 'Application', 'root-applications', 'openshift-gitops'));
    const writes = server.requests({ verb: ['apply'] });
    assert.ok(writes.length > 0);
  });

  test('a CA that did not sign the server certificate fails the run: the server is verified, never skipped', async () => {
    const other = join(dir, 'other-sa');
    mkdirSync(other);
    writeFileSync(join(other, 'token'), TOKEN);
    writeFileSync(join(other, 'ca.crt'), selfSigned(dir, 'other').cert);
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--dry-run', '--timeout', '3s'], process.cwd(), { ...podEnv, FLEETPLAN_SERVICE_ACCOUNT_DIR: other });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /certificate|self.signed|verify/i);
  });

  test('a wrong token is refused by the server (the token file is what is sent)', async () => {
    const other = join(dir, 'bad-token');
    mkdirSync(other);
    writeFileSync(join(other, 'token'), 'not-the-token');
    writeFileSync(join(other, 'ca.crt'), readFileSync(join(saDir, 'ca.crt')));
    const r = await cli(['bootstrap', '--repo', LAB, '--cluster', 'hub', '--dry-run', '--timeout', '3s'], process.cwd(), { ...podEnv, FLEETPLAN_SERVICE_ACCOUNT_DIR: other });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /401|Unauthorized/i);
  });
});
