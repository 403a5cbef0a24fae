import type Database from 'better-sqlite3';
import { NO_LANGUAGE } from '../../domain/accept-language.js';
import type { BrowserClass, DeviceClass, OsClass } from '../../domain/click-event.js';
import { hourOf, type ClickBucket } from '../../domain/click-fold.js';
import {
  bucketSecond,
  clickSecondsOf,
  dimensionsOf,
  isBotVisit,
  visitCity,
  visitCountry,
  visitLanguage,
  visitReferrerHost,
} from '../../domain/click-visits.js';
import { TallyWireWriter } from '../../wire/click-tally-wire.js';
import type { FoldLogChoice } from '../sql/fold-log-choice.js';

/** A visit row's values, in `visits`' column order (click-migrations/0006, 0007). */
export type VisitRow = [
  linkId: string,
  at: number,
  country: string | null,
  city: string | null,
  device: DeviceClass,
  os: OsClass,
  browser: BrowserClass,
  language: string | null,
  referrerHost: string | null,
  bot: number,
  clicks: number,
];

/**
 * Ids one visit block spans: a bucket row's id is its block's id times this, plus its
 * place from the block's end (click-migrations/0012, ADR 0147).
 */
export const IDS_PER_BLOCK = 65_536;

/**
 * Bucket rows one block holds at most: a page reads each block it needs whole, so a link
 * clicked in a thousand ways a second (a viral link, from everywhere) is still read in
 * steps of an estimated 60-100 KB, not megabytes.
 */
export const ROWS_PER_BLOCK = 1_024;

/** A click event row's values: link, second, clicks, bot clicks, dimensions (JSON). */
export type ClickEventRow = [string, number, number, number, string];

/** What the spool's wire tallies name as their instance (the format wants one). */
const SPOOL_INSTANCE = 'fold-log-spool';

/**
 * What a fold writes besides the counters (issue 23, ADR 0125), inside its transaction:
 * when the visit log is on, its counted buckets' visits, one row (a block) per link and
 * hour holding each bucket's [at, dimensions…, clicks] (ADR 0130, 0147); and, unless
 * nobody reads them (ADR 0131), one click event per link and second. In `hop serve`, the
 * click events are spooled for the integrations thread to write out (ADR 0132); the
 * visits no longer are: a block a link costs the fold less than spooling them did.
 *
 * A row a statement, bound, in the order of their link's index (ADR 0131): a fold's rows
 * touch that index once per link instead of at random.
 */
export class SqliteFoldLogs {
  readonly #addVisitBlock: Database.Statement<[string, number, number, string]>;
  readonly #addClickEvent: Database.Statement<[...ClickEventRow, number]>;
  readonly #addSpooled: Database.Statement<[number, number, number]>;
  readonly #addSpooledBuckets: Database.Statement<[bigint | number, Buffer]>;
  readonly #wire = new TallyWireWriter();

  constructor(db: Database.Database) {
    this.#addVisitBlock = db.prepare(
      'INSERT INTO visit_blocks (link_id, newest_at, oldest_at, rows) VALUES (?, ?, ?, ?)',
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
    if (counted.length === 0) return;
    if (logs.visits) this.#addVisitsOf(counted);
    if (!logs.clickEvents) return;
    if (logs.spool) {
      this.#spool(counted, logs.nowMs);
      return;
    }
    this.addClickEvents(planLogRows(counted, CLICK_EVENTS_ONLY).clickEvents, logs.nowMs);
  }

