import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { tallyOfBatch } from '../support/click-tallies.js';
import { legacyTallyJson } from '../support/click-tallies.js';
import { SqliteClickDatabase } from '../../src/adapters/sqlite/sqlite-click-database.js';
import { applyMigrations, CLICK_MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import {
  assertBotsSplitOut,
  CLICKS_BEFORE_BOTS_APART,
  migrationsBefore,
  READ_HOUR_TOTALS,
  READ_TOTALS,
} from '../support/bot-click-migration.js';
import { FlushTally } from '../../src/wire/flush-tally.js';
import { batchOf } from '../support/click-batches.js';
import { openTempSqliteStore, tempDataDir } from '../support/temp-data.js';
import { events, runClickStoreContract } from './click-store-contract.js';
import { runClickLogsContract } from './click-logs-contract.js';

runClickStoreContract('SqliteClickStore', async (t) => openTempSqliteStore(t).clicks);

test("click migration 0004 splits bots' clicks out of an older clicks.db's totals", (t) => {
  const db = new Database(join(tempDataDir(t), 'clicks.db'));
  t.after(() => {
    db.close();
  });
  applyMigrations(db, migrationsBefore(t, CLICK_MIGRATIONS, 4));
  db.exec(CLICKS_BEFORE_BOTS_APART);
  // Up to 0004 only: later ones (0005, issue 21's facets) are their own.
  assert.deepEqual(applyMigrations(db, migrationsBefore(t, CLICK_MIGRATIONS, 5)), [4]);
  assertBotsSplitOut(
    db.prepare<[], { link_id: string; clicks: number; bot_clicks: number }>(READ_TOTALS).all(),
    db.prepare<[], { hour: number; clicks: number }>(READ_HOUR_TOTALS).all(),
  );
});

describe('SqliteClickQueue', () => {
  test('a batch stays queued until acknowledged; folding it again after a crash counts nothing twice', async (t) => {
    const store = openTempSqliteStore(t);
    const queue = store.clickQueue;
    await queue.send(batchOf(events(10)));
    await queue.send(batchOf(events(5, 10)));
    assert.equal(await queue.pendingBatches(), 2);

    const first = await queue.next();
    assert.ok(first !== null);
    assert.deepEqual(
      first.tallies.map((tally) => [tally.fromSeq, tally.toSeq]),
      [[0, 9]],
      'the oldest row, one tally',
    );
    await store.clicks.fold(first.tallies, 50);
    // The process dies here: folded, never acknowledged. The row is delivered again.
    const again = await queue.next();
    assert.ok(again !== null);
    assert.deepEqual(again.tallies, first.tallies);
    assert.deepEqual(await store.clicks.fold(again.tallies, 50), { counted: 0, duplicates: 10 });
    await again.ack();
    const second = await queue.next();
    assert.ok(second !== null);
    assert.deepEqual(await store.clicks.fold(second.tallies, 50), { counted: 5, duplicates: 0 });
    await second.ack();
    assert.equal(await queue.next(), null);
    assert.equal(await queue.pendingBatches(), 0);
    assert.equal((await store.clicks.totals(['link-a'])).get('link-a')?.clicks, 15);
  });

  test('rows of the JSON format an earlier hop queued still fold; a row that is no tally is dropped', async (t) => {
    const file = join(tempDataDir(t), 'clicks.db');
    // An earlier hop's clicks.db: the first migration only, a JSON row in its queue.
    const old = new Database(file);
    old.exec(readFileSync(new URL('0001_create_click_tables.sql', CLICK_MIGRATIONS), 'utf8'));
    old.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT; INSERT INTO schema_migrations VALUES (1, '0001_create_click_tables.sql', 0)",
    );
    old
      .prepare('INSERT INTO click_queue (created_at, tally) VALUES (?, ?)')
      .run(1, legacyTallyJson(tallyOfBatch(batchOf(events(4)))));
    old.close();
    const clicks = SqliteClickDatabase.open(file, 10);
    t.after(() => {
      clicks.close();
    });
    const raw = new Database(file);
    t.after(() => {
      raw.close();
    });
    const insert = raw.prepare(
      'INSERT INTO click_queue (created_at, tally, wire) VALUES (?, ?, ?)',
    );
    insert.run(2, '', Buffer.from('not a tally'));
    insert.run(3, '', Buffer.from(new FlushTally().encode(batchOf(events(6, 4)))));
    const delivery = await clicks.clickQueue.next();
    assert.ok(delivery !== null);
    assert.deepEqual(
      delivery.tallies.map((tally) => [tally.fromSeq, tally.toSeq]),
      [
        [0, 3],
        [4, 9],
      ],
    );
    assert.deepEqual(await clicks.clicks.fold(delivery.tallies, 50), {
      counted: 10,
      duplicates: 0,
    });
    await delivery.ack();
    assert.equal(await clicks.clickQueue.next(), null);
    assert.equal((await clicks.clicks.totals(['link-a'])).get('link-a')?.clicks, 10);
  });
});

runClickLogsContract('SqliteClickEventLog, SqliteVisitLog', async (t) => {
  const store = openTempSqliteStore(t);
  return { clicks: store.clicks, clickEvents: store.clickEvents, visits: store.visits };
});

test('clicks.db keeps until when click events are wanted, only ever later, across a reopen (ADR 0131)', (t) => {
  const file = join(tempDataDir(t), 'clicks.db');
  const first = SqliteClickDatabase.open(file);
  assert.equal(first.clickEventDemand.untilMs(), 0, 'nobody asked yet');
  first.clickEventDemand.raise(5_000);
  first.clickEventDemand.raise(3_000);
  assert.equal(first.clickEventDemand.untilMs(), 5_000, 'an earlier horizon does not move it back');
  first.close();
  const again = SqliteClickDatabase.open(file);
  t.after(() => {
    again.close();
  });
  assert.equal(again.clickEventDemand.untilMs(), 5_000);
  again.clickEventDemand.raise(9_000);
  assert.equal(again.clickEventDemand.untilMs(), 9_000);
});
