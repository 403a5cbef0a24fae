import type pg from 'pg';
import type { LinkEventLog, LinkEventRecord, LinkEventType } from '../../ports/event-log.js';
import { guardPg } from './pg-errors.js';
import { fromRow, type LinkRow } from './pg-link-rows.js';

interface EventRow {
  xid: string;
  seq: string;
  type: string;
  occurred_at: string;
  link: LinkRow;
}

/**
 * `link_events` (migration 0016), written by triggers on `links` (ADR 0127). A position is
 * `xid:seq`. Events are read in (xid, seq) order, and only from transactions older than
 * the oldest one still running, so one that commits later never lands behind a position
 * already handed out.
 */
export class PgLinkEventLog implements LinkEventLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async latest(): Promise<string> {
    return guardPg('read the link events', async () => {
      // Just below every transaction still running: what they commit is still to come.
      const { rows } = await this.#pool.query<{ xmin: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
      );
      return `${rows[0]?.xmin ?? '0'}:0`;
    });
  }

  async after(position: string, limit: number): Promise<readonly LinkEventRecord[]> {
    const [xid, seq] = position === '' ? ['0', '0'] : position.split(':');
    return guardPg('read the link events', async () => {
      const { rows } = await this.#pool.query<EventRow>(
        `SELECT xid::text AS xid, seq::text AS seq, type, occurred_at::text AS occurred_at, link
         FROM link_events
         WHERE (xid, seq) > ($1::xid8, $2::bigint)
           AND xid < pg_snapshot_xmin(pg_current_snapshot())
         ORDER BY xid, seq LIMIT $3`,
        [xid ?? '0', seq ?? '0', limit],
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
    position: `${row.xid}:${row.seq}`,
    type: row.type as LinkEventType,
    occurredAt: Number(row.occurred_at),
    link: fromRow(row.link),
  };
}
