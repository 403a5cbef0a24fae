import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, test, type TestContext } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import type { ClickTally } from '../../src/domain/click-tally.js';
import { tallyOfBatch } from '../support/click-tallies.js';
import { legacyTallyJson } from '../support/click-tallies.js';
import { SqliteClickDatabase } from '../../src/adapters/sqlite/sqlite-click-database.js';
import type {
  DeliveryBounds,
  SqliteClickQueue,
} from '../../src/adapters/sqlite/sqlite-click-queue.js';
import { WRITE_OUT_ROWS } from '../../src/adapters/sqlite/sqlite-fold-log-spool.js';
import { planLogRows, ROWS_PER_BLOCK } from '../../src/adapters/sqlite/sqlite-fold-logs.js';
import { decodeTallyWire } from '../../src/wire/click-tally-wire.js';
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
import type { VisitPosition } from '../../src/ports/visit-log.js';

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

/** Each tally's run of event ids, as [from, to]. */
function seqsOf(tallies: readonly ClickTally[]): number[][] {
  return tallies.map((tally) => [tally.fromSeq, tally.toSeq]);
}

/** A clicks.db of its own whose queue delivers within `bounds`, closed after the test. */
function openBoundedClicks(
  t: TestContext,
  bounds: DeliveryBounds,
): { clicks: SqliteClickDatabase; file: string } {
  const file = join(tempDataDir(t), 'clicks.db');
  const clicks = SqliteClickDatabase.open(file, bounds);
  t.after(() => {
    clicks.close();
  });
  return { clicks, file };
}

/** The next delivery's runs of event ids, acknowledged (there must be one). */
async function takeDelivery(queue: SqliteClickQueue): Promise<number[][]> {
  const delivery = await queue.next();
  assert.ok(delivery !== null);
  await delivery.ack();
  return seqsOf(delivery.tallies);
}

