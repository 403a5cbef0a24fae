import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { makeClaim, makeLink } from '../contract/store-factories.js';
import { runHop } from '../support/hop-process.js';
import { tempDataDir } from '../support/temp-data.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('hop sweep', () => {
  test('marks expired links, reclaims old generated codes, purges old records, once', async (t) => {
    const dir = tempDataDir(t, 'hop-sweep-');
    const file = join(dir, 'hop.db');
    const env = { HOP_DATA_DIR: dir, HOP_RECLAIM_GRACE: '30d', HOP_LOG_LEVEL: 'warn' };
    // Times are far from now on either side: the CLI reads the real clock.
    const now = Date.now();
    const justExpired = makeLink({ expiresAt: now - HOUR_MS, createdAt: now - DAY_MS });
    const longExpired = makeLink({
      state: 'expired',
      expiresAt: now - 40 * DAY_MS,
      createdAt: now - 400 * DAY_MS,
      version: 2,
    });
    const alias = makeLink({ custom: true, code: 'old-alias', expiresAt: now - 400 * DAY_MS });
    const live = makeLink({ expiresAt: now + 365 * DAY_MS, createdAt: now - 2 * DAY_MS });
    const seeded = SqliteStore.open({ file });
    for (const link of [justExpired, longExpired, alias]) await seeded.links.insertLink(link);
    // A change two hours old, past the hour the change feed keeps with the default L1 TTL.
    const editedLongAgo = makeLink({ expiresAt: now + 365 * DAY_MS, createdAt: now - DAY_MS });
    await seeded.links.insertLink(editedLongAgo);
    const edit = { ...editedLongAgo, title: 'edited', version: 2, updatedAt: now - 2 * HOUR_MS };
    assert.equal(await seeded.links.replaceLink(edit, 1), true);
    // Its idempotency record is two days old: past the 24 hours it is answered for.
    await seeded.links.insertLink(live, makeClaim({ owner: live.owner, notBefore: 0 }));
    await seeded.close();

    const swept = await runHop(['sweep'], env);
    assert.equal(swept.status, 0, swept.stderr);
    assert.match(
      swept.stdout,
      /^hop: swept .*hop\.db: 2 expired, 1 reclaimed, 1 idempotency records purged \(\d+ batches, \d+ ms\)\n$/,
    );

    const store = SqliteStore.open({ file });
    t.after(() => store.close());
    const marked = await store.links.findLinkById(justExpired.id);
    assert.equal(marked?.state, 'expired');
    assert.equal(marked?.version, 2);
    assert.equal((await store.links.findLinkById(alias.id))?.state, 'expired');
    assert.equal(await store.links.findLinkById(longExpired.id), null);
    assert.deepEqual(await store.links.findLinkById(live.id), live);
    // No server ran: the sweep shrank the change feed, keeping only its own recent changes.
    const { changes } = await store.linkChanges.changesAfter(0, 100);
    assert.deepEqual(
      changes.map((change) => change.code).sort(),
      [justExpired.code, alias.code].sort(),
    );
    assert.equal(
      (await store.links.insertLink(makeLink({ code: longExpired.code }))).kind,
      'inserted',
      'the reclaimed code is free again',
    );
    assert.equal(
      (await store.links.insertLink(makeLink({ code: 'old-alias' }))).kind,
      'code-taken',
    );
    await store.close();

    const again = await runHop(['sweep'], env);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /: 0 expired, 0 reclaimed, 0 idempotency records purged /);
  });
});
