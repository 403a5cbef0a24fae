import type Database from 'better-sqlite3';
import type { LinkEventLog, LinkEventRecord, LinkEventType } from '../../ports/event-log.js';
import { guardSqlite } from './sqlite-errors.js';
import { fromRow, type LinkRow } from './sqlite-link-rows.js';

interface EventRow {
  seq: number;
  type: string;
  occurred_at: number;
  link: string;
}

/**
 * `link_events` (migration 0018), written by triggers on `links` (ADR 0127). One writer, so
 * seq order is commit order and a position is the seq itself.
 */
export class SqliteLinkEventLog implements LinkEventLog {
  readonly #latest: Database.Statement<[], { seq: number | null }>;
  readonly #after: Database.Statement<[number, number], EventRow>;
  readonly #forget: Database.Statement<[number, number]>;

  constructor(db: Database.Database) {
    // sqlite_sequence holds the highest seq ever used, even when every row is deleted.
    this.#latest = db.prepare(
      "SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'link_events') AS seq",
    );
    this.#after = db.prepare(
      'SELECT seq, type, occurred_at, link FROM link_events WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    this.#forget = db.prepare(
      `DELETE FROM link_events WHERE seq IN (
         SELECT seq FROM link_events WHERE occurred_at < ? ORDER BY occurred_at LIMIT ?)`,
    );
  }

  async latest(): Promise<string> {
    return guardSqlite('read the link events', () => {
      const seq = this.#latest.get()?.seq ?? null;
      return seq === null ? '' : String(seq);
    });
  }

  async after(position: string, limit: number): Promise<readonly LinkEventRecord[]> {
    return guardSqlite('read the link events', () =>
      this.#after.all(position === '' ? 0 : Number(position), limit).map(recordOf),
    );
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite(
      'forget old link events',
      () => this.#forget.run(olderThanMs, limit).changes,
    );
  }
}

function recordOf(row: EventRow): LinkEventRecord {
  return {
    position: String(row.seq),
    type: row.type as LinkEventType,
    occurredAt: row.occurred_at,
    link: fromRow(JSON.parse(row.link) as LinkRow),
  };
}
