import type { LinkCountSnapshot } from '../../ports/link-census.js';

/**
 * One census slice's counts by the state a reader sees (the same rules as effectiveState
 * in src/domain/link.ts): an active link whose expiry has passed counts as expired before
 * the sweeper marks it. `$now`, `$after` and `$limit` are the adapter's placeholders.
 */
export function censusSliceSql(now: string, after: string, limit: string): string {
  const overdue = `(state = 'active' AND expires_at IS NOT NULL AND expires_at <= ${now})`;
  const count = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
  return `SELECT count(*) AS total,
      ${count(`state = 'active' AND NOT ${overdue}`)} AS active,
      ${count(`state = 'disabled'`)} AS disabled,
      ${count(`state = 'expired' OR ${overdue}`)} AS expired,
      ${count(`state = 'deleted'`)} AS deleted,
      max(id) AS last_id
    FROM (SELECT id, state, expires_at FROM links WHERE id > ${after} ORDER BY id LIMIT ${limit}) AS slice`;
}

export interface CensusSliceRow {
  total: number | string;
  active: number | string | null;
  disabled: number | string | null;
  expired: number | string | null;
  deleted: number | string | null;
  last_id: string | null;
}

/** Counts come back as numbers (SQLite) or numeric strings (PostgreSQL's sum of bigint). */
export function censusSliceFromRow(row: CensusSliceRow | undefined) {
  return {
    total: Number(row?.total ?? 0),
    active: Number(row?.active ?? 0),
    disabled: Number(row?.disabled ?? 0),
    expired: Number(row?.expired ?? 0),
    deleted: Number(row?.deleted ?? 0),
    lastId: row?.last_id ?? null,
  };
}

/** The one row of link_counts (migrations: SQLite 0009, PostgreSQL 0005). */
export const READ_SNAPSHOT = `SELECT total, active, disabled, expired, deleted, counted_at, duration_ms
  FROM link_counts WHERE id = 1`;

/** A later census replaces an earlier one; an earlier one never replaces a later one. */
export function saveSnapshotSql(params: readonly string[]): string {
  return `INSERT INTO link_counts
      (id, total, active, disabled, expired, deleted, counted_at, duration_ms)
    VALUES (1, ${params.join(', ')})
    ON CONFLICT (id) DO UPDATE SET total = excluded.total, active = excluded.active,
      disabled = excluded.disabled, expired = excluded.expired, deleted = excluded.deleted,
      counted_at = excluded.counted_at, duration_ms = excluded.duration_ms
    WHERE excluded.counted_at >= link_counts.counted_at`;
}

export interface SnapshotRow {
  total: number | string;
  active: number | string;
  disabled: number | string;
  expired: number | string;
  deleted: number | string;
  counted_at: number | string;
  duration_ms: number | string;
}

export function snapshotFromRow(row: SnapshotRow | undefined): LinkCountSnapshot | null {
  if (row === undefined) return null;
  return {
    total: Number(row.total),
    active: Number(row.active),
    disabled: Number(row.disabled),
    expired: Number(row.expired),
    deleted: Number(row.deleted),
    countedAt: Number(row.counted_at),
    durationMs: Number(row.duration_ms),
  };
}

export function snapshotParams(snapshot: LinkCountSnapshot): number[] {
  return [
    snapshot.total,
    snapshot.active,
    snapshot.disabled,
    snapshot.expired,
    snapshot.deleted,
    snapshot.countedAt,
    Math.round(snapshot.durationMs),
  ];
}
