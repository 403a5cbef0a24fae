import type Database from 'better-sqlite3';

/**
 * Until when the embedded fold writes click events (ADR 0131), kept in clicks.db by the
 * aggregator thread, the one writer there: it only ever moves later.
 */
export class SqliteClickEventDemand {
  readonly #read: Database.Statement<[], number | undefined>;
  readonly #raise: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.#read = db
      .prepare<[], number | undefined>('SELECT until_ms FROM click_event_demand WHERE id = 1')
      .pluck();
    this.#raise = db.prepare(
      `INSERT INTO click_event_demand (id, until_ms) VALUES (1, ?)
       ON CONFLICT (id) DO UPDATE SET until_ms = max(until_ms, excluded.until_ms)`,
    );
  }

  /** Epoch ms; 0 when nobody ever asked. */
  untilMs(): number {
    return this.#read.get() ?? 0;
  }

  raise(untilMs: number): void {
    this.#raise.run(untilMs);
  }
}
