import type Database from 'better-sqlite3';
import type { ClickEventLog, ClickEventRecord } from '../../ports/event-log.js';
import { guardSqlite } from './sqlite-errors.js';
import { clickEventOfRow, type ClickEventRow } from '../sql/click-event-rows.js';

/** The per-second click events in clicks.db (click-migrations/0006), written by the fold. */
export class SqliteClickEventLog implements ClickEventLog {
  readonly #latest: Database.Statement<[], number | null>;
  readonly #after: Database.Statement<[number, number], ClickEventRow>;
  readonly #forget: Database.Statement<[number, number]>;

  constructor(db: Database.Database) {
    // The last seq ever given, even when its event was forgotten since (AUTOINCREMENT).
    this.#latest = db
      .prepare<[], number | null>("SELECT seq FROM sqlite_sequence WHERE name = 'click_events'")
      .pluck();
    this.#after = db.prepare<[number, number], ClickEventRow>(
      `SELECT CAST(seq AS TEXT) AS position, link_id, second, clicks, bot_clicks, dimensions,
         recorded_at
       FROM click_events WHERE seq > ? ORDER BY seq LIMIT ?`,
    );
    this.#forget = db.prepare(
      `DELETE FROM click_events WHERE seq IN
         (SELECT seq FROM click_events WHERE recorded_at < ? ORDER BY seq LIMIT ?)`,
    );
  }

  async latest(): Promise<string> {
    return guardSqlite('read click events', () => {
      const seq = this.#latest.get() ?? null;
      return seq === null ? '' : String(seq);
    });
  }

  /** One writer: seq order is commit order, and a position is the seq (ADR 0127). */
  async after(position: string, limit: number): Promise<readonly ClickEventRecord[]> {
    return guardSqlite('read click events', () =>
      this.#after.all(position === '' ? 0 : Number(position), limit).map(clickEventOfRow),
    );
  }

  async forgetBefore(olderThanMs: number, limit: number): Promise<number> {
    return guardSqlite('forget click events', () => this.#forget.run(olderThanMs, limit).changes);
  }
}
