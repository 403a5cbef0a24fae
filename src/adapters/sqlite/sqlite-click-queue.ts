import type Database from 'better-sqlite3';
import type { ClickBatch } from '../../domain/click-batch.js';
import { FlushTally } from '../../wire/flush-tally.js';
import { decodeTally } from '../../wire/click-event-codec.js';
import { decodeTallyWire } from '../../wire/click-tally-wire.js';
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
  readonly #insert: Database.Statement<[number, Uint8Array]>;
  readonly #oldest: Database.Statement<
    [number],
    { id: number; tally: string; wire: Uint8Array | null }
  >;
  readonly #deleteUpTo: Database.Statement<[number]>;
  readonly #pending: Database.Statement<[], number>;
  readonly #rowsPerDelivery: number;
  #flushTally: FlushTally | null = null;

  /**
   * `rowsPerDelivery`: rows (flushed batches) one delivery merges. Merged rows fold
   * together: a link clicked every second costs one row update per fold, not per second.
   */
  constructor(db: Database.Database, rowsPerDelivery = 1) {
    this.#rowsPerDelivery = rowsPerDelivery;
    this.#insert = db.prepare(
      "INSERT INTO click_queue (created_at, tally, wire) VALUES (?, '', ?)",
    );
    this.#oldest = db.prepare('SELECT id, tally, wire FROM click_queue ORDER BY id LIMIT ?');
    this.#deleteUpTo = db.prepare('DELETE FROM click_queue WHERE id <= ?');
    this.#pending = db.prepare<[], number>('SELECT count(*) FROM click_queue').pluck();
  }

  async send(batch: ClickBatch): Promise<void> {
    if (batch.size === 0) return;
    this.queueTally((this.#flushTally ??= new FlushTally()).encode(batch));
  }

  /**
   * Queues a batch already summed, in the wire format (`FlushTally`): `hop serve`'s thread
   * stores what the event loop sends it as it is, without decoding it first.
   */
  queueTally(wire: ArrayBuffer): void {
    guardSqlite('queue clicks', () => this.#insert.run(Date.now(), new Uint8Array(wire)));
  }

  /** The oldest queued rows, `rowsPerDelivery` at most: one flushed batch each. */
  async next(): Promise<ClickDelivery | null> {
    const rows = guardSqlite('read queued clicks', () => this.#oldest.all(this.#rowsPerDelivery));
    const last = rows[rows.length - 1];
    if (last === undefined) return null;
    // A row that is not a tally (written by hand, or corrupt) is dropped, never retried.
    const tallies = rows.flatMap((row) => decodeRow(row.tally, row.wire) ?? []);
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

/** A queue row's tally: bytes in `wire`, or (rows written before there were bytes) JSON. */
function decodeRow(tally: string, wire: Uint8Array | null) {
  return wire === null ? decodeTally(tally) : decodeTallyWire(wire);
}
