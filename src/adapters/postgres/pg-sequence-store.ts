import type pg from 'pg';
import type { SequenceLease, SequenceStore } from '../../ports/sequence-store.js';
import { guardPg } from './pg-errors.js';

/**
 * Sequences on PostgreSQL. A lease locks the counter's row (FOR UPDATE) and advances it
 * in the same statement: instances leasing at once wait for each other's commit and each
 * read the value the other left, so no two ever hold overlapping blocks.
 */
export class PgSequenceStore implements SequenceStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async lease(name: string, count: number, cap = Number.MAX_SAFE_INTEGER): Promise<SequenceLease> {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RangeError('A lease is of at least one value.');
    }
    return guardPg('lease a block of codes', async () => {
      await this.#pool.query(
        'INSERT INTO sequences (name, next) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING',
        [name],
      );
      const { rows } = await this.#pool.query<{ first: number; end: number }>(
        `WITH current AS (SELECT next FROM sequences WHERE name = $1 FOR UPDATE)
         UPDATE sequences AS s SET next = greatest(c.next, least(c.next + $2, $3::bigint))
         FROM current AS c WHERE s.name = $1
         RETURNING c.next AS first, s.next AS end`,
        [name, count, cap],
      );
      const row = rows[0];
      if (row === undefined) throw new Error(`sequence ${name} is missing`);
      return { first: row.first, end: row.end };
    });
  }
}
