import type Database from 'better-sqlite3';
import type { ClickBatch } from '../../domain/click-batch.js';
import type { ClickTally } from '../../domain/click-tally.js';
import { FlushTally } from '../../wire/flush-tally.js';
import { decodeTally } from '../../wire/click-event-codec.js';
import { decodeTallyWire } from '../../wire/click-tally-wire.js';
import type { ClickSink } from '../../ports/click-sink.js';
import type { ClickDelivery, ClickSource } from '../../ports/click-source.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * How much of the queue one delivery takes. `rows`: flushed batches merged into one fold at
 * most; merged rows fold together, so a link clicked every second costs one row update per
 * fold, not per second. `links`: once the rows taken name this many links, no further row
 * is taken (the last may go past it by one batch's links). A fold's memory grows with the
 * links it names (every bucket, its planned rows, the JSON they are bound as): clicks
 * spread over many links end a delivery early, clicks on a few are merged as before.
 */
export interface DeliveryBounds {
  readonly rows: number;
  /** Unbounded when absent. */
  readonly links?: number;
}

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
  readonly #bounds: DeliveryBounds;
  #flushTally: FlushTally | null = null;

  constructor(db: Database.Database, bounds: DeliveryBounds = { rows: 1 }) {
    this.#bounds = bounds;
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

  /** The oldest queued rows (one flushed batch each), within the delivery's bounds. */
  async next(): Promise<ClickDelivery | null> {
    const { rows, links = Infinity } = this.#bounds;
    const tallies: ClickTally[] = [];
    const linksSeen = links === Infinity ? null : new Set<string>();
    let lastId = -1;
    guardSqlite('read queued clicks', () => {
      for (const row of this.#oldest.iterate(rows)) {
        lastId = row.id;
        // A row that is not a tally (written by hand, or corrupt) is dropped, never retried.
        const tally = decodeRow(row.tally, row.wire);
        if (tally === null) continue;
        tallies.push(tally);
        if (linksSeen === null) continue;
        for (const bucket of tally.buckets) linksSeen.add(bucket.linkId);
        // Leaving the loop ends the statement: the rows after this one stay queued.
        if (linksSeen.size >= links) break;
      }
    });
    if (lastId === -1) return null;
    return {
      tallies,
      ack: async () => {
        guardSqlite('dequeue clicks', () => this.#deleteUpTo.run(lastId));
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
