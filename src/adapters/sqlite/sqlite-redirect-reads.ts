import type Database from 'better-sqlite3';
import type { RedirectTarget } from '../../domain/redirect-target.js';
import type { RedirectReads } from '../../ports/redirect-reads.js';
import { REDIRECT_COLUMNS, redirectTargetOf, type RedirectRow } from '../sql/redirect-row.js';
import { guardSqlite } from './sqlite-errors.js';

/** The redirect's read: one file, so `primary` changes nothing. */
export class SqliteRedirectReads implements RedirectReads {
  readonly #byCode: Database.Statement<[string, string], RedirectRow>;

  constructor(db: Database.Database) {
    // Positional rows, and only these columns: links_redirect (migration 0012) covers them,
    // so the read touches one index and never the table. Named, because the planner would
    // otherwise take the unique index on code and then read the table too.
    this.#byCode = db
      .prepare<[string, string], RedirectRow>(
        `SELECT ${REDIRECT_COLUMNS} FROM links INDEXED BY links_redirect WHERE domain = ? AND code = ?`,
      )
      .raw();
  }

  async findRedirectByCode(domain: string, code: string): Promise<RedirectTarget | null> {
    return this.findRedirectByCodeNow(domain, code);
  }

  /** better-sqlite3 reads synchronously: the miss is answered in its own turn (ADR 0155). */
  findRedirectByCodeNow(domain: string, code: string): RedirectTarget | null {
    return guardSqlite('read the link', () => {
      const row = this.#byCode.get(domain, code);
      return row === undefined ? null : redirectTargetOf(row);
    });
  }
}
