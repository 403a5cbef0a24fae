import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import bcrypt from 'bcryptjs';
import {
  hashLinkPassword,
  isEncodedLinkPassword,
  isKeptBcryptHash,
  MAX_BCRYPT_COST,
  verifyLinkPassword,
} from '../../src/services/links/link-password.js';

/** Issue 21: a link's password is kept only as a salted scrypt hash (ADR 0110). */
describe('link passwords', () => {
  test('a hash names its parameters and salt, and never holds the password', async () => {
    const encoded = await hashLinkPassword('correct horse');
    assert.match(encoded, /^scrypt\$8192\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.ok(!encoded.includes('correct horse'));
  });

  test('the same password hashes differently each time (salted)', async () => {
    assert.notEqual(await hashLinkPassword('same one'), await hashLinkPassword('same one'));
  });

  test('verify: the right password is true, any other false', async () => {
    const encoded = await hashLinkPassword('open sesame');
    assert.equal(await verifyLinkPassword('open sesame', encoded), true);
    assert.equal(await verifyLinkPassword('open sesame ', encoded), false);
    assert.equal(await verifyLinkPassword('Open sesame', encoded), false);
    assert.equal(await verifyLinkPassword('', encoded), false);
  });

  test('unicode passwords match in either normal form', async () => {
    const composed = 'caf\u00e9 m\u00fcde';
    const encoded = await hashLinkPassword(composed);
    assert.equal(await verifyLinkPassword(composed.normalize('NFD'), encoded), true);
  });

  test('an unreadable hash is false, never a throw', async () => {
    const good = await hashLinkPassword('whatever');
    const [prefix, n, r, p, salt, hash] = good.split('$');
    const unreadable = [
      '',
      'not a hash',
      `bcrypt$${n}$${r}$${p}$${salt}$${hash}`,
      `${prefix}$${n}$${r}$${p}$${salt}`,
      `${prefix}$1000$${r}$${p}$${salt}$${hash}`, // N not a power of two
      `${prefix}$1048576$8$1$${salt}$${hash}`, // 1 GiB: over the memory cap
      `${prefix}$${n}$${r}$${p}$${salt}$${hash}!`,
      `${prefix}$${n}$${r}$${p}$${salt}$${hash}$extra`,
    ];
    for (const encoded of unreadable) {
      assert.equal(await verifyLinkPassword('whatever', encoded), false, encoded);
    }
  });

  test('a hash made with other parameters still verifies (they are read from it)', async () => {
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const hash = scryptSync('older', salt, 32, { N: 1024, r: 8, p: 1 });
    const encoded = `scrypt$1024$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    assert.equal(await verifyLinkPassword('older', encoded), true);
    assert.equal(await verifyLinkPassword('newer', encoded), false);
  });

  test('a hash as hashLinkPassword writes it is one an import may keep; nothing else is', async () => {
    assert.ok(isEncodedLinkPassword(await hashLinkPassword('correct horse')));
    const salt = 's'.repeat(22);
    const hash = 'h'.repeat(43);
    for (const encoded of [
      'correct horse',
      `scrypt$8191$8$1$${salt}$${hash}`,
      `scrypt$1$8$1$${salt}$${hash}`,
      `scrypt$8192$0$1$${salt}$${hash}`,
      `scrypt$65536$8$1$${salt}$${hash}`,
      `argon2$8192$8$1$${salt}$${hash}`,
      `scrypt$8192$8$1$${salt}$${hash}=`,
    ]) {
      assert.equal(isEncodedLinkPassword(encoded), false, encoded);
    }
  });

  test("Kutt's bcrypt hashes ($2a$, $2b$, $2y$) verify as they are, never re-hashed", async () => {
    const hash = bcrypt.hashSync('kutt secret', 4);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      const kept = prefix + hash.slice(4);
      assert.equal(isKeptBcryptHash(kept), true, prefix);
      assert.equal(isEncodedLinkPassword(kept), true, prefix);
      assert.equal(await verifyLinkPassword('kutt secret', kept), true, prefix);
      assert.equal(await verifyLinkPassword('kutt secret ', kept), false, prefix);
      assert.equal(await verifyLinkPassword('', kept), false, prefix);
    }
  });

  test('a bcrypt hash is checked on the password as typed, as Kutt hashed it', async () => {
    const decomposed = 'cafe\u0301!';
    const hash = bcrypt.hashSync(decomposed, 4);
    assert.equal(await verifyLinkPassword(decomposed, hash), true);
    assert.equal(await verifyLinkPassword(decomposed.normalize('NFC'), hash), false);
  });

  test('bcrypt hashes too costly, malformed or of another kind are not kept and verify false', async () => {
    const hash = bcrypt.hashSync('x', 4);
    const body = hash.slice(7);
    assert.equal(MAX_BCRYPT_COST, 12);
    for (const encoded of [
      `$2b$13$${body}`,
      `$2b$31$${body}`,
      `$2b$03$${body}`,
      `$2x$04$${body}`,
      `$2$04$${body}`,
      `$2b$04$${body}x`,
      `$2b$04$${body.slice(1)}`,
      `$2b$04$${body.slice(1)}!`,
      `$argon2id$v=19$m=65536,t=3,p=4$${body}`,
    ]) {
      assert.equal(isKeptBcryptHash(encoded), false, encoded);
      assert.equal(isEncodedLinkPassword(encoded), false, encoded);
      assert.equal(await verifyLinkPassword('x', encoded), false, encoded);
    }
  });
});
