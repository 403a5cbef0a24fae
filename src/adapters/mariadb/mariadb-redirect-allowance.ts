import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { RedirectAllowance } from '../../ports/redirect-allowance.js';
import {
  assertRedirectLimit,
  forgetRedirectsSql,
  takenRedirectsSql,
} from '../sql/redirect-allowance-sql.js';
import { guardMariaDb, isDuplicateEntry } from './mariadb-errors.js';
import { rerunOnConflict } from './mariadb-transaction.js';

/** Adds one while below the limit: InnoDB locks the row, and reads its newest count. */
const TAKE_FROM_ROW =
  'UPDATE redirect_allowances SET taken = taken + 1 WHERE link_id = ? AND taken < ?';
const FIRST_TAKE = 'INSERT INTO redirect_allowances (link_id, taken) VALUES (?, 1)';
const TAKEN = takenRedirectsSql('?');
const FORGET = forgetRedirectsSql('?');

/**
 * Redirect budgets on MariaDB (ADR 0111, ADR 0140), exact across instances by row locks.
 *
 * Not PostgreSQL's one upsert: mysql2 asks for found rows, so an INSERT … ON DUPLICATE KEY
 * UPDATE that changes nothing (a refusal) reports one row, as an insert (a first take)
 * does. Instead a take is a conditional UPDATE (one round trip, the common case): it locks
 * the row and adds one only while the newest committed count is below the limit, so takes of
 * one link run one after another on a node. No row: the first take inserts it; a take that
 * lost that race to another (duplicate key) tries the UPDATE once more, and a refusal then
 * is final (a count never goes down; a row gone meanwhile was forgotten with its link). On
 * Galera, takes of one link on two nodes at once are decided at COMMIT: the loser's
 * statement is rolled back with 1213 and taken again from the start (rerunOnConflict).
 */
export class MariaDbRedirectAllowance implements RedirectAllowance {
  readonly #pool: Pool;

  /** `pool`: the primary pool, with the statement timeout of writes. */
  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async take(linkId: string, limit: number): Promise<boolean> {
    assertRedirectLimit(limit);
    return guardMariaDb('count the redirect', async () => {
      return rerunOnConflict(() => this.#takeOnce(linkId, limit));
    });
  }

  async #takeOnce(linkId: string, limit: number): Promise<boolean> {
    if (await this.#takeFromRow(linkId, limit)) return true;
    try {
      await this.#pool.query(FIRST_TAKE, [linkId]);
      return true;
    } catch (error) {
      if (!isDuplicateEntry(error)) throw error;
    }
    return this.#takeFromRow(linkId, limit);
  }

  async #takeFromRow(linkId: string, limit: number): Promise<boolean> {
    const [result] = await this.#pool.query<ResultSetHeader>(TAKE_FROM_ROW, [linkId, limit]);
    return result.affectedRows === 1;
  }

  async taken(linkId: string): Promise<number> {
    return guardMariaDb('read the redirects taken', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & { taken: number })[]>(TAKEN, [linkId]);
      return rows[0]?.taken ?? 0;
    });
  }

  async forget(linkId: string): Promise<void> {
    await guardMariaDb('forget the redirects taken', () => this.#pool.query(FORGET, [linkId]));
  }
}
