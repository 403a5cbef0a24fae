import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_MS, makeKey, openFresh, type OpenStore } from './store-factories.js';

/** The ApiKeyStore port: hashes are unique, revocation is one-way, listing is oldest first. */
export function apiKeyStoreContract(openStore: OpenStore): void {
  describe('ApiKeyStore', () => {
    test('insertKey then findActiveKeyByHash round-trips every field', async (t) => {
      const store = await openFresh(t, openStore);
      const key = makeKey({ admin: false });
      const admin = makeKey({ admin: true });

      assert.equal(await store.keys.insertKey(key), true);
      assert.equal(await store.keys.insertKey(admin), true);
      assert.deepEqual(await store.keys.findActiveKeyByHash(key.keyHash), key);
      assert.deepEqual(await store.keys.findActiveKeyByHash(admin.keyHash), admin);
      assert.equal(await store.keys.findActiveKeyByHash(makeKey().keyHash), null);
    });

    test('name, scopes, domains, expiry and last use round-trip; NULLs stay null', async (t) => {
      const store = await openFresh(t, openStore);
      const scoped = makeKey({
        name: 'ci deploys ✓',
        scopes: ['links:read', 'analytics:read'],
        // '' is the default domain: an empty string, not a missing one.
        domains: ['', 'go.acme.com'],
        expiresAt: BASE_MS + 86_400_000,
        lastUsedAt: BASE_MS + 5,
      });
      const none = makeKey({ scopes: [], domains: [] });
      const old = makeKey();
      for (const key of [scoped, none, old]) assert.equal(await store.keys.insertKey(key), true);
      assert.deepEqual(await store.keys.findActiveKeyByHash(scoped.keyHash), scoped);
      assert.deepEqual(await store.keys.findActiveKeyById(scoped.id), scoped);
      assert.deepEqual(await store.keys.findActiveKeyByHash(none.keyHash), none);
      assert.deepEqual(await store.keys.findActiveKeyByHash(old.keyHash), old);
      assert.deepEqual(
        (await store.keys.listKeys()).find((k) => k.id === scoped.id),
        scoped,
      );
    });

    test('recordKeyUse writes only if the last use is at or before the given time', async (t) => {
      const store = await openFresh(t, openStore);
      const key = makeKey();
      const bystander = makeKey();
      await store.keys.insertKey(key);
      await store.keys.insertKey(bystander);
      const lastUsed = async () => (await store.keys.findActiveKeyById(key.id))?.lastUsedAt;

      assert.equal(await store.keys.recordKeyUse(key.id, BASE_MS + 1000, BASE_MS - 59_000), true);
      assert.equal(await lastUsed(), BASE_MS + 1000);
      // Another instance, a second later: its minute has not passed, nothing is written.
      assert.equal(await store.keys.recordKeyUse(key.id, BASE_MS + 2000, BASE_MS - 58_000), false);
      assert.equal(await lastUsed(), BASE_MS + 1000);
      // A minute to the millisecond after: written.
      assert.equal(await store.keys.recordKeyUse(key.id, BASE_MS + 61_000, BASE_MS + 1000), true);
      assert.equal(await lastUsed(), BASE_MS + 61_000);
      assert.equal((await store.keys.findActiveKeyById(bystander.id))?.lastUsedAt, null);
      assert.equal(await store.keys.recordKeyUse(makeKey().id, BASE_MS, BASE_MS), false);
    });

    test('a fresh store has no keys', async (t) => {
      const store = await openFresh(t, openStore);
      assert.equal(await store.keys.countKeys(), 0);
      assert.deepEqual(await store.keys.listKeys(), []);
    });

    test('listKeys: every key, revoked ones included, oldest first', async (t) => {
      const store = await openFresh(t, openStore);
      const [first, second, third] = [makeKey(), makeKey({ admin: true }), makeKey()];
      // Inserted out of order: the order is the store's, not the insertion's.
      for (const key of [second, third, first]) assert.equal(await store.keys.insertKey(key), true);
      assert.equal(await store.keys.revokeKey(second.id, BASE_MS + 5000), true);

      assert.deepEqual(await store.keys.listKeys(), [
        first,
        { ...second, revokedAt: BASE_MS + 5000 },
        third,
      ]);
    });

    test('revokeKey: true once, false again; the revoked key is no longer found', async (t) => {
      const store = await openFresh(t, openStore);
      const key = makeKey();
      const bystander = makeKey();
      await store.keys.insertKey(key);
      await store.keys.insertKey(bystander);

      assert.equal(await store.keys.revokeKey(key.id, BASE_MS + 1000), true);
      assert.equal(await store.keys.revokeKey(key.id, BASE_MS + 2000), false);
      assert.equal(await store.keys.findActiveKeyByHash(key.keyHash), null);
      assert.deepEqual(await store.keys.findActiveKeyByHash(bystander.keyHash), bystander);
      assert.equal(await store.keys.findActiveKeyById(key.id), null);
      assert.deepEqual(await store.keys.findActiveKeyById(bystander.id), bystander);
      assert.equal(await store.keys.findActiveKeyById(makeKey().id), null);
      // The first revocation's time stays.
      const listed = await store.keys.listKeys();
      assert.equal(listed.find((k) => k.id === key.id)?.revokedAt, BASE_MS + 1000);
    });

    test('revokeKey of an unknown id is false', async (t) => {
      const store = await openFresh(t, openStore);
      await store.keys.insertKey(makeKey());
      assert.equal(await store.keys.revokeKey(makeKey().id, BASE_MS), false);
    });

    test('a key stored revoked is listed and counted but never found', async (t) => {
      const store = await openFresh(t, openStore);
      const revoked = makeKey({ revokedAt: BASE_MS });
      assert.equal(await store.keys.insertKey(revoked), true);
      assert.equal(await store.keys.findActiveKeyByHash(revoked.keyHash), null);
      assert.equal(await store.keys.findActiveKeyById(revoked.id), null);
      assert.equal(await store.keys.revokeKey(revoked.id, BASE_MS + 1), false);
      assert.deepEqual(await store.keys.listKeys(), [revoked]);
      assert.equal(await store.keys.countKeys(), 1);
    });

    test('countKeys counts every key, revoked ones included', async (t) => {
      const store = await openFresh(t, openStore);
      const keys = [makeKey(), makeKey(), makeKey()];
      for (const key of keys) await store.keys.insertKey(key);
      assert.equal(await store.keys.countKeys(), 3);
      await store.keys.revokeKey(keys[1]!.id, BASE_MS);
      assert.equal(await store.keys.countKeys(), 3);
    });

    test('a duplicate keyHash is refused and the first key is unchanged', async (t) => {
      const store = await openFresh(t, openStore);
      const key = makeKey();
      await store.keys.insertKey(key);

      const duplicate = makeKey({ keyHash: key.keyHash, admin: true });
      assert.equal(await store.keys.insertKey(duplicate), false);
      assert.deepEqual(await store.keys.findActiveKeyByHash(key.keyHash), key);
      assert.deepEqual(await store.keys.listKeys(), [key]);
      assert.equal(await store.keys.countKeys(), 1);
    });

    test('a duplicate keyHash is refused even when the first key is revoked', async (t) => {
      const store = await openFresh(t, openStore);
      const key = makeKey();
      await store.keys.insertKey(key);
      await store.keys.revokeKey(key.id, BASE_MS);

      assert.equal(await store.keys.insertKey(makeKey({ keyHash: key.keyHash })), false);
      assert.equal(await store.keys.findActiveKeyByHash(key.keyHash), null);
      assert.equal(await store.keys.countKeys(), 1);
    });

    test('concurrent inserts of one keyHash: exactly one is stored', async (t) => {
      const store = await openFresh(t, openStore);
      const keyHash = makeKey().keyHash;
      const candidates = Array.from({ length: 10 }, () => makeKey({ keyHash }));

      const results = await Promise.all(candidates.map((key) => store.keys.insertKey(key)));

      assert.equal(results.filter(Boolean).length, 1);
      const winner = candidates[results.indexOf(true)];
      assert.deepEqual(await store.keys.findActiveKeyByHash(keyHash), winner);
      assert.equal(await store.keys.countKeys(), 1);
    });

    test('ended console sessions: found by hash until a later sign-out forgets the expired', async (t) => {
      const store = await openFresh(t, openStore);
      const [first, second, never] = ['a', 'b', 'c'].map((c) => c.repeat(64)) as [
        string,
        string,
        string,
      ];
      assert.equal(await store.keys.consoleSessionEnded(first), false);
      await store.keys.endConsoleSession(first, BASE_MS + 1000, BASE_MS);
      // Ending one session twice is no error and changes nothing.
      await store.keys.endConsoleSession(first, BASE_MS + 1000, BASE_MS + 10);
      assert.equal(await store.keys.consoleSessionEnded(first), true);
      assert.equal(await store.keys.consoleSessionEnded(never), false);

      // At the first one's expiry, the next sign-out forgets it: its cookie has expired anyway.
      await store.keys.endConsoleSession(second, BASE_MS + 5000, BASE_MS + 1000);
      assert.equal(await store.keys.consoleSessionEnded(first), false);
      assert.equal(await store.keys.consoleSessionEnded(second), true);
    });
  });
}
