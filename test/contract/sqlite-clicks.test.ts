import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { HOUR_MS } from '../../src/domain/click-fold.js';
import { tallyOfEvent } from '../../src/domain/click-tally.js';
import { tallyOfBatch } from '../support/click-tallies.js';
import { legacyTallyJson } from '../support/click-tallies.js';
import { SqliteClickDatabase } from '../../src/adapters/sqlite/sqlite-click-database.js';
import { CLICK_MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { FlushTally } from '../../src/clicks/flush-tally.js';
import { batchOf } from '../support/click-batches.js';
import { openTempSqliteStore, tempDataDir } from '../support/temp-data.js';

const HOUR = Date.UTC(2026, 5, 1, 12);

function events(count: number, from = 0, overrides: Partial<ClickEvent> = {}): ClickEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    instance: 'inst1',
    seq: from + index,
    linkId: 'link-a',
    code: 'abc1234',
    at: HOUR + (from + index) * 1000,
    country: index % 2 === 0 ? 'DE' : 'FR',
    device: 'mobile' as const,
    referrer: '',
    ...overrides,
  }));
}

describe('SqliteClickStore', () => {
  test('folds into hourly buckets; summarize, totals and freshness read them back', async (t) => {
    const store = openTempSqliteStore(t);
    assert.equal(await store.clicks.freshness(), null);
    await store.clicks.fold(
      [
        tallyOfBatch(
          batchOf([...events(4), ...events(2, 4, { at: HOUR + HOUR_MS, referrer: 'x.example' })]),
        ),
      ],
      50,
    );
    const summary = await store.clicks.summarize('link-a', HOUR, HOUR + 2 * HOUR_MS);
    assert.deepEqual(summary.hours, [
      { hour: HOUR, clicks: 4 },
      { hour: HOUR + HOUR_MS, clicks: 2 },
    ]);
    assert.deepEqual(summary.countries, [
      { value: 'DE', clicks: 3 },
      { value: 'FR', clicks: 3 },
    ]);
    assert.deepEqual(summary.devices, [{ value: 'mobile', clicks: 6 }]);
    assert.deepEqual(summary.referrers, [
      { value: '', clicks: 4 },
      { value: 'x.example', clicks: 2 },
    ]);
    const firstHourOnly = await store.clicks.summarize('link-a', HOUR, HOUR + HOUR_MS);
    assert.deepEqual(firstHourOnly.hours, [{ hour: HOUR, clicks: 4 }]);
    assert.deepEqual(
      [...(await store.clicks.totals(['link-a', 'link-b']))],
      [
        ['link-a', 6],
        ['link-b', 0],
      ],
    );
    assert.equal(await store.clicks.freshness(), HOUR + HOUR_MS);
  });

  test('the same batch folded twice, or overlapping batches, count each event once', async (t) => {
    const store = openTempSqliteStore(t);
    const batch = [tallyOfBatch(batchOf(events(100)))];
    assert.deepEqual(await store.clicks.fold(batch, 50), { counted: 100, duplicates: 0 });
    assert.deepEqual(await store.clicks.fold(batch, 50), { counted: 0, duplicates: 100 });
    // One event a tally (as JetStream delivers them): the overlap is skipped event by event.
    const overlapping = events(100, 50).map(tallyOfEvent);
    assert.deepEqual(await store.clicks.fold(overlapping, 50), { counted: 50, duplicates: 50 });
    assert.equal((await store.clicks.totals(['link-a'])).get('link-a'), 150);
  });

  test('the referrer bound holds across folds', async (t) => {
    const store = openTempSqliteStore(t);
    for (let round = 0; round < 4; round++) {
      const batch = Array.from({ length: 10 }, (_, index) => ({
        ...events(1, round * 10 + index)[0]!,
        at: HOUR,
        referrer: `r${round * 10 + index}.example`,
      }));
      await store.clicks.fold([tallyOfBatch(batchOf(batch))], 15);
    }
    const summary = await store.clicks.summarize('link-a', HOUR, HOUR + HOUR_MS);
    assert.equal(summary.referrers.length, 16, '15 hosts and other');
    assert.deepEqual(summary.referrers[0], { value: 'other', clicks: 25 });
  });
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
    assert.equal((await store.clicks.totals(['link-a'])).get('link-a'), 15);
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
    assert.equal((await clicks.clicks.totals(['link-a'])).get('link-a'), 10);
  });
});
