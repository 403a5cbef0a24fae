import type pg from 'pg';
import type { LinkEventLog, LinkEventRecord, LinkEventType } from '../../ports/event-log.js';
import { guardPg } from './pg-errors.js';
import {
  AFTER_POSITION,
  afterPositionParams,
  latestPosition,
  POSITION_COLUMN,
} from './pg-event-positions.js';
import { fromRow, type LinkRow } from './pg-link-rows.js';

interface EventRow {
  position: string;
  type: string;
  occurred_at: string;
  link: LinkRow;
}

/**
 * `link_events` (migration 0016), written by triggers on `links` (ADR 0127), read by
 * position in commit order (pg-event-positions.ts).
 */
export class PgLinkEventLog implements LinkEventLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async latest(): Promise<string> {
    return guardPg('read the link events', () => latestPosition(this.#pool));
  }

  async after(position: string, limit: number): Promise<readonly LinkEventRecord[]> {
    return guardPg('read the link events', async () => {
      const { rows } = await this.#pool.query<EventRow>(
        `SELECT ${POSITION_COLUMN}, type, occurred_at::text AS occurred_at, link
         FROM link_events WHERE ${AFTER_POSITION}`,
        afterPositionParams(position, limit),
      );
      return rows.map(recordOf);
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardPg('forget old link events', async () => {
      const { rowCount } = await this.#pool.query(
        `DELETE FROM link_events WHERE seq IN (
           SELECT seq FROM link_events WHERE occurred_at < $1 ORDER BY occurred_at LIMIT $2)`,
        [olderThanMs, limit],
      );
      return rowCount ?? 0;
    });
  }
}

function recordOf(row: EventRow): LinkEventRecord {
  return {
    position: row.position,
    type: row.type as LinkEventType,
    occurredAt: Number(row.occurred_at),
    link: fromRow(row.link),
  };
}
