import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { KEY_USE_WRITE_INTERVAL_MS, KeyUses } from '../../src/services/keys/key-uses.js';
import { BASE_MS, makeKey } from '../contract/store-factories.js';
import { ManualClock } from '../support/manual-clock.js';
import { tempDataDir } from '../support/temp-data.js';

test('a last-use write the store refuses is counted and reported, never thrown', async (t) => {
  const store = SqliteStore.open({ file: join(tempDataDir(t, 'hop-key-uses-'), 'hop.db') });
  const key = makeKey();
  await store.keys.insertKey(key);
  const clock = new ManualClock(BASE_MS);
  const reported: unknown[] = [];
  const uses = new KeyUses(store.keys, clock, (error) => reported.push(error));
  // The store is gone (a disk failure, a shutdown racing a request): every write fails.
  await store.close();

  uses.record(key);
  await uses.settled();
  assert.equal(uses.failures, 1);
  assert.equal(reported.length, 1);
  assert.ok(reported[0] instanceof Error);
  // No retry per request while the store is down: the minute holds for failures too.
  uses.record(key);
  await uses.settled();
  assert.equal(uses.failures, 1);
  clock.advance(KEY_USE_WRITE_INTERVAL_MS);
  uses.record(key);
  await uses.settled();
  assert.equal(uses.failures, 2);
});

test('a key whose record was used this minute is not written again', async (t) => {
  const store = SqliteStore.open({ file: join(tempDataDir(t, 'hop-key-uses-'), 'hop.db') });
  t.after(() => store.close());
  const clock = new ManualClock(BASE_MS);
  const key = makeKey({ lastUsedAt: BASE_MS - 1000 });
  await store.keys.insertKey(key);
  const uses = new KeyUses(store.keys, clock, () => assert.fail('no write fails'));
  uses.record(key);
  await uses.settled();
  assert.equal((await store.keys.findActiveKeyById(key.id))?.lastUsedAt, BASE_MS - 1000);
  clock.advance(KEY_USE_WRITE_INTERVAL_MS);
  uses.record(key);
  await uses.settled();
  assert.equal((await store.keys.findActiveKeyById(key.id))?.lastUsedAt, clock.now());
});
