import type Database from 'better-sqlite3';
import { NO_LANGUAGE } from '../../domain/accept-language.js';
import type { ClickBucket } from '../../domain/click-fold.js';
import {
  clickSecondsOf,
  dimensionsOf,
  visitsOf,
  type ClickSecond,
} from '../../domain/click-visits.js';
import type { FoldLogSpool } from '../../ports/fold-log-spool.js';
import { decodeTallyWire, TallyWireWriter } from '../../wire/click-tally-wire.js';
import type { FoldLogChoice } from '../sql/fold-log-choice.js';
import { guardSqlite } from './sqlite-errors.js';

type VisitRow = [
  linkId: string,
  at: number,
  country: string | null,
  city: string | null,
  device: string,
  os: string,
  browser: string,
  language: string | null,
  referrerHost: string | null,
  bot: number,
  clicks: number,
];

/**
 * Log rows a write-out transaction adds at most. It holds clicks.db's write lock at the
 * lowest CPU priority: while the CPU is saturated that thread gets ~1.5% of it, and the
 * aggregator thread, which queues every flush in clicks.db, waits for the lock ~65 times
 * the transaction's CPU time. A thousand rows (~15 ms) held it for a second and more; the
 * flushes waited, and the click buffer filled and dropped clicks (the integrations bench).
 */
export const WRITE_OUT_ROWS = 200;
/** What the spool's wire tallies name as their instance (the format wants one). */
const SPOOL_INSTANCE = 'fold-log-spool';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), inside its transaction:
 * when the visit log is on, one row per counted bucket holding its clicks' visits (ADR
 * 0130), and, unless nobody reads them (ADR 0131), one click event per link and second.
 * Or, in `hop serve`, those buckets spooled, for the integrations thread to write out
 * (ADR 0132).
 *
 * A row a statement, bound, and the visits in the order of their link's index (ADR 0131):
 * a fold's rows touch that index once per link instead of at random, and binding skips
 * parsing eleven JSON paths a row. Measured on this VM over 60,000-row folds, 10.8 µs a
 * visit row became 5.9.
 */
export class SqliteFoldLogs {
  readonly #addVisit: Database.Statement<VisitRow>;
  readonly #addClickEvent: Database.Statement<[string, number, number, number, string, number]>;
  readonly #addSpooled: Database.Statement<[number, number, number, Buffer]>;
  readonly #wire = new TallyWireWriter();

