import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { BrowserClass, DeviceClass, OsClass } from '../../domain/click-event.js';
import type { StoredVisit, VisitLog, VisitPageQuery } from '../../ports/visit-log.js';
import { rowsForPage, visitsOfRows } from '../sql/visit-rows.js';
import { guardMariaDb } from './mariadb-errors.js';

interface VisitRow extends RowDataPacket {
  id: number;
  link_id: string;
  at: number;
  country: string | null;
  city: string | null;
  device: DeviceClass;
  os: OsClass;
  browser: BrowserClass;
  language: string | null;
  referrer_host: string | null;
  bot: boolean;
  clicks: number;
}

const COLUMNS = `id, link_id, at, country, city, device, os, browser, language, referrer_host,
  bot, clicks`;

/**
 * The visit log on MariaDB (issue 25, ADR 0140): one table, without PostgreSQL's day
 * partitions, written by the fold (mariadb-fold-logs.ts). A link's page is read newest
 * first along `visits_link_at` (link, at, id); retention deletes old rows in batches
 * along `visits_at`, each batch a short transaction of its own (a small write set for
 * Galera), so there is nothing for `prepare` to make.
 */
export class MariaDbVisitLog implements VisitLog {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async page(query: VisitPageQuery): Promise<readonly StoredVisit[]> {
    const { linkId, fromMs, toMs, after, limit } = query;
    // (at, id) <= (after.at, after.id), spelled as a range on `at` the index serves.
    const older = after === null ? '' : 'AND at <= ? AND (at < ? OR id <= ?)';
    const values: number[] = after === null ? [] : [after.at, after.at, after.id];
    const [rows] = await guardMariaDb('read visits', () =>
      this.#pool.query<VisitRow[]>(
        `SELECT ${COLUMNS} FROM visits
         WHERE link_id = ? AND at >= ? AND at < ? ${older}
         ORDER BY at DESC, id DESC LIMIT ?`,
        [linkId, fromMs, toMs, ...values, rowsForPage(after, limit)],
      ),
    );
    return visitsOfRows(
      rows.map((row) => ({
        id: row.id,
        visit: {
          linkId: row.link_id,
          at: row.at,
          country: row.country,
          city: row.city,
          device: row.device,
          os: row.os,
          browser: row.browser,
          language: row.language,
          referrerHost: row.referrer_host,
          bot: row.bot,
        },
        clicks: row.clicks,
      })),
      after,
      limit,
    );
  }

  /** Deletes up to `limit` rows older than `olderThanMs`, oldest first. */
  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    const [result] = await guardMariaDb('forget visits', () =>
      this.#pool.query<ResultSetHeader>('DELETE FROM visits WHERE at < ? ORDER BY at, id LIMIT ?', [
        olderThanMs,
        limit,
      ]),
    );
    return result.affectedRows;
  }

  /** No partitions to make ahead: every day's visits go to the one table. */
  async prepare(): Promise<void> {
    // Nothing to do (ADR 0140).
  }
}
