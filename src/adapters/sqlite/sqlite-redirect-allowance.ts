import type Database from 'better-sqlite3';
import type { RedirectAllowance } from '../../ports/redirect-allowance.js';
import {
  assertRedirectLimit,
  forgetRedirectsSql,
  takenRedirectsSql,
  takeRedirectSql,
} from '../sql/redirect-allowance-sql.js';
import { guardSqlite } from './sqlite-errors.js';

/**
 * Redirect budgets in hop.db (ADR 0111). A take is one autocommitted statement: SQLite lets
 * one writer at a time hold the file's write lock, so the count read and raised by a take
 * is never raised by another connection in between, whichever process it is in (the
 * server, the CLI beside it; the busy timeout of openDatabaseFile makes them wait their
 * turn rather than fail). Synchronous on the event loop: one short write in WAL mode.
 */
export class SqliteRedirectAllowance implements RedirectAllowance {
  readonly #take: Database.Statement<[string, number]>;
  readonly #taken: Database.Statement<[string], number>;
  readonly #forget: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    this.#take = db.prepare<[string, number]>(takeRedirectSql('?', '?'));
    this.#taken = db.prepare<[string], number>(takenRedirectsSql('?')).pluck();
    this.#forget = db.prepare<[string]>(forgetRedirectsSql('?'));
  }

  async take(linkId: string, limit: number): Promise<boolean> {
    assertRedirectLimit(limit);
    return guardSqlite('count the redirect', () => this.#take.run(linkId, limit).changes === 1);
  }

  async taken(linkId: string): Promise<number> {
    return guardSqlite('read the redirects taken', () => this.#taken.get(linkId) ?? 0);
  }

  async forget(linkId: string): Promise<void> {
    guardSqlite('forget the redirects taken', () => this.#forget.run(linkId));
  }
}
