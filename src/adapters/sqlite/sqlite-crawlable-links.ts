import type Database from 'better-sqlite3';
import type { CrawlableLinks } from '../../ports/crawlable-links.js';
import { guardSqlite } from './sqlite-errors.js';

/** robots.txt's read (ADR 0121): once a minute per domain and instance at most. */
export class SqliteCrawlableLinks implements CrawlableLinks {
  readonly #codes: Database.Statement<[string, number, number], string>;

  constructor(db: Database.Database) {
    this.#codes = db
      .prepare<[string, number, number], string>(
        `SELECT code FROM links
          WHERE domain = ? AND crawlable = 1 AND state = 'active'
            AND (expires_at IS NULL OR expires_at > ?)
          ORDER BY id DESC LIMIT ?`,
      )
      .pluck();
  }

  async listCrawlableCodes(
    domain: string,
    nowMs: number,
    limit: number,
  ): Promise<readonly string[]> {
    return guardSqlite('read the crawlable links', () => this.#codes.all(domain, nowMs, limit));
  }
}
