import type pg from 'pg';
import type { ClickEventLog, ClickEventRecord } from '../../ports/event-log.js';
import { clickEventOfRow, type ClickEventRow } from '../sql/click-event-rows.js';
import { guardPg } from './pg-errors.js';
import {
  AFTER_POSITION,
  afterPositionParams,
  latestPosition,
  POSITION_COLUMN,
} from './pg-event-positions.js';

/** The per-second click events (migrations/0015), written by PgClickStore.fold. */
export class PgClickEventLog implements ClickEventLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async latest(): Promise<string> {
    return guardPg('read click events', () => latestPosition(this.#pool));
  }

  /** In commit order, by position (pg-event-positions.ts, ADR 0127). */
  async after(position: string, limit: number): Promise<readonly ClickEventRecord[]> {
    return guardPg('read click events', async () => {
      const result = await this.#pool.query<ClickEventRow>(
        `SELECT ${POSITION_COLUMN}, link_id, second::float8 AS second,
           clicks::float8 AS clicks, bot_clicks::float8 AS bot_clicks, dimensions,
           recorded_at::float8 AS recorded_at
         FROM click_events WHERE ${AFTER_POSITION}`,
        afterPositionParams(position, limit),
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
