import type pg from 'pg';
import type { Link } from '../../domain/link.js';
import type { LinkAtVersion, SweepQueries } from '../../ports/sweep-queries.js';
import { guardPg } from './pg-errors.js';
import { fromRow, type LinkRow } from './pg-link-rows.js';
import { LINK_COLUMNS } from '../sql/link-sql.js';

/** The sweeper's statements (SPEC §7), on the primary. */
export class PgSweepQueries implements SweepQueries {
  readonly #primary: pg.Pool;

  constructor(primary: pg.Pool) {
    this.#primary = primary;
  }

  async markExpired(nowMs: number, limit: number): Promise<readonly Link[]> {
    return guardPg('mark expired links', async () => {
      // A CTE holding FOR UPDATE runs once (an IN subquery may be rescanned, and its LIMIT
      // then caps each scan, not the update). The outer WHERE repeats the conditions: a row
      // changed while we waited for its lock is checked again as it now is.
      const { rows } = await this.#primary.query<LinkRow>(
        `WITH due AS (
           SELECT id FROM links
           WHERE state = 'active' AND expires_at IS NOT NULL AND expires_at <= $1
           ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE links AS l SET state = 'expired', updated_at = $1, version = l.version + 1
         FROM due WHERE l.id = due.id AND l.state = 'active' AND l.expires_at <= $1
         RETURNING ${LINK_COLUMNS.split(', ')
           .map((c) => `l.${c}`)
           .join(', ')}`,
        [nowMs, limit],
      );
      return rows.map(fromRow);
    });
  }

  async reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]> {
    return guardPg('find reclaimable links', async () => {
      const { rows } = await this.#primary.query<LinkRow>(
        `SELECT ${LINK_COLUMNS} FROM links
         WHERE NOT custom AND state IN ('expired', 'deleted')
           AND coalesce(deleted_at, expires_at) <= $1
         ORDER BY coalesce(deleted_at, expires_at) LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map(fromRow);
    });
  }

  async deleteReclaimed(links: readonly LinkAtVersion[]): Promise<number> {
    if (links.length === 0) return 0;
    return guardPg('delete reclaimed links', async () => {
      // A link whose row goes is gone for good: its redirect count goes with it (ADR 0111).
      const { rows } = await this.#primary.query<{ deleted: number }>(
        `WITH gone AS (
           DELETE FROM links AS l USING unnest($1::text[], $2::integer[]) AS r(id, version)
           WHERE l.id = r.id AND l.version = r.version
             AND NOT l.custom AND l.state IN ('expired', 'deleted')
           RETURNING l.id),
         forgotten AS (
           DELETE FROM redirect_allowances WHERE link_id IN (SELECT id FROM gone))
         SELECT count(*) AS deleted FROM gone`,
        [links.map((link) => link.id), links.map((link) => link.version)],
      );
      return rows[0]?.deleted ?? 0;
    });
  }

  async purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('purge idempotency records', async () => {
      const result = await this.#primary.query(
        `DELETE FROM idempotency_records WHERE (owner, key) IN (
           SELECT owner, key FROM idempotency_records WHERE created_at < $1
           ORDER BY created_at LIMIT $2)`,
        [olderThanMs, limit],
      );
      return result.rowCount ?? 0;
    });
  }
}
