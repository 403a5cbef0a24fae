import type Database from 'better-sqlite3';
import type { ClickBucket } from '../../domain/click-fold.js';
import { clickSecondsOf, dimensionsOf, visitsOf } from '../../domain/click-visits.js';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), inside its transaction:
 * when the visit log is on, one row per counted bucket holding its clicks' visits (ADR
 * 0130), and one click event per link and second always. Whole folds in one statement
 * each, over a JSON array.
 */
export class SqliteFoldLogs {
  readonly #addVisits: Database.Statement<[string]>;
  readonly #addClickEvents: Database.Statement<[number, string]>;

  constructor(db: Database.Database) {
    this.#addVisits = db.prepare(
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
         value ->> 6, value ->> 7, value ->> 8, value ->> 9, value ->> 10
       FROM json_each(?)`,
    );
    this.#addClickEvents = db.prepare(
      `INSERT INTO click_events (link_id, second, clicks, bot_clicks, dimensions, recorded_at)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ?
       FROM json_each(?)`,
    );
  }

  /** Call inside the fold's transaction, with the buckets it counted. */
  write(counted: readonly ClickBucket[], logVisits: boolean, nowMs: number): void {
    if (counted.length === 0) return;
    if (logVisits) {
      const rows: unknown[] = [];
      for (const { visit: v, clicks } of visitsOf(counted)) {
        rows.push([
          v.linkId,
          v.at,
          v.country,
          v.city,
          v.device,
          v.os,
          v.browser,
          v.language,
          v.referrerHost,
          v.bot ? 1 : 0,
          clicks,
        ]);
      }
      this.#addVisits.run(JSON.stringify(rows));
    }
    const events = clickSecondsOf(counted).map((s) => [
      s.linkId,
      s.second,
      s.clicks,
      s.botClicks,
      JSON.stringify(dimensionsOf(s)),
    ]);
    this.#addClickEvents.run(nowMs, JSON.stringify(events));
  }
}
