import type pg from 'pg';
import type { CensusSlice, LinkCensus } from '../../ports/link-census.js';
import { guardPg } from './pg-errors.js';

/** The census over links, by primary key ranges (each slice one index range). */
export class PgLinkCensus implements LinkCensus {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async countSlice(nowMs: number, afterId: string | null, limit: number): Promise<CensusSlice> {
    return guardPg('count links', async () => {
      const { rows } = await this.#pool.query<{
        seen: number;
        active: number | null;
        last_id: string | null;
      }>(
        `SELECT count(*) AS seen, sum(live) AS active, max(id) AS last_id FROM (
           SELECT id, CASE WHEN state = 'active' AND (expires_at IS NULL OR expires_at > $1)
                  THEN 1 ELSE 0 END AS live
           FROM links WHERE id > $2 ORDER BY id LIMIT $3) AS slice`,
        [nowMs, afterId ?? '', limit],
      );
      const row = rows[0];
      return { seen: row?.seen ?? 0, active: row?.active ?? 0, lastId: row?.last_id ?? null };
    });
  }
}
