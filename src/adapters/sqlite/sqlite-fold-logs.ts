import type Database from 'better-sqlite3';
import { NO_LANGUAGE } from '../../domain/accept-language.js';
import type { ClickBucket } from '../../domain/click-fold.js';
import { clickSecondsOf, dimensionsOf, visitsOf } from '../../domain/click-visits.js';
import { TallyWireWriter } from '../../wire/click-tally-wire.js';
import type { FoldLogChoice } from '../sql/fold-log-choice.js';

/** A visit row's values, in `visits`' column order (click-migrations/0006, 0007). */
export type VisitRow = [
  linkId: string,
  at: number,
  country: string | null,
  city: string | null,
  device: string,
  os: string,
  browser: string,
  language: string | null,
  referrerHost: string | null,
  bot: number,
  clicks: number,
];

/** A click event row's values: link, second, clicks, bot clicks, dimensions (JSON). */
export type ClickEventRow = [string, number, number, number, string];

/** What the spool's wire tallies name as their instance (the format wants one). */
const SPOOL_INSTANCE = 'fold-log-spool';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), inside its transaction:
 * when the visit log is on, one row per counted bucket holding its clicks' visits (ADR
 * 0130), and, unless nobody reads them (ADR 0131), one click event per link and second.
 * Or, in `hop serve`, those buckets spooled, for the integrations thread to write out
 * (ADR 0132).
 *
 * A row a statement, bound, and the visits in the order of their link's index (ADR 0131):
 * a fold's rows touch that index once per link instead of at random, and binding skips
 * parsing eleven JSON paths a row. Measured on this VM over 60,000-row folds, 10.8 µs a
 * visit row became 5.9.
 */
export class SqliteFoldLogs {
  readonly #addVisit: Database.Statement<VisitRow>;
  readonly #addClickEvent: Database.Statement<[...ClickEventRow, number]>;
  readonly #addSpooled: Database.Statement<[number, number, number]>;
  readonly #addSpooledBuckets: Database.Statement<[bigint | number, Buffer]>;
  readonly #wire = new TallyWireWriter();

  constructor(db: Database.Database) {
    this.#addVisit = db.prepare(
      `INSERT INTO visits (link_id, at, country, city, device, os, browser, language,
         referrer_host, bot, clicks)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#addClickEvent = db.prepare(
      `INSERT INTO click_events (link_id, second, clicks, bot_clicks, dimensions, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#addSpooled = db.prepare(
      'INSERT INTO fold_log_spool (recorded_at, visits, click_events) VALUES (?, ?, ?)',
    );
    // Apart from the row whose progress is updated (click-migrations/0011).
    this.#addSpooledBuckets = db.prepare(
      'INSERT INTO fold_log_spool_buckets (id, buckets) VALUES (?, ?)',
    );
  }

  /** Call inside the fold's transaction, with the buckets it counted. */
  write(counted: readonly ClickBucket[], logs: FoldLogChoice): void {
    if (counted.length === 0 || (!logs.visits && !logs.clickEvents)) return;
    if (logs.spool) {
      this.#spool(counted, logs);
      return;
    }
    const planned = planLogRows(counted, logs);
    this.addVisits(planned.visits);
    this.addClickEvents(planned.clickEvents, logs.nowMs);
  }

  addVisits(rows: readonly VisitRow[]): void {
    for (const row of rows) this.#addVisit.run(...row);
  }

  addClickEvents(rows: readonly ClickEventRow[], recordedAt: number): void {
    for (const row of rows) this.#addClickEvent.run(...row, recordedAt);
  }

  /**
   * The buckets as one wire tally in one row (ADR 0132): a statement per fold instead of
   * one or two per bucket, and no sorting or grouping here; the write-out does that.
   */
  #spool(counted: readonly ClickBucket[], logs: FoldLogChoice): void {
    // The format holds a run of ids, one per click: the spool's are 0…clicks-1.
    let clicks = 0;
    for (const bucket of counted) clicks += bucket.clicks;
    this.#wire.begin(SPOOL_INSTANCE, 0, clicks - 1, logs.nowMs, logs.nowMs);
    for (const bucket of counted) {
      this.#wire.bucket(
        bucket.linkId,
        bucket.second ?? bucket.hour,
        bucket.country,
        bucket.device,
        bucket.referrer,
        bucket.browser,
        bucket.os,
        bucket.city,
        bucket.language ?? NO_LANGUAGE,
        bucket.clicks,
      );
    }
    const { lastInsertRowid } = this.#addSpooled.run(
      logs.nowMs,
      logs.visits ? 1 : 0,
      logs.clickEvents ? 1 : 0,
    );
    this.#addSpooledBuckets.run(lastInsertRowid, Buffer.from(this.#wire.finish()));
  }
}

/** A fold's log rows, in the order written: the same every time for the same buckets. */
export interface PlannedLogRows {
  readonly visits: readonly VisitRow[];
  readonly clickEvents: readonly ClickEventRow[];
}

export function planLogRows(
  counted: readonly ClickBucket[],
  logs: { readonly visits: boolean; readonly clickEvents: boolean },
): PlannedLogRows {
  const visits: VisitRow[] = logs.visits
    ? visitsOf(counted).map(({ visit: v, clicks }) => [
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
      ])
    : [];
  visits.sort(byLinkThenTime);
  const clickEvents: ClickEventRow[] = logs.clickEvents
    ? clickSecondsOf(counted).map((s) => [
        s.linkId,
        s.second,
        s.clicks,
        s.botClicks,
        JSON.stringify(dimensionsOf(s)),
      ])
    : [];
  return { visits, clickEvents };
}

/** The visits index's order (link, then time): see click-migrations/0006. */
function byLinkThenTime(a: VisitRow, b: VisitRow): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return b[1] - a[1];
}
