import type Database from 'better-sqlite3';
import type { SequenceLease, SequenceStore } from '../../ports/sequence-store.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * Sequences in hop.db. A lease reads and advances a counter in one IMMEDIATE transaction:
 * SQLite holds its write lock, an exclusive lock on the database file, from the read to
 * the commit, so processes sharing the file on one host take turns and never see the same
 * block (SPEC §2's file lock, ADR 0046).
 */
export class SqliteSequenceStore implements SequenceStore {
  readonly #lease: Database.Transaction<
    (name: string, count: number, cap: number) => SequenceLease
  >;

  constructor(db: Database.Database) {
    const current = db
      .prepare<[string], number>('SELECT next FROM sequences WHERE name = ?')
      .pluck();
    const store = db.prepare<[string, number]>(
      `INSERT INTO sequences (name, next) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET next = excluded.next`,
    );
    this.#lease = db.transaction((name: string, count: number, cap: number) => {
      const first = current.get(name) ?? 0;
      const end = Math.max(first, Math.min(first + count, cap));
      if (end !== first) store.run(name, end);
      return { first, end };
    });
  }

  async lease(name: string, count: number, cap = Number.MAX_SAFE_INTEGER): Promise<SequenceLease> {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RangeError('A lease is of at least one value.');
    }
    return guardSqlite('lease a block of codes', () => this.#lease.immediate(name, count, cap));
  }
}
