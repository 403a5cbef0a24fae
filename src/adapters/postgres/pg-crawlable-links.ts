import type pg from 'pg';
import type { CrawlableLinks } from '../../ports/crawlable-links.js';
import { guardPg } from './pg-errors.js';

/** robots.txt's read (ADR 0121), on the primary: once a minute per domain and instance at most. */
export class PgCrawlableLinks implements CrawlableLinks {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async listCrawlableCodes(
    domain: string,
    nowMs: number,
    limit: number,
  ): Promise<readonly string[]> {
    return guardPg('read the crawlable links', async () => {
      const { rows } = await this.#pool.query<{ code: string }>(
        `SELECT code FROM links
          WHERE domain = $1 AND crawlable AND state = 'active'
            AND (expires_at IS NULL OR expires_at > $2)
          ORDER BY id DESC LIMIT $3`,
        [domain, nowMs, limit],
      );
      return rows.map((row) => row.code);
    });
  }
}
