import type { ClickEventRecord, DimensionCounts } from '../../ports/event-log.js';

/** A `click_events` row as either engine answers it (numbers as numbers: cast in SQL). */
export interface ClickEventRow {
  /** Its place in the log: the seq on SQLite, `xid:seq` on PostgreSQL (ADR 0127). */
  readonly position: string;
  readonly link_id: string;
  readonly second: number;
  readonly clicks: number;
  readonly bot_clicks: number;
  /** JSON text (SQLite) or the parsed jsonb (PostgreSQL). */
  readonly dimensions: string | Record<string, DimensionCounts>;
  readonly recorded_at: number;
}

export function clickEventOfRow(row: ClickEventRow): ClickEventRecord {
  const d = (
    typeof row.dimensions === 'string' ? JSON.parse(row.dimensions) : row.dimensions
  ) as Partial<Record<string, DimensionCounts>>;
  return {
    position: row.position,
    linkId: row.link_id,
    second: row.second,
    clicks: row.clicks,
    botClicks: row.bot_clicks,
    countries: d.countries ?? {},
    devices: d.devices ?? {},
    browsers: d.browsers ?? {},
    oses: d.oses ?? {},
    referrers: d.referrers ?? {},
    languages: d.languages ?? {},
    recordedAt: row.recorded_at,
  };
}
