import type Database from 'better-sqlite3';
import { openDatabaseFile } from './open-database-file.js';
import { SqliteClickQueue, type DeliveryBounds } from './sqlite-click-queue.js';
import { SqliteClickStore } from './sqlite-click-store.js';
import { SqliteClickEventLog } from './sqlite-click-event-log.js';
import { SqliteClickEventDemand } from './sqlite-click-event-demand.js';
import {
  SqliteFoldLogSpool,
  SqliteSpoolWriter,
  type WriteSpooledChunk,
} from './sqlite-fold-log-spool.js';
import { SqliteVisitLog } from './sqlite-visit-log.js';
import { applyMigrations, CLICK_MIGRATIONS } from './sqlite-migrations.js';

/**
 * clicks.db, the embedded click queue and aggregates, apart from hop.db: a fold may write
 * thousands of rows in one transaction, and in hop.db that transaction would hold the one
 * write lock that link creates wait for (synchronously, on the event loop that answers
 * redirects). In a file of its own it holds only its own.
 */
export class SqliteClickDatabase {
  readonly clicks: SqliteClickStore;
  readonly clickQueue: SqliteClickQueue;
  /** Issue 23 (ADR 0125): the visit log and the per-second click events the fold writes. */
  readonly visits: SqliteVisitLog;
  readonly clickEvents: SqliteClickEventLog;
  /** Until when the fold writes click events (ADR 0131). */
  readonly clickEventDemand: SqliteClickEventDemand;
  /** `hop serve`'s folds' visits and click events, to be written out (ADR 0132). */
  readonly foldLogSpool: SqliteFoldLogSpool;
  /** Writes chunks the integrations thread planned (the aggregator thread's part). */
  readonly spoolWriter: SqliteSpoolWriter;
  readonly #db: Database.Database;

  private constructor(db: Database.Database, deliveries: DeliveryBounds) {
    this.#db = db;
    this.clicks = new SqliteClickStore(db);
    this.clickQueue = new SqliteClickQueue(db, deliveries);
    this.visits = new SqliteVisitLog(db);
    this.clickEvents = new SqliteClickEventLog(db);
    this.clickEventDemand = new SqliteClickEventDemand(db);
    this.spoolWriter = new SqliteSpoolWriter(db);
    const writer = this.spoolWriter;
    this.foldLogSpool = new SqliteFoldLogSpool(db, (chunk) => Promise.resolve(writer.write(chunk)));
  }

  /** The spool, planned here and written by `write` (`hop serve`: the aggregator thread). */
  foldLogSpoolWritingThrough(write: WriteSpooledChunk): SqliteFoldLogSpool {
    return new SqliteFoldLogSpool(this.#db, write);
  }

  /** `deliveries`: how much of the queue one aggregator delivery takes (default one row). */
  static open(file: string, deliveries: DeliveryBounds = { rows: 1 }): SqliteClickDatabase {
    const db = openDatabaseFile(file);
    applyMigrations(db, CLICK_MIGRATIONS);
    return new SqliteClickDatabase(db, deliveries);
  }

  migrate(): number[] {
    return applyMigrations(this.#db, CLICK_MIGRATIONS);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
