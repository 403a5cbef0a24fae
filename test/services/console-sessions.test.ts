import { SCOPES } from '../../src/domain/principal.js';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import type { ApiKeyStore } from '../../src/ports/api-key-store.js';
import {
  carriesCsrfToken,
  CLOCK_SKEW_MS,
  readSession,
  signIn,
  signOut,
  type ConsoleSessionDeps,
} from '../../src/services/console/console-sessions.js';
import { hashApiKey, keyPrefix } from '../../src/services/keys/hash-api-key.js';
import { BASE_MS, makeId, makeKey } from '../contract/store-factories.js';
import { ScannerThrottle } from '../../src/services/protection/scanner-throttle.js';
import { KEY_USE_WRITE_INTERVAL_MS, KeyUses } from '../../src/services/keys/key-uses.js';
import { ManualClock } from '../support/manual-clock.js';
import { openTempSqliteStore } from '../support/temp-data.js';

/** Console sessions (ADR 0064): signed tokens `<key id>.<expiry ms>.<mac>`, checked on read. */

const TTL_MS = 12 * 3_600_000;
const CLIENT = '192.0.2.1';

/** Stores a key and returns its id and secret, as `hop keys create` would. */
async function storeKey(keys: ApiKeyStore, admin: boolean): Promise<{ id: string; key: string }> {
  const key = `hop_${randomBytes(16).toString('hex')}`;
  const id = makeId();
  const record = makeKey({
    id,
    owner: admin ? 'ops' : 'team',
    admin,
    keyHash: hashApiKey(key),
    prefix: keyPrefix(key),
    createdAt: BASE_MS,
  });
  assert.equal(await keys.insertKey(record), true);
  return { id, key };
}

async function setup(t: TestContext) {
  const store = openTempSqliteStore(t);
  const clock = new ManualClock(BASE_MS);
  const deps: ConsoleSessionDeps = {
    keys: store.keys,
    clock,
    ttlMs: TTL_MS,
    secret: () => Buffer.from('session-test-secret-0123456789'),
    signInThrottle: null,
    uses: new KeyUses(store.keys, clock, (error) => {
      throw error;
    }),
  };
  const admin = await storeKey(store.keys, true);
  return { store, clock, deps, admin };
}

/** The token with its part `index` (0 key id, 1 expiry, 2 MAC) replaced by `by(part)`. */
function altered(token: string, index: number, by: (part: string) => string): string {
  const parts = token.split('.');
  parts[index] = by(parts[index] as string);
  return parts.join('.');
}

/** The same string with its character at `at` swapped for another allowed one. */
function swapChar(text: string, at: number): string {
  const replacement = text[at] === 'A' ? 'B' : 'A';
  return text.slice(0, at) + replacement + text.slice(at + 1);
}

