import type Database from 'better-sqlite3';
import type { ClickBatch } from '../../domain/click-batch.js';
import { decodeTally, encodeTally } from '../../domain/click-event-codec.js';
import { tallyOfBatch } from '../../domain/click-tally.js';
import type { ClickSink } from '../../ports/click-sink.js';
import type { ClickDelivery, ClickSource } from '../../ports/click-source.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * The embedded click pipeline's durable middle (SPEC §6): the flusher's sink writes each
 * batch as one row of `click_queue`, already summed per bucket with the run of event ids
 * it covers; the in-process aggregator reads the oldest rows, folds them and deletes them.
 * A second of clicks on a few links costs one small insert, not one per click.
 */
export class SqliteClickQueue implements ClickSink, ClickSource {
  readonly #insert: Database.Statement<[number, string]>;
  readonly #oldest: Database.Statement<[number], { id: number; tally: string }>;
  readonly #deleteUpTo: Database.Statement<[number]>;
  readonly #pending: Database.Statement<[], number>;
  readonly #rowsPerDelivery: number;

  /**
   * `rowsPerDelivery`: rows (flushed batches) one delivery merges. Merged rows fold
   * together: a link clicked every second costs one row update per fold, not per second.
   */
  constructor(db: Database.Database, rowsPerDelivery = 1) {
    this.#rowsPerDelivery = rowsPerDelivery;
    this.#insert = db.prepare('INSERT INTO click_queue (created_at, tally) VALUES (?, ?)');
    this.#oldest = db.prepare('SELECT id, tally FROM click_queue ORDER BY id LIMIT ?');
    this.#deleteUpTo = db.prepare('DELETE FROM click_queue WHERE id <= ?');
    this.#pending = db.prepare<[], number>('SELECT count(*) FROM click_queue').pluck();
  }

  async send(batch: ClickBatch): Promise<void> {
    if (batch.size === 0) return;
    this.queueEncoded(encodeTally(tallyOfBatch(batch)));
  }

  /** Queues a batch already summed and encoded (`encodeTally`), by `hop serve`'s thread. */
  queueEncoded(encoded: string): void {
    guardSqlite('queue clicks', () => this.#insert.run(Date.now(), encoded));
  }

  /** The oldest queued rows, `rowsPerDelivery` at most: one flushed batch each. */
  async next(): Promise<ClickDelivery | null> {
    const rows = guardSqlite('read queued clicks', () => this.#oldest.all(this.#rowsPerDelivery));
    const last = rows[rows.length - 1];
    if (last === undefined) return null;
    // A row that is not a tally (written by hand, or corrupt) is dropped, never retried.
    const tallies = rows.flatMap((row) => decodeTally(row.tally) ?? []);
    return {
      tallies,
      ack: async () => {
        guardSqlite('dequeue clicks', () => this.#deleteUpTo.run(last.id));
      },
    };
  }

  /** Batches written and not yet folded. */
  async pendingBatches(): Promise<number> {
    return guardSqlite('count queued clicks', () => this.#pending.get() ?? 0);
  }

  async close(): Promise<void> {
    // The database is the store's to close.
  }
}
