import type Database from 'better-sqlite3';
import type { BrowserClass, DeviceClass, OsClass } from '../../domain/click-event.js';
import type { StoredVisit, VisitLog, VisitPageQuery } from '../../ports/visit-log.js';
import { rowsForPage, visitsOfRows, type VisitLogRow } from '../sql/visit-rows.js';
import { guardSqlite } from './sqlite-errors.js';

type VisitRow = [
  number,
  string,
  number,
  string | null,
  string | null,
  DeviceClass,
  OsClass,
  BrowserClass,
  string | null,
  string | null,
  number,
  number,
];

const COLUMNS =
  'id, link_id, at, country, city, device, os, browser, language, referrer_host, bot, clicks';

/** The visit log in clicks.db (click-migrations/0006), written by SqliteClickStore.fold. */
export class SqliteVisitLog implements VisitLog {
  readonly #first: Database.Statement<[string, number, number, number], VisitRow>;
  readonly #next: Database.Statement<
    [string, number, number, number, number, number, number],
    VisitRow
  >;
  readonly #forget: Database.Statement<[number, number]>;

  constructor(db: Database.Database) {
    this.#first = db
      .prepare<[string, number, number, number], VisitRow>(
        `SELECT ${COLUMNS} FROM visits WHERE link_id = ? AND at >= ? AND at < ?
         ORDER BY at DESC, id DESC LIMIT ?`,
      )
      .raw();
    this.#next = db
      .prepare<[string, number, number, number, number, number, number], VisitRow>(
        `SELECT ${COLUMNS} FROM visits WHERE link_id = ? AND at >= ? AND at < ?
           AND (at < ? OR (at = ? AND id <= ?))
         ORDER BY at DESC, id DESC LIMIT ?`,
      )
      .raw();
    // Oldest first, a bounded batch: the write lock is held briefly each time.
    this.#forget = db.prepare(
      'DELETE FROM visits WHERE id IN (SELECT id FROM visits WHERE at < ? ORDER BY at LIMIT ?)',
    );
  }

  async page(query: VisitPageQuery): Promise<readonly StoredVisit[]> {
    return guardSqlite('read visits', () => {
      const { linkId, fromMs, toMs, after, limit } = query;
      const rows = rowsForPage(after, limit);
      const found =
        after === null
          ? this.#first.all(linkId, fromMs, toMs, rows)
          : this.#next.all(linkId, fromMs, toMs, after.at, after.at, after.id, rows);
      return visitsOfRows(found.map(visitLogRowOf), after, limit);
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite('forget visits', () => this.#forget.run(olderThanMs, limit).changes);
  }

  async prepare(): Promise<void> {
    // One table: nothing to make ahead.
  }
}

function visitLogRowOf(row: VisitRow): VisitLogRow {
  const [id, linkId, at, country, city, device, os, browser, language, referrerHost, bot, clicks] =
    row;
  return {
    id,
    visit: {
      linkId,
      at,
      country,
      city,
      device,
      os,
      browser,
      language,
      referrerHost,
      bot: bot === 1,
    },
    clicks,
  };
}