  /** The counted buckets' visits as blocks (ADR 0147), built without a Visit per bucket. */
  #addVisitsOf(counted: readonly ClickBucket[]): void {
    for (const [linkId, buckets] of byLinkNewestFirst(counted, linkOfBucket, bucketSecond)) {
      this.#addBlocks(linkId, buckets.map(blockRowOf));
    }
  }

  /**
   * A spooled fold's rows (spooled before ADR 0147, planned by `planLogRows`), as blocks.
   */
  addVisits(rows: readonly VisitRow[]): void {
    for (const [linkId, ofLink] of byLinkNewestFirst(rows, linkOfRow, atOfRow)) {
      this.#addBlocks(
        linkId,
        ofLink.map((row) => row.slice(1) as BlockRow),
      );
    }
  }

  /**
   * One link's rows, newest first, as blocks: a run within one hour (a block spans an hour
   * at most: sqlite-visit-log.ts) of at most ROWS_PER_BLOCK rows each.
   */
  #addBlocks(linkId: string, rows: readonly BlockRow[]): void {
    let start = 0;
    while (start < rows.length) {
      const hour = hourOf((rows[start] as BlockRow)[0]);
      let end = start + 1;
      while (
        end < rows.length &&
        end - start < ROWS_PER_BLOCK &&
        hourOf((rows[end] as BlockRow)[0]) === hour
      ) {
        end++;
      }
      const block = rows.slice(start, end);
      const newest = (block[0] as BlockRow)[0];
      const oldest = (block[block.length - 1] as BlockRow)[0];
      this.#addVisitBlock.run(linkId, newest, oldest, JSON.stringify(block));
      start = end;
    }
  }

  addClickEvents(rows: readonly ClickEventRow[], recordedAt: number): void {
    for (const row of rows) this.#addClickEvent.run(...row, recordedAt);
  }

  /**
   * The buckets as one wire tally in one row (ADR 0132): a statement per fold instead of
   * one or two per bucket, and no sorting or grouping here; the write-out does that.
   */
  #spool(counted: readonly ClickBucket[], nowMs: number): void {
    // The format holds a run of ids, one per click: the spool's are 0…clicks-1.
    let clicks = 0;
    for (const bucket of counted) clicks += bucket.clicks;
    this.#wire.begin(SPOOL_INSTANCE, 0, clicks - 1, nowMs, nowMs);
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
    // Spooled visits (1) are only those of folds before ADR 0147, still written out.
    const { lastInsertRowid } = this.#addSpooled.run(nowMs, 0, 1);
    this.#addSpooledBuckets.run(lastInsertRowid, Buffer.from(this.#wire.finish()));
  }
}

/** A bucket row of a visit block: a VisitRow without its link. */
export type BlockRow = VisitRow extends [string, ...infer Rest] ? Rest : never;

/** A bucket's visits as a block holds them (the visit log's values: click-visits.ts). */
function blockRowOf(bucket: ClickBucket): BlockRow {
  return [
    bucketSecond(bucket),
    visitCountry(bucket),
    visitCity(bucket),
    bucket.device,
    bucket.os,
    bucket.browser,
    visitLanguage(bucket),
    visitReferrerHost(bucket),
    isBotVisit(bucket) ? 1 : 0,
    bucket.clicks,
  ];
}

const linkOfBucket = (bucket: ClickBucket): string => bucket.linkId;
const linkOfRow = (row: VisitRow): string => row[0];
const atOfRow = (row: VisitRow): number => row[1];

/**
 * `items` grouped by link, the links in the visit index's order, each link's newest first
 * (alike ones in the order given; click-migrations/0006, 0012): grouped and the links
 * sorted, not the items, which a fold has many more of.
 */
function byLinkNewestFirst<T>(
  items: readonly T[],
  linkOf: (item: T) => string,
  atOf: (item: T) => number,
): [linkId: string, items: T[]][] {
  const byLink = new Map<string, T[]>();
  for (const item of items) {
    const linkId = linkOf(item);
    const list = byLink.get(linkId);
    if (list === undefined) byLink.set(linkId, [item]);
    else list.push(item);
  }
  const newestFirst = (a: T, b: T): number => atOf(b) - atOf(a);
  return [...byLink.keys()].sort().map((linkId) => {
    const list = byLink.get(linkId) as T[];
    if (list.length > 1) list.sort(newestFirst);
    return [linkId, list];
  });
}

const CLICK_EVENTS_ONLY = { visits: false, clickEvents: true } as const;

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
    ? byLinkNewestFirst(counted, linkOfBucket, bucketSecond).flatMap(([linkId, buckets]) =>
        buckets.map((bucket): VisitRow => [linkId, ...blockRowOf(bucket)]),
      )
    : [];
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
