import type Database from 'better-sqlite3';
import type { ClickEvent } from '../../domain/click-event.js';
import { decodeBatch, encodeBatch } from '../../domain/click-event-codec.js';
import type { ClickSink } from '../../ports/click-sink.js';
import type { ClickDelivery, ClickSource } from '../../ports/click-source.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * The embedded click pipeline's durable middle (SPEC §6): the flusher's sink writes each
 * batch as one row of `click_queue`; the in-process aggregator reads the oldest row, folds
 * it and deletes it. One row per batch, column-encoded: a second of clicks costs one
 * insert, not one per click.
 */
export class SqliteClickQueue implements ClickSink, ClickSource {
  readonly #insert: Database.Statement<[number, number, string]>;
  readonly #oldest: Database.Statement<[], { id: number; events: string }>;
  readonly #delete: Database.Statement<[number]>;
  readonly #pending: Database.Statement<[], number>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      'INSERT INTO click_queue (created_at, oldest_at, events) VALUES (?, ?, ?)',
    );
    this.#oldest = db.prepare('SELECT id, events FROM click_queue ORDER BY id LIMIT 1');
    this.#delete = db.prepare('DELETE FROM click_queue WHERE id = ?');
    this.#pending = db.prepare<[], number>('SELECT count(*) FROM click_queue').pluck();
  }

  async send(events: readonly ClickEvent[]): Promise<void> {
    if (events.length === 0) return;
    let oldest = Infinity;
    for (const event of events) if (event.at < oldest) oldest = event.at;
    const encoded = encodeBatch(events);
    guardSqlite('queue clicks', () => this.#insert.run(Date.now(), oldest, encoded));
  }

  /** One queued batch (flushes are at most one batch each), whatever `maxEvents` says. */
  async next(): Promise<ClickDelivery | null> {
    const row = guardSqlite('read queued clicks', () => this.#oldest.get());
    if (row === undefined) return null;
    const events = decodeBatch(row.events);
    return {
      events,
      ack: async () => {
        guardSqlite('dequeue clicks', () => this.#delete.run(row.id));
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
