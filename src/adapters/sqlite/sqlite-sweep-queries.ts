import type Database from 'better-sqlite3';
import type { Link } from '../../domain/link.js';
import type { LinkAtVersion, SweepQueries } from '../../ports/sweep-queries.js';
import { guardSqlite } from './sqlite-errors.js';
import { fromRow, type LinkRow } from './sqlite-link-rows.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';
import { forgetRedirectsSql } from '../sql/redirect-allowance-sql.js';

/**
 * The sweeper's statements (SPEC §7); migration 0005 gives each a partial index, and each
 * WHERE repeats its index's condition word for word, as SQLite needs to use it.
 */
export class SqliteSweepQueries implements SweepQueries {
  readonly #markExpired: Database.Transaction<(nowMs: number, limit: number) => LinkRow[]>;
  readonly #reclaimable: Database.Statement<{ older_than: number; limit: number }, LinkRow>;
  readonly #deleteReclaimed: Database.Transaction<(links: readonly LinkAtVersion[]) => number>;
  readonly #purgeClaims: Database.Statement<{ older_than: number; limit: number }>;

  constructor(db: Database.Database) {
    // By rowid: the due-expiry index holds rowids, so the inner SELECT never reads the table.
    const markExpired = db.prepare<{ now: number; limit: number }, LinkRow>(
      `UPDATE links SET state = 'expired', updated_at = @now, version = version + 1
       WHERE rowid IN (
         SELECT rowid FROM links
         WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= @now
         ORDER BY expires_at LIMIT @limit)
       RETURNING ${LINK_COLUMNS}`,
    );
    this.#markExpired = db.transaction((nowMs: number, limit: number) =>
      markExpired.all({ now: nowMs, limit }),
    );
    // Never the row with the largest rowid: deleting it would let the next insert take its
    // rowid again, behind a scanCodes cursor (SqliteCodeScan), and the known-codes filter
    // would never learn of that link (a live link answered 404). It is reclaimed once a
    // newer row exists.
    this.#reclaimable = db.prepare(
      `SELECT ${LINK_COLUMNS} FROM links
       WHERE custom = 0 AND state IN ('expired', 'deleted')
         AND coalesce(deleted_at, expires_at) <= @older_than
         AND rowid < (SELECT max(rowid) FROM links)
       ORDER BY coalesce(deleted_at, expires_at) LIMIT @limit`,
    );
    // Everything that made the row reclaimable is checked again, under the write lock: the
    // version (any change since the read keeps the row), custom, state and the newest row.
    const deleteOne = db.prepare<[string, number]>(
      `DELETE FROM links
       WHERE id = ? AND version = ? AND custom = 0 AND state IN ('expired', 'deleted')
         AND rowid < (SELECT max(rowid) FROM links)`,
    );
    // A link whose row goes is gone for good: its redirect count goes with it (ADR 0111).
    const forgetRedirects = db.prepare<[string]>(forgetRedirectsSql('?'));
    this.#deleteReclaimed = db.transaction((links: readonly LinkAtVersion[]) => {
      let deleted = 0;
      for (const link of links) {
        if (deleteOne.run(link.id, link.version).changes === 0) continue;
        forgetRedirects.run(link.id);
        deleted += 1;
      }
      return deleted;
    });
    this.#purgeClaims = db.prepare(
      `DELETE FROM idempotency_records WHERE rowid IN (
         SELECT rowid FROM idempotency_records WHERE created_at < @older_than
         ORDER BY created_at LIMIT @limit)`,
    );
  }

  async markExpired(nowMs: number, limit: number): Promise<readonly Link[]> {
    return guardSqlite('mark expired links', () =>
      this.#markExpired.immediate(nowMs, limit).map(fromRow),
    );
  }

  async reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]> {
    return guardSqlite('find reclaimable links', () =>
      this.#reclaimable.all({ older_than: olderThanMs, limit }).map(fromRow),
    );
  }

  async deleteReclaimed(links: readonly LinkAtVersion[]): Promise<number> {
    if (links.length === 0) return 0;
    return guardSqlite('delete reclaimed links', () => this.#deleteReclaimed.immediate(links));
  }

  async purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite(
      'purge idempotency records',
      () => this.#purgeClaims.run({ older_than: olderThanMs, limit }).changes,
    );
  }
}