describe('SqliteClickQueue', () => {
  test('a batch stays queued until acknowledged; folding it again after a crash counts nothing twice', async (t) => {
    const store = openTempSqliteStore(t);
    const queue = store.clickQueue;
    await queue.send(batchOf(events(10)));
    await queue.send(batchOf(events(5, 10)));
    assert.equal(await queue.pendingBatches(), 2);

    const first = await queue.next();
    assert.ok(first !== null);
    assert.deepEqual(seqsOf(first.tallies), [[0, 9]], 'the oldest row, one tally');
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

  test('a delivery merges rows until they name `links` links; the rest stay queued, in order', async (t) => {
    const queue = openBoundedClicks(t, { rows: 10, links: 3 }).clicks.clickQueue;
    // Rows naming links a, b; a again; c; d; then one on a only.
    const rows = [
      [...events(2, 0, { linkId: 'a' }), ...events(2, 2, { linkId: 'b' })],
      events(3, 4, { linkId: 'a' }),
      events(1, 7, { linkId: 'c' }),
      events(1, 8, { linkId: 'd' }),
      events(4, 9, { linkId: 'a' }),
    ];
    for (const row of rows) await queue.send(batchOf(row));

    // a, b; then a again (still two links); then c makes three: no further row.
    assert.deepEqual(await takeDelivery(queue), [
      [0, 3],
      [4, 6],
      [7, 7],
    ]);
    assert.deepEqual(await takeDelivery(queue), [
      [8, 8],
      [9, 12],
    ]);
    assert.equal(await queue.next(), null);
  });

  test('a fold over more links than one bound array holds counts every one of them', async (t) => {
    const store = openTempSqliteStore(t);
    // 4,096 rows are bound at a time: 10,000 links, two clicks each, span three arrays.
    const links = Array.from({ length: 10_000 }, (_, index) => `link-${index}`);
    const many = events(20_000).map((event, index) => ({
      ...event,
      linkId: links[index % links.length] as string,
    }));
    await store.clickQueue.send(batchOf(many));
    const delivery = await store.clickQueue.next();
    assert.ok(delivery !== null);
    assert.deepEqual(await store.clicks.fold(delivery.tallies, 50), {
      counted: 20_000,
      duplicates: 0,
    });
    const totals = await store.clicks.totals(links);
    assert.equal(totals.size, links.length);
    for (const linkId of links) assert.equal(totals.get(linkId)?.clicks, 2, linkId);
    // The first link's rows are in the first array bound, the middle one's and the last
    // one's in later ones.
    for (const linkId of [links[0], links[5_000], links.at(-1)] as string[]) {
      const summary = await store.clicks.summarize(linkId, 0, Number.MAX_SAFE_INTEGER);
      const sum = (rows: readonly { readonly clicks: number }[]) =>
        rows.reduce((total, row) => total + row.clicks, 0);
      assert.equal(sum(summary.hours), 2, `${linkId}: its hourly rows`);
      assert.equal(sum(summary.countries), 2, `${linkId}: its hourly rows' countries`);
      assert.equal(sum(summary.browsers), 2, `${linkId}: its facet rows`);
    }
    assert.equal(await store.clicks.clicksBetween(0, Number.MAX_SAFE_INTEGER), 20_000);
  });

  test('the row that crosses the bound is delivered whole; a corrupt row after it waits', async (t) => {
    const { clicks, file } = openBoundedClicks(t, { rows: 10, links: 3 });
    const raw = new Database(file);
    t.after(() => {
      raw.close();
    });
    const queue = clicks.clickQueue;
    await queue.send(batchOf([...events(1, 0, { linkId: 'a' }), ...events(1, 1, { linkId: 'b' })]));
    // Two links more: the bound (3) is crossed inside this row.
    await queue.send(batchOf([...events(1, 2, { linkId: 'c' }), ...events(1, 3, { linkId: 'd' })]));
    raw
      .prepare("INSERT INTO click_queue (created_at, tally, wire) VALUES (?, '', ?)")
      .run(3, Buffer.from('not a tally'));
    await queue.send(batchOf(events(1, 4, { linkId: 'e' })));

    assert.deepEqual(await takeDelivery(queue), [
      [0, 1],
      [2, 3],
    ]);
    assert.equal(await queue.pendingBatches(), 2, 'the corrupt row and the last stay queued');
    assert.deepEqual(await takeDelivery(queue), [[4, 4]], 'the corrupt row is dropped');
    assert.equal(await queue.pendingBatches(), 0);
  });

  test('one row naming more links than the bound is still delivered, whole', async (t) => {
    const { clicks } = openBoundedClicks(t, { rows: 10, links: 2 });
    const wide = ['a', 'b', 'c', 'd'].flatMap((linkId, index) => events(1, index, { linkId }));
    await clicks.clickQueue.send(batchOf(wide));
    await clicks.clickQueue.send(batchOf(events(1, 4, { linkId: 'e' })));
    const delivery = await clicks.clickQueue.next();
    assert.ok(delivery !== null);
    assert.deepEqual(
      delivery.tallies.flatMap((tally) => tally.buckets.map((bucket) => bucket.linkId)).sort(),
      ['a', 'b', 'c', 'd'],
    );
    await delivery.ack();
    assert.equal(await clicks.clickQueue.pendingBatches(), 1);
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
    const clicks = SqliteClickDatabase.open(file, { rows: 10 });
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
    assert.deepEqual(seqsOf(delivery.tallies), [
      [0, 3],
      [4, 9],
    ]);
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

describe('the visit log in blocks (ADR 0147)', () => {
  const HOUR = Date.UTC(2026, 5, 20, 12);
  let seq = 0;
  /** `clicks` alike clicks of link-a at `at`, from Berlin when `city` is set. */
  const clicksAt = (at: number, clicks: number, city = ''): ClickEvent[] =>
    Array.from({ length: clicks }, () => ({
      instance: 'inst1',
      seq: seq++,
      linkId: 'link-a',
      code: 'abc1234',
      at,
      country: 'DE',
      device: 'mobile' as const,
      referrer: '',
      browser: 'safari' as const,
      os: 'ios' as const,
      city,
      language: '',
    }));

  test('blocks of two folds that overlap in time, and a late hour, page newest first one visit at a time', async (t) => {
    const dir = tempDataDir(t);
    const store = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      store.close();
    });
    // The first fold: 3 visits at HOUR + 5 s, 2 at HOUR + 6 s, 1 at HOUR + 9 s.
    await store.clicks.fold(
      [
        tallyOfBatch(
          batchOf([
            ...clicksAt(HOUR + 5_000, 3),
            ...clicksAt(HOUR + 6_000, 2),
            ...clicksAt(HOUR + 9_000, 1),
          ]),
        ),
      ],
      50,
      { logVisits: true },
    );
    // The second, inside the first's span: the rest of HOUR + 6 s (another city: another
    // row), HOUR + 7 s, and a late click of the hour before (a block of its own).
    await store.clicks.fold(
      [
        tallyOfBatch(
          batchOf([
            ...clicksAt(HOUR + 6_000, 1, 'Berlin'),
            ...clicksAt(HOUR + 7_000, 1),
            ...clicksAt(HOUR - 1_000, 1),
          ]),
        ),
      ],
      50,
      { logVisits: true },
    );
    const db = new Database(join(dir, 'clicks.db'), { readonly: true });
    const blocks = db.prepare('SELECT count(*) FROM visit_blocks').pluck().get();
    db.close();
    assert.equal(blocks, 3, 'one block per link, hour and fold');

    const page = (after: VisitPosition | null, limit: number) =>
      store.visits.page({
        linkId: 'link-a',
        fromMs: HOUR - 3_600_000,
        toMs: HOUR + 3_600_000,
        after,
        limit,
      });
    const all = await page(null, 100);
    assert.deepEqual(
      all.map((v) => [v.at - HOUR, v.city]),
      [
        [9_000, null],
        // Newer than the first block's older rows, though its block is read second.
        [7_000, null],
        // The same second in two blocks: the later block's row first (the larger id).
        [6_000, 'Berlin'],
        [6_000, null],
        [6_000, null],
        [5_000, null],
        [5_000, null],
        [5_000, null],
        [-1_000, null],
      ],
    );
    const ids = all.map((v) => `${v.id}.${v.ordinal}`);
    assert.equal(new Set(ids).size, all.length, 'each visit its own position');
    for (const limit of [1, 2, 3]) {
      const paged = [];
      let after: VisitPosition | null = null;
      for (;;) {
        const next = await page(after, limit);
        paged.push(...next);
        const last = next.at(-1);
        if (next.length < limit || last === undefined) break;
        after = last;
      }
      assert.deepEqual(paged, all, `pages of ${limit}`);
    }
    // A window inside the blocks: only its visits.
    const window = await store.visits.page({
      linkId: 'link-a',
      fromMs: HOUR + 6_000,
      toMs: HOUR + 7_000,
      after: null,
      limit: 100,
    });
    assert.deepEqual(
      window.map((v) => v.at - HOUR),
      [6_000, 6_000, 6_000],
    );
    // Retention goes by a block's newest visit: the late hour's block alone is older.
    assert.equal(await store.visits.forgetBefore(HOUR, 10), 1);
    assert.equal((await page(null, 100)).length, 8);
  });

  test('a link clicked in more ways in one fold than a block holds gets several blocks, paged as one log', async (t) => {
    const dir = tempDataDir(t);
    const store = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      store.close();
    });
    // ROWS_PER_BLOCK + 76 buckets: one per second, all in one hour.
    const seconds = ROWS_PER_BLOCK + 76;
    await store.clicks.fold(
      [
        tallyOfBatch(
          batchOf(Array.from({ length: seconds }, (_, i) => clicksAt(HOUR + i * 1_000, 1)).flat()),
        ),
      ],
      50,
      { logVisits: true },
    );
    const db = new Database(join(dir, 'clicks.db'), { readonly: true });
    const sizes = db
      .prepare<[], string>('SELECT rows FROM visit_blocks ORDER BY id')
      .pluck()
      .all()
      .map((rows) => (JSON.parse(rows) as unknown[]).length);
    db.close();
    assert.deepEqual(sizes, [ROWS_PER_BLOCK, 76]);
    const paged = [];
    let after: VisitPosition | null = null;
    for (;;) {
      const next = await store.visits.page({
        linkId: 'link-a',
        fromMs: HOUR,
        toMs: HOUR + 3_600_000,
        after,
        limit: 300,
      });
      paged.push(...next);
      const last = next.at(-1);
      if (next.length < 300 || last === undefined) break;
      after = last;
    }
    assert.deepEqual(
      paged.map((v) => v.at - HOUR),
      Array.from({ length: seconds }, (_, i) => (seconds - 1 - i) * 1_000),
    );
  });
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

describe('the fold log spool of hop serve (ADR 0132)', () => {
  /** 1,500 links, two seconds each, alike but for a few dimensions: > 1,000 rows of each log. */
  function spreadClicks(): ClickEvent[] {
    const at = Date.UTC(2026, 5, 20, 12);
    return Array.from({ length: 4_500 }, (_, seq) => ({
      instance: 'inst1',
      seq,
      linkId: `link-${String(seq % 1_500).padStart(4, '0')}`,
      code: 'abc1234',
      at: at + (seq % 2) * 1_000 + (seq % 7),
      country: seq % 3 === 0 ? 'ZZ' : 'DE',
      device: seq % 11 === 0 ? ('bot' as const) : ('mobile' as const),
      referrer: seq % 2 === 0 ? 'news.example' : '',
      browser: 'safari' as const,
      os: 'ios' as const,
      city: seq % 5 === 0 ? 'Berlin' : '',
      language: seq % 4 === 0 ? 'fr' : '',
    }));
  }

  function logRows(dataDir: string) {
    const db = new Database(join(dataDir, 'clicks.db'), { readonly: true });
    try {
      return {
        // Each block's rows, in the order written, with its link first (ADR 0147).
        visits: db
          .prepare<[], [string, string]>('SELECT link_id, rows FROM visit_blocks ORDER BY id')
          .raw()
          .all()
          .flatMap(([linkId, rows]) =>
            (JSON.parse(rows) as unknown[][]).map((row) => [linkId, ...row]),
          ),
        clickEvents: db
          .prepare(
            'SELECT link_id, second, clicks, bot_clicks, dimensions FROM click_events ORDER BY seq',
          )
          .raw()
          .all(),
        spooled: db.prepare('SELECT count(*) FROM fold_log_spool').pluck().get(),
        spooledBuckets: db.prepare('SELECT count(*) FROM fold_log_spool_buckets').pluck().get(),
      };
    } finally {
      db.close();
    }
  }

  /** The log rows a fold of `tally` writes itself, not spooled, and the store it folded in. */
  async function writtenByFold(t: TestContext, tally: ClickTally) {
    const dir = tempDataDir(t);
    const direct = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      direct.close();
    });
    await direct.clicks.fold([tally], 50, { logVisits: true, logClickEvents: true });
    return { expected: logRows(dir), direct };
  }

  test('a spooled fold writes its visits at once and spools its click events; written out, even across a restart midway, the logs hold what the fold would have written, once', async (t) => {
    const tally = tallyOfBatch(batchOf(spreadClicks()));
    const { expected, direct } = await writtenByFold(t, tally);
    assert.ok(expected.visits.length > 1_000 && expected.clickEvents.length > 1_000);

    const spooledDir = tempDataDir(t);
    const file = join(spooledDir, 'clicks.db');
    let spooled = SqliteClickDatabase.open(file);
    t.after(() => {
      spooled.close();
    });
    await spooled.clicks.fold([tally], 50, {
      logVisits: true,
      logClickEvents: true,
      spoolLogs: true,
    });
    // Visits are written by the fold itself (ADR 0147); only click events wait.
    assert.deepEqual(logRows(spooledDir), {
      visits: expected.visits,
      clickEvents: [],
      spooled: 1,
      spooledBuckets: 1,
    });
    assert.equal(await spooled.foldLogSpool.pending(), 1);
    // What the aggregator thread reports as hop_click_log_spooled_folds.
    assert.equal(spooled.spoolWriter.pending(), 1);
    // The counters are the fold's own: counted now, whatever the spool does.
    assert.deepEqual(
      await spooled.clicks.totals(['link-0000']),
      await direct.clicks.totals(['link-0000']),
    );
    // Part of it written out, then the process dies: the rest is written after a reopen.
    assert.equal(await spooled.foldLogSpool.writeOut(), true);
    assert.equal(await spooled.foldLogSpool.writeOut(), true);
    const midway = logRows(spooledDir);
    assert.equal(midway.clickEvents.length, 2 * WRITE_OUT_ROWS);
    spooled.close();
    spooled = SqliteClickDatabase.open(file);
    let transactions = 2;
    while (await spooled.foldLogSpool.writeOut()) transactions++;
    const written = logRows(spooledDir);
    assert.deepEqual(written, { ...expected, spooled: 0, spooledBuckets: 0 });
    assert.equal(
      transactions,
      Math.ceil(expected.clickEvents.length / WRITE_OUT_ROWS),
      'WRITE_OUT_ROWS rows a transaction',
    );
    assert.equal(await spooled.foldLogSpool.pending(), 0);
    assert.equal(await spooled.foldLogSpool.writeOut(), false);
    assert.equal(spooled.spoolWriter.pending(), 0);
  });

  test('a fold that wants neither log spools nothing; one that wants only click events spools only them', async (t) => {
    const dir = tempDataDir(t);
    const store = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      store.close();
    });
    const clicks = spreadClicks();
    await store.clicks.fold([tallyOfBatch(batchOf(clicks.slice(0, 100)))], 50, {
      logVisits: false,
      logClickEvents: false,
      spoolLogs: true,
    });
    assert.equal(await store.foldLogSpool.pending(), 0);
    await store.clicks.fold([tallyOfBatch(batchOf(clicks.slice(100, 200)))], 50, {
      logVisits: false,
      logClickEvents: true,
      spoolLogs: true,
    });
    assert.equal(await store.foldLogSpool.pending(), 1);
    while (await store.foldLogSpool.writeOut()) {
      // write it all out
    }
    const rows = logRows(dir);
    assert.equal(rows.visits.length, 0);
    assert.equal(
      rows.clickEvents.reduce<number>(
        (sum, row) => sum + Number((row as unknown[])[2]) + Number((row as unknown[])[3]),
        0,
      ),
      100,
    );
  });

  test('click migrations 0011 and 0012: a fold spooled with its visits, written out midway, is written out once, its visits as blocks', async (t) => {
    const tally = tallyOfBatch(batchOf(spreadClicks()));
    const { expected } = await writtenByFold(t, tally);
    // The fold's buckets as a hop before ADR 0147 spooled them, visits and click events
    // both, and their first chunk of visits written out into the table of one row a bucket.
    const newerDir = tempDataDir(t);
    const newer = SqliteClickDatabase.open(join(newerDir, 'clicks.db'));
    t.after(() => {
      newer.close();
    });
    await newer.clicks.fold([tally], 50, {
      logVisits: false,
      logClickEvents: true,
      spoolLogs: true,
    });
    const spooled = new Database(join(newerDir, 'clicks.db'), { readonly: true });
    const buckets = spooled
      .prepare<[], Buffer>('SELECT buckets FROM fold_log_spool_buckets')
      .pluck()
      .get();
    spooled.close();
    assert.ok(buckets !== undefined);
    const planned = planLogRows(decodeTallyWire(buckets)?.buckets ?? [], {
      visits: true,
      clickEvents: false,
    });
    const firstChunk = planned.visits.slice(0, WRITE_OUT_ROWS);

    // A clicks.db before 0011 holding that: its buckets in the spool's row.
    const dir = tempDataDir(t);
    const old = new Database(join(dir, 'clicks.db'));
    applyMigrations(old, migrationsBefore(t, CLICK_MIGRATIONS, 11));
    old
      .prepare(
        `INSERT INTO fold_log_spool (recorded_at, visits, click_events, buckets, visits_done)
         VALUES (50, 1, 1, ?, ?)`,
      )
      .run(buckets, WRITE_OUT_ROWS);
    const addVisit = old.prepare(
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks) VALUES (${Array(11).fill('?').join(', ')})`,
    );
    for (const row of firstChunk) addVisit.run(...row);
    old.close();

    const migrated = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      migrated.close();
    });
    assert.deepEqual(
      logRows(dir),
      { visits: firstChunk, clickEvents: [], spooled: 1, spooledBuckets: 1 },
      'the spool and the chunk written before, as they were',
    );
    while (await migrated.foldLogSpool.writeOut());
    assert.deepEqual(logRows(dir), { ...expected, spooled: 0, spooledBuckets: 0 });
  });

  test('a spooled row that is not a tally is dropped, not retried forever', async (t) => {
    const dir = tempDataDir(t);
    const store = SqliteClickDatabase.open(join(dir, 'clicks.db'));
    t.after(() => {
      store.close();
    });
    const db = new Database(join(dir, 'clicks.db'));
    db.exec(`INSERT INTO fold_log_spool (id, recorded_at, visits, click_events) VALUES (1, 1, 1, 1);
      INSERT INTO fold_log_spool_buckets (id, buckets) VALUES (1, x'00ff')`);
    db.close();
    assert.equal(await store.foldLogSpool.writeOut(), true);
    assert.equal(await store.foldLogSpool.pending(), 0);
    assert.deepEqual(logRows(dir), { visits: [], clickEvents: [], spooled: 0, spooledBuckets: 0 });
  });
});
