import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  hashLinkPassword,
  isEncodedLinkPassword,
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
});
