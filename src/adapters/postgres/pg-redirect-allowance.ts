import type pg from 'pg';
import type { RedirectAllowance } from '../../ports/redirect-allowance.js';
import {
  assertRedirectLimit,
  forgetRedirectsSql,
  takenRedirectsSql,
  takeRedirectSql,
} from '../sql/redirect-allowance-sql.js';
import { guardPg } from './pg-errors.js';

const TAKE = takeRedirectSql('$1', '$2');
const TAKEN = takenRedirectsSql('$1');
const FORGET = forgetRedirectsSql('$1');

/**
 * Redirect budgets on PostgreSQL (ADR 0111): one round trip per take, on the primary.
 *
 * No lost update, no count past the limit: INSERT … ON CONFLICT DO UPDATE is atomic per
 * row. A take that meets the row locks it (as SELECT … FOR UPDATE would) and, under READ
 * COMMITTED, evaluates `taken < limit` and `taken + 1` against the newest committed version,
 * waiting for any other take holding the lock to commit first. Takes of one link thus run
 * one after another, each seeing the last one's count, on every instance. Two first takes
 * at once: one inserts; the other waits on its speculative insertion, then meets the row
 * and updates it instead.
 */
export class PgRedirectAllowance implements RedirectAllowance {
  readonly #pool: pg.Pool;

  /** `pool`: the primary (never a replica), with the statement timeout of writes. */
  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async take(linkId: string, limit: number): Promise<boolean> {
    assertRedirectLimit(limit);
    return guardPg('count the redirect', async () => {
      const result = await this.#pool.query(TAKE, [linkId, limit]);
      return result.rowCount === 1;
    });
  }

  async taken(linkId: string): Promise<number> {
    return guardPg('read the redirects taken', async () => {
      const { rows } = await this.#pool.query<{ taken: number }>(TAKEN, [linkId]);
      return rows[0]?.taken ?? 0;
    });
  }

  async forget(linkId: string): Promise<void> {
    await guardPg('forget the redirects taken', () => this.#pool.query(FORGET, [linkId]));
  }
}
