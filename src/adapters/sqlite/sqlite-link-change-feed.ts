import type Database from 'better-sqlite3';
import type { LinkChange, LinkChangeFeed } from '../../ports/link-change-feed.js';
import { guardSqlite } from './sqlite-errors.js';

interface ChangeRow {
  seq: number;
  code: string;
  version: number;
}

/** `link_changes` (migration 0007), filled by a trigger on every version change of a link. */
export class SqliteLinkChangeFeed implements LinkChangeFeed {
  readonly #latest: Database.Statement<[], { seq: number | null }>;
  readonly #after: Database.Statement<[number, number], ChangeRow>;
  readonly #forget: Database.Statement<[number, number]>;

  constructor(db: Database.Database) {
    // sqlite_sequence holds the highest seq ever used, even when every row is deleted.
    this.#latest = db.prepare(
      "SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'link_changes') AS seq",
    );
    this.#after = db.prepare(
      'SELECT seq, code, version FROM link_changes WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    this.#forget = db.prepare(
      `DELETE FROM link_changes WHERE seq IN (
         SELECT seq FROM link_changes WHERE changed_at < ? ORDER BY changed_at LIMIT ?)`,
    );
  }

  async latest(): Promise<number> {
    return guardSqlite('read the link changes', () => this.#latest.get()?.seq ?? 0);
  }

  async changesAfter(
    cursor: number,
    limit: number,
  ): Promise<{ changes: readonly LinkChange[]; cursor: number }> {
    return guardSqlite('read the link changes', () => {
      const rows = this.#after.all(cursor, limit);
      const changes = rows.map((row) => ({ code: row.code, version: row.version }));
      return { changes, cursor: rows.at(-1)?.seq ?? cursor };
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite('forget old link changes', () => {
      return this.#forget.run(olderThanMs, limit).changes;
    });
  }
}
