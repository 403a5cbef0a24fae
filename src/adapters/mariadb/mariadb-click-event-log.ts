import type { Pool } from 'mysql2/promise';
import type { ClickEventLog, ClickEventRecord } from '../../ports/event-log.js';
import { clickEventOfRow, type ClickEventRow } from '../sql/click-event-rows.js';
import { guardMariaDb } from './mariadb-errors.js';
import {
  DEFAULT_SETTLE_MS,
  forgetEvents,
  latestPosition,
  positionOf,
  settledRowsAfter,
  type PositionedRow,
} from './mariadb-event-positions.js';

type EventRow = PositionedRow & Omit<ClickEventRow, 'position'>;

/**
 * The per-second click events (`click_events`), written by the fold, read in commit order
 * by seq with the gap rule of mariadb-event-positions.ts (ADR 0127, ADR 0140): folds take
 * turns, but one that rolled back, or another Galera node's, leaves a gap.
 */
export class MariaDbClickEventLog implements ClickEventLog {
  readonly #pool: Pool;
  readonly #settleMs: number;

  /** `settleMs`: how long after the row behind a gap the gap counts as rolled back. */
  constructor(pool: Pool, settleMs: number = DEFAULT_SETTLE_MS) {
    this.#pool = pool;
    this.#settleMs = settleMs;
  }

  async latest(): Promise<string> {
    return guardMariaDb('read click events', () =>
      latestPosition(this.#pool, 'click_events', this.#settleMs),
    );
  }

  async after(position: string, limit: number): Promise<readonly ClickEventRecord[]> {
    return guardMariaDb('read click events', async () => {
      const rows = await settledRowsAfter<EventRow>(
        this.#pool,
        'click_events',
        'link_id, `second`, clicks, bot_clicks, dimensions, recorded_at',
        position,
        limit,
        this.#settleMs,
      );
      return rows.map((row) => clickEventOfRow({ ...row, position: positionOf(row.seq) }));
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardMariaDb('forget click events', () =>
      forgetEvents(
        this.#pool,
        'click_events',
        { condition: 'recorded_at < ?', params: [olderThanMs], order: 'seq' },
        limit,
      ),
    );
  }
}