  constructor(db: Database.Database) {
    this.#addVisit = db.prepare(
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#addClickEvent = db.prepare(
      `INSERT INTO click_events (link_id, second, clicks, bot_clicks, dimensions, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#addSpooled = db.prepare(
      `INSERT INTO fold_log_spool (recorded_at, visits, click_events, buckets)
       VALUES (?, ?, ?, ?)`,
    );
  }

  /** Call inside the fold's transaction, with the buckets it counted. */
  write(counted: readonly ClickBucket[], logs: FoldLogChoice): void {
    if (counted.length === 0 || (!logs.visits && !logs.clickEvents)) return;
    if (logs.spool) {
      this.#spool(counted, logs);
      return;
    }
    const planned = planLogRows(counted, logs);
    this.addVisits(planned.visits);
    this.addClickEvents(planned.clickEvents, logs.nowMs);
  }

  addVisits(rows: readonly VisitRow[]): void {
    for (const row of rows) this.#addVisit.run(...row);
  }

  addClickEvents(seconds: readonly ClickSecond[], recordedAt: number): void {
    for (const s of seconds) {
      this.#addClickEvent.run(
        s.linkId,
        s.second,
        s.clicks,
        s.botClicks,
        JSON.stringify(dimensionsOf(s)),
        recordedAt,
      );
    }
  }

  /**
   * The buckets as one wire tally in one row (ADR 0132): a statement per fold instead of
   * one or two per bucket, and no sorting or grouping here; the write-out does that.
   */
  #spool(counted: readonly ClickBucket[], logs: FoldLogChoice): void {
    // The format holds a run of ids, one per click: the spool's are 0…clicks-1.
    let clicks = 0;
    for (const bucket of counted) clicks += bucket.clicks;
    this.#wire.begin(SPOOL_INSTANCE, 0, clicks - 1, logs.nowMs, logs.nowMs);
    for (const bucket of counted) {
      this.#wire.bucket(
        bucket.linkId,
        bucket.second ?? bucket.hour,
        bucket.country,
        bucket.device,
        bucket.referrer,
        bucket.browser,
        bucket.os,
        bucket.city,
        bucket.language ?? NO_LANGUAGE,
        bucket.clicks,
      );
    }
    this.#addSpooled.run(
      logs.nowMs,
      logs.visits ? 1 : 0,
      logs.clickEvents ? 1 : 0,
      Buffer.from(this.#wire.finish()),
    );
  }
}

/** A fold's log rows, in the order written: the same every time for the same buckets. */
interface PlannedLogRows {
  readonly visits: readonly VisitRow[];
  readonly clickEvents: readonly ClickSecond[];
}

function planLogRows(
  counted: readonly ClickBucket[],
  logs: { readonly visits: boolean; readonly clickEvents: boolean },
): PlannedLogRows {
  const visits: VisitRow[] = logs.visits
    ? visitsOf(counted).map(({ visit: v, clicks }) => [
        v.linkId,
        v.at,
        v.country,
        v.city,
        v.device,
        v.os,
        v.browser,
        v.language,
        v.referrerHost,
        v.bot ? 1 : 0,
        clicks,
      ])
    : [];
  visits.sort(byLinkThenTime);
  return { visits, clickEvents: logs.clickEvents ? clickSecondsOf(counted) : [] };
}

/** A spooled row's head: which logs it is for and how far its write-out got. */
interface SpooledHead {
  readonly id: number;
  readonly recorded_at: number;
  readonly visits: number;
  readonly click_events: number;
  readonly visits_done: number;
  readonly events_done: number;
}

/**
 * The spool of `hop serve`'s folds (ADR 0132; click-migrations/0009). Each transaction
 * writes up to WRITE_OUT_ROWS of the oldest row's visits, then of its click events, exactly
 * as the fold would have written them, and records how far it got; the last one deletes the
 * row. A row's log rows are planned once and kept until it is done (a restart plans them
 * again, the same).
 */
export class SqliteFoldLogSpool implements FoldLogSpool {
  readonly #db: Database.Database;
  readonly #logs: SqliteFoldLogs;
  readonly #oldest: Database.Statement<[], SpooledHead>;
  readonly #buckets: Database.Statement<[number], Buffer>;
  readonly #progress: Database.Statement<[number, number, number]>;
  readonly #delete: Database.Statement<[number]>;
  readonly #count: Database.Statement<[], number>;
  #planned: { readonly id: number; readonly rows: PlannedLogRows } | null = null;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#logs = new SqliteFoldLogs(db);
    this.#oldest = db.prepare(
      `SELECT id, recorded_at, visits, click_events, visits_done, events_done
       FROM fold_log_spool ORDER BY id LIMIT 1`,
    );
    this.#buckets = db
      .prepare<[number], Buffer>('SELECT buckets FROM fold_log_spool WHERE id = ?')
      .pluck();
    this.#progress = db.prepare(
      'UPDATE fold_log_spool SET visits_done = ?, events_done = ? WHERE id = ?',
    );
    this.#delete = db.prepare('DELETE FROM fold_log_spool WHERE id = ?');
    this.#count = db.prepare<[], number>('SELECT count(*) FROM fold_log_spool').pluck();
  }

  async writeOut(): Promise<boolean> {
    return guardSqlite('write out spooled visits and click events', () => {
      // Planned before the write transaction, with no lock held: decoding and planning a
      // fold's rows is the long part.
      const head = this.#oldest.get();
      if (head === undefined) {
        this.#planned = null;
        return false;
      }
      const rows = this.#plannedFor(head);
      return this.#db.transaction(() => this.#writeOutSome(head, rows)).immediate();
    });
  }

  async pending(): Promise<number> {
    return guardSqlite('count spooled visits and click events', () => this.#count.get() ?? 0);
  }

  #writeOutSome(head: SpooledHead, rows: PlannedLogRows): boolean {
    // One hop serve writes a data dir's spool; if another got here first (two at once for a
    // moment, as one stops and the next starts), this looks again rather than write twice.
    const now = this.#oldest.get();
    if (
      now === undefined ||
      now.id !== head.id ||
      now.visits_done !== head.visits_done ||
      now.events_done !== head.events_done
    ) {
      return now !== undefined;
    }
    let visitsDone = head.visits_done;
    let eventsDone = head.events_done;
    if (visitsDone < rows.visits.length) {
      const next = rows.visits.slice(visitsDone, visitsDone + WRITE_OUT_ROWS);
      this.#logs.addVisits(next);
      visitsDone += next.length;
    } else if (eventsDone < rows.clickEvents.length) {
      const next = rows.clickEvents.slice(eventsDone, eventsDone + WRITE_OUT_ROWS);
      this.#logs.addClickEvents(next, head.recorded_at);
      eventsDone += next.length;
    }
    if (visitsDone >= rows.visits.length && eventsDone >= rows.clickEvents.length) {
      this.#delete.run(head.id);
      this.#planned = null;
    } else {
      this.#progress.run(visitsDone, eventsDone, head.id);
    }
    return true;
  }

  #plannedFor(head: SpooledHead): PlannedLogRows {
    if (this.#planned?.id === head.id) return this.#planned.rows;
    // Written by this hop's fold; a row that is not a tally plans no rows, and is dropped
    // (it can never become one).
    const tally = decodeTallyWire(this.#buckets.get(head.id) ?? new Uint8Array());
    const rows = planLogRows(tally?.buckets ?? [], {
      visits: head.visits === 1,
      clickEvents: head.click_events === 1,
    });
    this.#planned = { id: head.id, rows };
    return rows;
  }
}

/** The visits index's order (link, then time): see click-migrations/0006. */
function byLinkThenTime(a: VisitRow, b: VisitRow): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return b[1] - a[1];
}
