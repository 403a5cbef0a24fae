import type pg from 'pg';

/**
 * Positions in PostgreSQL's event logs (link events, click events: ADR 0127). A bigserial
 * is handed out at insert, not at commit, so a log is read by (xid, seq), the writing
 * transaction's id first, and only below the oldest transaction still running: none can
 * then commit behind a position already handed out. A position is `xid:seq`.
 */

/** The rows after position ($1 xid, $2 seq), at most $3, in commit order: a WHERE tail. */
export const AFTER_POSITION = `(xid, seq) > ($1::xid8, $2::bigint)
  AND xid < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY xid, seq LIMIT $3`;

/** The position of a row, selected as `position`. */
export const POSITION_COLUMN = `xid::text || ':' || seq::text AS position`;

/** The parameters of AFTER_POSITION for `position` (`''`: before the first) and `limit`. */
export function afterPositionParams(position: string, limit: number): [string, string, number] {
  const [xid = '0', seq = '0'] = position === '' ? [] : position.split(':');
  return [xid, seq, limit];
}

/** Just below every transaction still running: what they commit is still to come. */
export async function latestPosition(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ xmin: string }>(
    'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
  );
  return `${rows[0]?.xmin ?? '0'}:0`;
}
