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

  async latest(): Promise<number> {
    return guardPg('read click events', async () => {
      const result = await this.#pool.query<{ seq: number | null }>(
        'SELECT max(seq)::float8 AS seq FROM click_events',
      );
      return result.rows[0]?.seq ?? 0;
    });
  }

  async after(cursor: number, limit: number): Promise<readonly ClickEventRecord[]> {
    return guardPg('read click events', async () => {
      const result = await this.#pool.query<ClickEventRow>(
        `SELECT seq::float8 AS seq, link_id, second::float8 AS second,
           clicks::float8 AS clicks, bot_clicks::float8 AS bot_clicks, dimensions,
           recorded_at::float8 AS recorded_at
         FROM click_events WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [cursor, limit],
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
