import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bcrypt, bcryptHash, bcryptVerify } from '../../src/gotemplate/sprig/bcrypt.js';
import { compileGoTemplate } from '../../src/gotemplate/index.js';

// Hashes produced by Go (sprig's bcrypt and htpasswd, golang.org/x/crypto/bcrypt, cost 10).
const goHashes: [string, string][] = [
  ['secret', '$2a$10$BI1UQPbAGniq1F.qDpET5.JWw.nAw/ZFj0TSGcU5eGmeDomIFOzRW'],
  ['pässword', '$2a$10$fA/zOr7ivd3dvrBfpEu86.rX0dmNqT8LTfHwphxpXbQpzNsKd1qqy'],
];

for (const [password, hash] of goHashes) {
  test(`recomputes Go's bcrypt hash of ${JSON.stringify(password)} from its salt`, () => {
    assert.equal(bcryptVerify(password, hash), true);
    assert.equal(bcryptVerify(password + 'x', hash), false);
  });
}

test('produces $2a$10$ hashes that verify, with a fresh salt each time', () => {
  const a = bcrypt('pw');
  const b = bcrypt('pw');
  assert.match(a, /^\$2a\$10\$[./A-Za-z0-9]{53}$/);
  assert.notEqual(a, b);
  assert.equal(bcryptVerify('pw', a), true);
});

test('hashes deterministically for a given salt and cost', () => {
  const salt = new Uint8Array(16).fill(7);
  assert.equal(bcryptHash('pw', 4, salt), bcryptHash('pw', 4, salt));
});

test('htpasswd refuses a user name with a colon, as sprig does', () => {
  assert.equal(compileGoTemplate('{{ htpasswd "a:b" "pw" }}').execute(null), 'invalid username: a:b');
  assert.match(compileGoTemplate('{{ htpasswd "admin" "pw" }}').execute(null), /^admin:\$2a\$10\$/);
});