describe('console sessions', () => {
  test("signing in and a session's reads are uses of its key; an expired key ends both", async (t) => {
    const { store, clock, deps, admin } = await setup(t);
    const { token } = await signIn(deps, admin.key, CLIENT);
    const uses = deps.uses as KeyUses;
    await uses.settled();
    assert.equal((await store.keys.findActiveKeyById(admin.id))?.lastUsedAt, BASE_MS);
    clock.advance(KEY_USE_WRITE_INTERVAL_MS);
    assert.notEqual(await readSession(deps, token), null);
    await uses.settled();
    assert.equal((await store.keys.findActiveKeyById(admin.id))?.lastUsedAt, clock.now());

    const expiring = makeKey({
      owner: 'team',
      keyHash: hashApiKey('hop_expiring_key_0123456789abcdef'),
      expiresAt: clock.now() + 1000,
    });
    await store.keys.insertKey(expiring);
    const session = await signIn(deps, 'hop_expiring_key_0123456789abcdef', CLIENT);
    clock.advance(1000);
    assert.equal(await readSession(deps, session.token), null);
    await assert.rejects(signIn(deps, 'hop_expiring_key_0123456789abcdef', CLIENT), {
      kind: 'unauthorized',
      detail: 'This API key has expired.',
    });
  });

  test('a session signed in is read back, the same, until just before it expires', async (t) => {
    const { clock, deps, admin } = await setup(t);
    const { token, session } = await signIn(deps, admin.key, CLIENT);
    assert.deepEqual(
      { ...session.principal, scopes: [...session.principal.scopes] },
      { keyId: admin.id, owner: 'ops', admin: true, scopes: [...SCOPES], domains: null },
    );
    assert.equal(session.expiresAt, BASE_MS + TTL_MS);
    assert.match(token, new RegExp(`^${admin.id}\\.${BASE_MS + TTL_MS}\\.[A-Za-z0-9_-]{43}$`));

    assert.deepEqual(await readSession(deps, token), session);
    clock.advance(TTL_MS - 1);
    assert.deepEqual(await readSession(deps, token), session);
  });

  test('a session signed by an instance whose clock is up to a minute ahead reads here', async (t) => {
    const { clock, deps, admin } = await setup(t);
    const ahead = new ManualClock(clock.now() + CLOCK_SKEW_MS);
    const { token, session } = await signIn({ ...deps, clock: ahead }, admin.key, CLIENT);
    assert.deepEqual(await readSession(deps, token), session);
    ahead.advance(1);
    const tooFar = await signIn({ ...deps, clock: ahead }, admin.key, CLIENT);
    assert.equal(await readSession(deps, tooFar.token), null);
  });

  test('at its expiry and after, the session is gone', async (t) => {
    const { clock, deps, admin } = await setup(t);
    const { token } = await signIn(deps, admin.key, CLIENT);
    clock.advance(TTL_MS);
    assert.equal(await readSession(deps, token), null);
    clock.advance(1);
    assert.equal(await readSession(deps, token), null);
  });

  test('a token altered in any one of its three parts is no session', async (t) => {
    const { store, deps, admin } = await setup(t);
    const other = await storeKey(store.keys, true);
    const { token } = await signIn(deps, admin.key, CLIENT);
    const forgeries = [
      // key id: another admin key that exists, a near miss, one that does not exist
      altered(token, 0, () => other.id),
      altered(token, 0, (id) => swapChar(id, id.length - 1)),
      altered(token, 0, (id) => id.toLowerCase()),
      // expiry: later, earlier (still in the future), a digit changed
      altered(token, 1, (ms) => String(Number(ms) + 1)),
      altered(token, 1, (ms) => String(Number(ms) - 1000)),
      altered(token, 1, (ms) => `2${ms.slice(1)}`),
      // MAC: first, middle and last character, all of it
      altered(token, 2, (mac) => swapChar(mac, 0)),
      altered(token, 2, (mac) => swapChar(mac, 21)),
      altered(token, 2, (mac) => swapChar(mac, 42)),
      altered(token, 2, () => 'A'.repeat(43)),
    ];
    for (const forged of forgeries) {
      assert.notEqual(forged, token);
      assert.equal(await readSession(deps, forged), null, forged);
    }
    assert.notEqual(await readSession(deps, token), null, 'the genuine token still reads');
  });

  test("a session is bound to the server's secret: another secret, or none, reads nothing", async (t) => {
    const { deps, admin } = await setup(t);
    const { token } = await signIn(deps, admin.key, CLIENT);
    assert.notEqual(await readSession(deps, token), null);
    for (const secret of [Buffer.from('another-secret-0123456789abcdef'), null]) {
      assert.equal(
        await readSession({ ...deps, secret: () => secret }, token),
        null,
        String(secret),
      );
    }
    // Without a secret (scaled out, unset), sessions still work, signed by the hash alone.
    const unsalted = { ...deps, secret: () => null };
    const plain = await signIn(unsalted, admin.key, CLIENT);
    assert.notEqual(await readSession(unsalted, plain.token), null);
    assert.equal(await readSession(deps, plain.token), null);
  });

  test('malformed tokens are no session', async (t) => {
    const { deps, admin } = await setup(t);
    const { token } = await signIn(deps, admin.key, CLIENT);
    for (const malformed of [
      '',
      'garbage',
      `${token}.`,
      `.${token}`,
      token.slice(0, -1),
      `${token}A`,
      token.replaceAll('.', '|'),
      `${'A'.repeat(65)}.${token.split('.').slice(1).join('.')}`,
      // The same expiry spelt with a leading zero: one session has one spelling.
      token.replace('.', '.0'),
    ]) {
      assert.equal(await readSession(deps, malformed), null, malformed);
    }
  });

  test("revoking the key ends its sessions; the session's key must still be an admin key", async (t) => {
    const { store, clock, deps, admin } = await setup(t);
    const { token } = await signIn(deps, admin.key, CLIENT);
    assert.equal(await store.keys.revokeKey(admin.id, clock.now()), true);
    assert.equal(await readSession(deps, token), null);
  });

  test("signing out ends that session, copies of its token included, and not the key's others", async (t) => {
    const { clock, deps, admin } = await setup(t);
    const mine = await signIn(deps, admin.key, CLIENT);
    clock.advance(1000);
    const colleagues = await signIn(deps, admin.key, '192.0.2.2');
    const session = await readSession(deps, mine.token);
    assert.ok(session !== null);

    clock.advance(1000);
    await signOut(deps, session);
    assert.equal(await readSession(deps, mine.token), null, 'the signed-out token');
    assert.deepEqual(await readSession(deps, colleagues.token), colleagues.session);
    // Signing in again with the same key makes a new session, which reads.
    clock.advance(1000);
    const again = await signIn(deps, admin.key, CLIENT);
    assert.deepEqual(await readSession(deps, again.token), again.session);
    // Until it would have expired, and after it: still no session.
    clock.advance(TTL_MS);
    assert.equal(await readSession(deps, mine.token), null);
  });

  test('a signed-out session stays ended for an instance whose clock is a minute slower', async (t) => {
    const { clock, deps, admin } = await setup(t);
    const ended = await signIn(deps, admin.key, CLIENT);
    await signOut(deps, ended.session);
    // Half a minute past its expiry another sign-out forgets old ended sessions; an instance
    // running a minute behind still takes the token as unexpired, so it must stay ended.
    clock.advance(TTL_MS + 30_000);
    const other = await signIn(deps, admin.key, CLIENT);
    await signOut(deps, other.session);
    const slower = { ...deps, clock: new ManualClock(clock.now() - CLOCK_SKEW_MS) };
    assert.equal(await readSession(slower, ended.token), null);
  });

  test("sign-in refuses unknown, revoked and malformed keys; an owner's key is that owner's session", async (t) => {
    const { store, clock, deps, admin } = await setup(t);
    const member = await storeKey(store.keys, false);
    const revoked = await storeKey(store.keys, true);
    await store.keys.revokeKey(revoked.id, clock.now());

    const unauthorized = { name: 'HopError', kind: 'unauthorized' };
    await assert.rejects(signIn(deps, 'hop_nobody_has_this_key_00000000', CLIENT), unauthorized);
    await assert.rejects(signIn(deps, revoked.key, CLIENT), unauthorized);
    for (const key of ['', `${admin.key}\n`, ` ${admin.key}`, `${admin.key}\u00e9`]) {
      await assert.rejects(signIn(deps, key, CLIENT), unauthorized, JSON.stringify(key));
    }
    await assert.rejects(signIn(deps, 'k'.repeat(513), CLIENT), unauthorized);
    // ADR 0096: an owner's key signs in, as that owner and not an admin.
    const { session, token } = await signIn(deps, member.key, CLIENT);
    assert.equal(session.principal.admin, false);
    assert.equal(session.principal.keyId, member.id);
    assert.deepEqual((await readSession(deps, token))?.principal, session.principal);
  });

  test('an address past ten refused sign-ins waits, even with the right key; others do not', async (t) => {
    const { clock, deps, admin } = await setup(t);
    const throttled = {
      ...deps,
      signInThrottle: new ScannerThrottle({
        threshold: 10,
        windowMs: 600_000,
        coolDownMs: 600_000,
        now: () => clock.now(),
      }),
    };
    // Signing in successfully, however often, is never held against anyone.
    for (let i = 0; i < 20; i++) await signIn(throttled, admin.key, CLIENT);
    const unauthorized = { name: 'HopError', kind: 'unauthorized' };
    for (let i = 0; i < 11; i++) {
      await assert.rejects(
        signIn(throttled, `hop_guess_${i}_000000000000000`, CLIENT),
        unauthorized,
      );
    }
    const limited = { name: 'HopError', kind: 'rate-limited', retryAfterSeconds: 600 };
    await assert.rejects(signIn(throttled, admin.key, CLIENT), limited);
    await signIn(throttled, admin.key, '192.0.2.99');
    clock.advance(600_000);
    await signIn(throttled, admin.key, CLIENT);
  });

  describe('carriesCsrfToken', () => {
    test("true for the session's own token only", async (t) => {
      const { clock, deps, admin } = await setup(t);
      const { session } = await signIn(deps, admin.key, CLIENT);
      clock.advance(1);
      const { session: another } = await signIn(deps, admin.key, CLIENT);
      assert.notEqual(another.csrfToken, session.csrfToken);

      assert.equal(carriesCsrfToken(session, session.csrfToken), true);
      assert.equal(carriesCsrfToken(session, undefined), false);
      assert.equal(carriesCsrfToken(session, ''), false);
      assert.equal(carriesCsrfToken(session, session.csrfToken.slice(1)), false);
      assert.equal(carriesCsrfToken(session, `${session.csrfToken}A`), false);
      assert.equal(carriesCsrfToken(session, swapChar(session.csrfToken, 10)), false);
      assert.equal(carriesCsrfToken(session, another.csrfToken), false);
      assert.equal(carriesCsrfToken(another, session.csrfToken), false);
    });

    test('a session read back carries the token given at sign-in', async (t) => {
      const { deps, admin } = await setup(t);
      const { token, session } = await signIn(deps, admin.key, CLIENT);
      const read = await readSession(deps, token);
      assert.ok(read !== null);
      assert.equal(carriesCsrfToken(read, session.csrfToken), true);
    });
  });
});
