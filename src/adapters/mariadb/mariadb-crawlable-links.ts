import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { CrawlableLinks } from '../../ports/crawlable-links.js';
import { guardMariaDb } from './mariadb-errors.js';

/** The domain's links newest first, walked backwards on the (domain, id) index. */
const CRAWLABLE_CODES = `SELECT code FROM links
  WHERE domain = ? AND crawlable AND state = 'active' AND (expires_at IS NULL OR expires_at > ?)
  ORDER BY id DESC LIMIT ?`;

/** robots.txt's read (ADR 0121), on the primary: once a minute per domain and instance at most. */
export class MariaDbCrawlableLinks implements CrawlableLinks {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async listCrawlableCodes(
    domain: string,
    nowMs: number,
    limit: number,
  ): Promise<readonly string[]> {
    return guardMariaDb('read the crawlable links', async () => {
      const [rows] = await this.#pool.query<(RowDataPacket & { code: string })[]>(CRAWLABLE_CODES, [
        domain,
        nowMs,
        limit,
      ]);
      return rows.map((row) => row.code);
    });
  }
}
