import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { compileGoTemplate } from '../../src/gotemplate/index.js';

const run = (t: string): string => compileGoTemplate(t).execute(null);

test('genCA makes a self-signed CA certificate with its RSA key', () => {
  const [cert, key] = run('{{ $ca := genCA "my-ca" 365 }}{{ $ca.Cert }}|{{ $ca.Key }}').split('|') as [string, string];
  const x = new X509Certificate(cert);
  assert.equal(x.ca, true);
  assert.equal(x.subject, 'CN=my-ca');
  assert.equal(x.issuer, 'CN=my-ca');
  assert.equal(x.verify(x.publicKey), true);
  assert.match(key, /^-----BEGIN RSA PRIVATE KEY-----\n/);
  assert.equal(x.checkPrivateKey(createPrivateKey(key)), true);
});

test('genSignedCert makes a leaf certificate signed by the CA, with DNS and IP names', () => {
  const [caCert, leaf] = run(
    '{{ $ca := genCA "my-ca" 365 }}{{ $ca.Cert }}|{{ (genSignedCert "svc" (list "10.0.0.1") (list "svc.example") 30 $ca).Cert }}',
  ).split('|') as [string, string];
  const ca = new X509Certificate(caCert);
  const x = new X509Certificate(leaf);
  assert.equal(x.ca, false);
  assert.equal(x.issuer, 'CN=my-ca');
  assert.equal(x.verify(ca.publicKey), true);
  assert.equal(x.subjectAltName, 'DNS:svc.example, IP Address:10.0.0.1');
  assert.equal(x.checkIssued(ca), true);
});

test('genSelfSignedCertWithKey uses the given key', () => {
  const out = run('{{ $k := genPrivateKey "ecdsa" }}{{ $c := genSelfSignedCertWithKey "self" nil nil 10 $k }}{{ $c.Cert }}|{{ $c.Key }}|{{ $k }}');
  const [cert, key, given] = out.split('|') as [string, string, string];
  assert.equal(key, given);
  assert.equal(new X509Certificate(cert).checkPrivateKey(createPrivateKey(key)), true);
});

test('buildCustomCert takes a base64 certificate and key back', () => {
  const out = run('{{ $c := genSelfSignedCert "x" nil nil 1 }}{{ $b := buildCustomCert ($c.Cert | b64enc) ($c.Key | b64enc) }}{{ eq $b.Cert $c.Cert }} {{ eq $b.Key $c.Key }}');
  assert.equal(out, 'true true');
});

test('rejects an IP address that does not parse, as sprig does', () => {
  assert.throws(() => run('{{ genSelfSignedCert "x" (list "not-an-ip") nil 1 }}'), /error calling genSelfSignedCert: error parsing ip: not-an-ip/);
});

test('genPrivateKey writes Go PEM blocks for every key type', () => {
  const blocks: [string, string, string][] = [
    ['rsa', 'RSA PRIVATE KEY', 'rsa'],
    ['ecdsa', 'EC PRIVATE KEY', 'ec'],
    ['ed25519', 'PRIVATE KEY', 'ed25519'],
    ['dsa', 'DSA PRIVATE KEY', 'dsa'],
  ];
  for (const [typ, block, nodeType] of blocks) {
    const pem = run(`{{ genPrivateKey "${typ}" }}`);
    assert.ok(pem.startsWith(`-----BEGIN ${block}-----\n`), typ);
    assert.equal(createPrivateKey(pem).asymmetricKeyType, nodeType);
  }
  assert.equal(run('{{ genPrivateKey "nope" }}'), 'Unknown type nope');
});
