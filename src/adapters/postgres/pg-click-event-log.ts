import type pg from 'pg';
import type { ClickEventLog, ClickEventRecord } from '../../ports/event-log.js';
import { clickEventOfRow, type ClickEventRow } from '../sql/click-event-rows.js';
import { guardPg } from './pg-errors.js';

/** The per-second click events (migrations/0015), written by PgClickStore.fold. */
export class PgClickEventLog implements ClickEventLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async latest(): Promise<string> {
    return guardPg('read click events', async () => {
      // Just below every transaction still running: what they commit is still to come.
      const result = await this.#pool.query<{ xmin: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
      );
      return `${result.rows[0]?.xmin ?? '0'}:0`;
    });
  }

  /**
   * In (xid, seq) order, only from transactions older than the oldest one still running:
   * a fold that commits later never lands behind a position already handed out (ADR 0127).
   */
  async after(position: string, limit: number): Promise<readonly ClickEventRecord[]> {
    const [xid, seq] = position === '' ? ['0', '0'] : position.split(':');
    return guardPg('read click events', async () => {
      const result = await this.#pool.query<ClickEventRow>(
        `SELECT xid::text || ':' || seq::text AS position, link_id, second::float8 AS second,
           clicks::float8 AS clicks, bot_clicks::float8 AS bot_clicks, dimensions,
           recorded_at::float8 AS recorded_at
         FROM click_events
         WHERE (xid, seq) > ($1::xid8, $2::bigint)
           AND xid < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY xid, seq LIMIT $3`,
        [xid ?? '0', seq ?? '0', limit],
      );
      return result.rows.map(clickEventOfRow);
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('forget click events', async () => {
      const result = await this.#pool.query(
        `DELETE FROM click_events WHERE seq IN
           (SELECT seq FROM click_events WHERE recorded_at < $1 ORDER BY seq LIMIT $2)`,
        [olderThanMs, limit],
      );
      return result.rowCount ?? 0;
    });
  }
}
