import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { SequenceLease, SequenceStore } from '../../ports/sequence-store.js';
import { guardMariaDb } from './mariadb-errors.js';
import { inTransaction } from './mariadb-transaction.js';

/** Creates the counter at 0 if missing, locks its row either way, and reads it. */
const LOCK_COUNTER = `INSERT INTO sequences (name, next) VALUES (?, 0)
  ON DUPLICATE KEY UPDATE next = next RETURNING next`;
const ADVANCE_COUNTER = 'UPDATE sequences SET next = ? WHERE name = ?';

/**
 * Sequences on MariaDB. A lease locks the counter's row (the upsert that creates it takes
 * the row lock whether it inserts or not), reads it, and advances it in one transaction:
 * leases at once on one node wait for each other's commit and each read the value the
 * other left; on Galera, leases at once on two nodes are decided at COMMIT (1213), and the
 * loser's whole transaction runs again on what won (ADR 0140). No two processes ever hold
 * overlapping blocks.
 */
export class MariaDbSequenceStore implements SequenceStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async lease(name: string, count: number, cap = Number.MAX_SAFE_INTEGER): Promise<SequenceLease> {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RangeError('A lease is of at least one value.');
    }
    return guardMariaDb('lease a block of codes', () =>
      inTransaction(this.#pool, async (connection) => {
        const [rows] = await connection.query<(RowDataPacket & { next: number })[]>(LOCK_COUNTER, [
          name,
        ]);
        const first = rows[0]?.next;
        if (first === undefined) throw new Error(`sequence ${name} is missing`);
        // Never past the cap, and never back below where the counter stands.
        const end = Math.max(first, Math.min(first + count, cap));
        if (end !== first) await connection.query(ADVANCE_COUNTER, [end, name]);
        return { first, end };
      }),
    );
  }
}
