import type { Pool } from 'mysql2/promise';
import type { LinkEventLog, LinkEventRecord, LinkEventType } from '../../ports/event-log.js';
import { guardMariaDb } from './mariadb-errors.js';
import { fromRow, type LinkColumns } from './mariadb-link-rows.js';
import {
  DEFAULT_SETTLE_MS,
  forgetEvents,
  latestPosition,
  positionOf,
  settledRowsAfter,
  type PositionedRow,
} from './mariadb-event-positions.js';

interface EventRow extends PositionedRow {
  type: string;
  occurred_at: number;
  /** The JSON the trigger made, as text (the pool's jsonStrings). */
  link: string;
}

/**
 * `link_events`, written by triggers on `links` in the writing transaction (migration
 * 0005, ADR 0127), read in commit order by seq with the gap rule of
 * mariadb-event-positions.ts (ADR 0140).
 */
export class MariaDbLinkEventLog implements LinkEventLog {
  readonly #pool: Pool;
  readonly #settleMs: number;

  /** `settleMs`: how long after the row behind a gap the gap counts as rolled back. */
  constructor(pool: Pool, settleMs: number = DEFAULT_SETTLE_MS) {
    this.#pool = pool;
    this.#settleMs = settleMs;
  }

  async latest(): Promise<string> {
    return guardMariaDb('read the link events', () =>
      latestPosition(this.#pool, 'link_events', this.#settleMs),
    );
  }

  async after(position: string, limit: number): Promise<readonly LinkEventRecord[]> {
    return guardMariaDb('read the link events', async () => {
      const rows = await settledRowsAfter<EventRow>(
        this.#pool,
        'link_events',
        'type, occurred_at, link',
        position,
        limit,
        this.#settleMs,
      );
      return rows.map(recordOf);
    });
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardMariaDb('forget old link events', () =>
      forgetEvents(
        this.#pool,
        'link_events',
        { condition: 'occurred_at < ?', params: [olderThanMs], order: 'occurred_at' },
        limit,
      ),
    );
  }
}

function recordOf(row: EventRow): LinkEventRecord {
  return {
    position: positionOf(row.seq),
    type: row.type as LinkEventType,
    occurredAt: row.occurred_at,
    link: fromRow(JSON.parse(row.link) as LinkColumns),
  };
}
