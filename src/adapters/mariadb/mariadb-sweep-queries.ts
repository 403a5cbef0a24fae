import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Link } from '../../domain/link.js';
import type { LinkAtVersion, SweepQueries } from '../../ports/sweep-queries.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';
import { guardMariaDb } from './mariadb-errors.js';
import { fromRow, type LinkRow } from './mariadb-link-rows.js';
import { inTransaction } from './mariadb-transaction.js';

/** Due links, locked; one a sweeper on another connection of this node holds is left to it. */
const DUE_LINKS = `SELECT ${LINK_COLUMNS} FROM links
  WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= ?
  ORDER BY expires_at LIMIT ? FOR UPDATE SKIP LOCKED`;
const MARK_EXPIRED = `UPDATE links SET state = 'expired', updated_at = ?, version = version + 1
  WHERE id IN (?)`;

const RECLAIMABLE_LINKS = `SELECT ${LINK_COLUMNS} FROM links
  WHERE NOT custom AND state IN ('expired', 'deleted') AND COALESCE(deleted_at, expires_at) <= ?
  ORDER BY COALESCE(deleted_at, expires_at) LIMIT ?`;
/** `id IN` finds the rows by primary key; the pairs then hold each to the version read. */
const DELETE_RECLAIMED = `DELETE FROM links
  WHERE id IN (?) AND (id, version) IN (?) AND NOT custom AND state IN ('expired', 'deleted')
  RETURNING id`;
const FORGET_REDIRECTS = 'DELETE FROM redirect_allowances WHERE link_id IN (?)';

const PURGE_IDEMPOTENCY = `DELETE FROM idempotency_records WHERE created_at < ?
  ORDER BY created_at LIMIT ?`;

/**
 * The sweeper's statements (SPEC §7), on the primary. MariaDB has no UPDATE … RETURNING:
 * markExpired locks the due rows, updates them and returns them as the update left them,
 * in one transaction. On Galera, sweepers on two nodes that chose the same rows are decided
 * at COMMIT (1213), and the loser's transaction runs again on what won (ADR 0140).
 */
export class MariaDbSweepQueries implements SweepQueries {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async markExpired(nowMs: number, limit: number): Promise<readonly Link[]> {
    return guardMariaDb('mark expired links', () =>
      inTransaction(this.#pool, async (connection) => {
        const [due] = await connection.query<LinkRow[]>(DUE_LINKS, [nowMs, limit]);
        if (due.length === 0) return [];
        // Locked since they were read: nothing changed them in between.
        await connection.query(MARK_EXPIRED, [nowMs, due.map((row) => row.id)]);
        return due.map((row): Link => ({
          ...fromRow(row),
          state: 'expired',
          updatedAt: nowMs,
          version: row.version + 1,
        }));
      }),
    );
  }

  async reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]> {
    return guardMariaDb('find reclaimable links', async () => {
      const [rows] = await this.#pool.query<LinkRow[]>(RECLAIMABLE_LINKS, [olderThanMs, limit]);
      return rows.map(fromRow);
    });
  }

  /**
   * The rows and their redirect counts (ADR 0111) go together. The code scan needs no row
   * kept back, as SQLite's does: AUTO_INCREMENT never hands out a seq again, even once the
   * newest rows are gone (InnoDB keeps its counter across restarts).
   */
  async deleteReclaimed(links: readonly LinkAtVersion[]): Promise<number> {
    if (links.length === 0) return 0;
    return guardMariaDb('delete reclaimed links', () =>
      inTransaction(this.#pool, async (connection) => {
        const [gone] = await connection.query<(RowDataPacket & { id: string })[]>(
          DELETE_RECLAIMED,
          [links.map((link) => link.id), links.map((link) => [link.id, link.version])],
        );
        if (gone.length > 0) {
          await connection.query(FORGET_REDIRECTS, [gone.map((row) => row.id)]);
        }
        return gone.length;
      }),
    );
  }

  async purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number> {
    return guardMariaDb('purge idempotency records', async () => {
      const [result] = await this.#pool.query<ResultSetHeader>(PURGE_IDEMPOTENCY, [
        olderThanMs,
        limit,
      ]);
      return result.affectedRows;
    });
  }
}
