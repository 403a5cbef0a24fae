import type Database from 'better-sqlite3';
import type { FoldLogSpool } from '../../ports/fold-log-spool.js';
import { decodeTallyWire } from '../../wire/click-tally-wire.js';
import { guardSqlite } from './sqlite-errors.js';
import {
  planLogRows,
  SqliteFoldLogs,
  type ClickEventRow,
  type PlannedLogRows,
  type VisitRow,
} from './sqlite-fold-logs.js';

/**
 * Log rows one write adds at most. A write holds clicks.db's write lock, which the
 * aggregator thread needs for every flush it queues: kept to a few milliseconds.
 */
export const WRITE_OUT_ROWS = 200;

/**
 * Some of a spooled fold's log rows, planned, to be written in one transaction: the rows
 * after `visitsDone` and `eventsDone` (the progress they were planned from), and whether
 * they are its last.
 */
export interface SpooledChunk {
  readonly spoolId: number;
  readonly recordedAt: number;
  readonly visitsDone: number;
  readonly eventsDone: number;
  readonly visits: readonly VisitRow[];
  readonly clickEvents: readonly ClickEventRow[];
  readonly last: boolean;
}

/** Writes a chunk; false when the spool has moved on since it was planned (nothing written). */
export type WriteSpooledChunk = (chunk: SpooledChunk) => Promise<boolean>;

interface SpooledHead {
  readonly id: number;
  readonly recorded_at: number;
  readonly visits: number;
  readonly click_events: number;
  readonly visits_done: number;
  readonly events_done: number;
}

const OLDEST = `SELECT id, recorded_at, visits, click_events, visits_done, events_done
  FROM fold_log_spool ORDER BY id LIMIT 1`;

/**
 * The spool of `hop serve`'s folds (ADR 0132; click-migrations/0009), planned: each call
 * plans the next WRITE_OUT_ROWS of the oldest row's visits, then of its click events,
 * exactly as the fold would have written them, and hands them to `write`. In `hop serve`
 * the planning runs in the integrations thread, at the lowest CPU priority, and the write
 * in the aggregator thread, which holds clicks.db's write lock anyway: a lock held by a
 * thread that the CPU may leave waiting for seconds would stall every flush behind it. A
 * row's plan is kept until it is done; a restart plans it again, the same.
 */
export class SqliteFoldLogSpool implements FoldLogSpool {
  readonly #oldest: Database.Statement<[], SpooledHead>;
  readonly #buckets: Database.Statement<[number], Buffer>;
  readonly #count: Database.Statement<[], number>;
  readonly #write: WriteSpooledChunk;
  #planned: { readonly id: number; readonly rows: PlannedLogRows } | null = null;

  /** `write`: where chunks are written (a SqliteSpoolWriter, here or in another thread). */
  constructor(db: Database.Database, write: WriteSpooledChunk) {
    this.#oldest = db.prepare(OLDEST);
    this.#buckets = db
      .prepare<[number], Buffer>('SELECT buckets FROM fold_log_spool_buckets WHERE id = ?')
      .pluck();
    this.#count = db.prepare<[], number>('SELECT count(*) FROM fold_log_spool').pluck();
    this.#write = write;
  }

  async writeOut(): Promise<boolean> {
    const chunk = guardSqlite('plan spooled visits and click events', () => this.#nextChunk());
    if (chunk === null) return false;
    // Written, the row is done with its last chunk; refused, it moved on: plan it afresh.
    const written = await this.#write(chunk);
    if (!written || chunk.last) this.#planned = null;
    return true;
  }

  async pending(): Promise<number> {
    return guardSqlite('count spooled visits and click events', () => this.#count.get() ?? 0);
  }

  #nextChunk(): SpooledChunk | null {
    const head = this.#oldest.get();
    if (head === undefined) {
      this.#planned = null;
      return null;
    }
    const rows = this.#plannedFor(head);
    const visits = rows.visits.slice(head.visits_done, head.visits_done + WRITE_OUT_ROWS);
    const clickEvents =
      visits.length > 0
        ? []
        : rows.clickEvents.slice(head.events_done, head.events_done + WRITE_OUT_ROWS);
    return {
      spoolId: head.id,
      recordedAt: head.recorded_at,
      visitsDone: head.visits_done,
      eventsDone: head.events_done,
      visits,
      clickEvents,
      last:
        head.visits_done + visits.length >= rows.visits.length &&
        head.events_done + clickEvents.length >= rows.clickEvents.length,
    };
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

/**
 * Writes planned chunks (see SqliteFoldLogSpool): the rows and the progress past them, or
 * the row's deletion with its last ones, in one transaction, only if the progress is still
 * the one they were planned from. Nothing is written twice, even by two writers at once.
 */
export class SqliteSpoolWriter {
  readonly #db: Database.Database;
  readonly #logs: SqliteFoldLogs;
  readonly #head: Database.Statement<[number], { visits_done: number; events_done: number }>;
  readonly #progress: Database.Statement<[number, number, number]>;
  readonly #delete: Database.Statement<[number]>;
  readonly #deleteBuckets: Database.Statement<[number]>;
  readonly #count: Database.Statement<[], number>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#logs = new SqliteFoldLogs(db);
    this.#count = db.prepare<[], number>('SELECT count(*) FROM fold_log_spool').pluck();
    this.#head = db.prepare('SELECT visits_done, events_done FROM fold_log_spool WHERE id = ?');
    this.#progress = db.prepare(
      'UPDATE fold_log_spool SET visits_done = ?, events_done = ? WHERE id = ?',
    );
    this.#delete = db.prepare('DELETE FROM fold_log_spool WHERE id = ?');
    this.#deleteBuckets = db.prepare('DELETE FROM fold_log_spool_buckets WHERE id = ?');
  }

  /** Rows in the spool (a read: for the aggregator thread's reports). */
  pending(): number {
    return this.#count.get() ?? 0;
  }

  write(chunk: SpooledChunk): boolean {
    return guardSqlite('write out spooled visits and click events', () =>
      this.#db
        .transaction(() => {
          const now = this.#head.get(chunk.spoolId);
          if (
            now === undefined ||
            now.visits_done !== chunk.visitsDone ||
            now.events_done !== chunk.eventsDone
          ) {
            return false;
          }
          this.#logs.addVisits(chunk.visits);
          this.#logs.addClickEvents(chunk.clickEvents, chunk.recordedAt);
          if (chunk.last) {
            this.#delete.run(chunk.spoolId);
            this.#deleteBuckets.run(chunk.spoolId);
          } else {
            this.#progress.run(
              chunk.visitsDone + chunk.visits.length,
              chunk.eventsDone + chunk.clickEvents.length,
              chunk.spoolId,
            );
          }
          return true;
        })
        .immediate(),
    );
  }
}
