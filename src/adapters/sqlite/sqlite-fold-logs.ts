import type Database from 'better-sqlite3';
import { NO_LANGUAGE } from '../../domain/accept-language.js';
import { BOT_DEVICE, NO_CITY, NO_REFERRER, UNKNOWN_COUNTRY } from '../../domain/click-event.js';
import { hourOf, type ClickBucket } from '../../domain/click-fold.js';
import { clickSecondsOf, dimensionsOf } from '../../domain/click-visits.js';
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

  /**
   * The counted buckets' visits as blocks (ADR 0147): grouped by link, the links in the
   * index's order, each link's rows newest first (alike ones in the order counted), one
   * block per hour. The same blocks as `addVisits` of `planLogRows`' visits, built without
   * an object or array per bucket beyond the block's own rows.
   */
  #addVisitsOf(counted: readonly ClickBucket[]): void {
    const byLink = new Map<string, ClickBucket[]>();
    for (const bucket of counted) {
      const list = byLink.get(bucket.linkId);
      if (list === undefined) byLink.set(bucket.linkId, [bucket]);
      else list.push(bucket);
    }
    for (const linkId of [...byLink.keys()].sort()) {
      const list = byLink.get(linkId) as ClickBucket[];
      if (list.length > 1) list.sort(newestBucketFirst);
      forEachBlock(list, atOfBucket, (start, end) => {
        const rows: BlockRow[] = [];
        for (let i = start; i < end; i++) rows.push(blockRowOf(list[i] as ClickBucket));
        this.#addBlock(linkId, rows);
      });
    }
  }

  /**
   * `rows` (a spooled fold's, planned by `planLogRows`) as blocks: each run of one link
   * and hour, in the order given.
   */
  addVisits(rows: readonly VisitRow[]): void {
    let start = 0;
    while (start < rows.length) {
      const linkId = (rows[start] as VisitRow)[0];
      let end = start + 1;
      while (end < rows.length && (rows[end] as VisitRow)[0] === linkId) end++;
      forEachBlock(rows.slice(start, end), atOfRow, (from, to) => {
        const block: BlockRow[] = [];
        for (let i = start + from; i < start + to; i++) {
          block.push((rows[i] as VisitRow).slice(1) as BlockRow);
        }
        this.#addBlock(linkId, block);
      });
      start = end;
    }
  }

  /** One block: `rows` of `linkId`, each [at, …]. */
  #addBlock(linkId: string, rows: readonly BlockRow[]): void {
    let newest = -Infinity;
    let oldest = Infinity;
    for (const [at] of rows) {
      if (at > newest) newest = at;
      if (at < oldest) oldest = at;
    }
    this.#addVisitBlock.run(linkId, newest, oldest, JSON.stringify(rows));
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

/**
 * A bucket's visits as a block holds them: unknown values null, as the visit log keeps
 * them (issue 23; the domain's `visitsOf` for the other stores).
 */
function blockRowOf(bucket: ClickBucket): BlockRow {
  const language = bucket.language ?? NO_LANGUAGE;
  return [
    bucket.second ?? bucket.hour,
    bucket.country === UNKNOWN_COUNTRY ? null : bucket.country,
    bucket.city === NO_CITY ? null : bucket.city,
    bucket.device,
    bucket.os,
    bucket.browser,
    language === NO_LANGUAGE ? null : language,
    bucket.referrer === NO_REFERRER ? null : bucket.referrer,
    bucket.device === BOT_DEVICE ? 1 : 0,
    bucket.clicks,
  ];
}

const atOfBucket = (bucket: ClickBucket): number => bucket.second ?? bucket.hour;
const atOfRow = (row: VisitRow): number => row[1];

function newestBucketFirst(a: ClickBucket, b: ClickBucket): number {
  return atOfBucket(b) - atOfBucket(a);
}

/**
 * Calls `block` with each run of `items` (one link's) within one hour and of at most
 * ROWS_PER_BLOCK items: a block spans an hour at most (sqlite-visit-log.ts).
 */
function forEachBlock<T>(
  items: readonly T[],
  atOf: (item: T) => number,
  block: (start: number, end: number) => void,
): void {
  let start = 0;
  while (start < items.length) {
    const hour = hourOf(atOf(items[start] as T));
    let end = start + 1;
    while (
      end < items.length &&
      end - start < ROWS_PER_BLOCK &&
      hourOf(atOf(items[end] as T)) === hour
    ) {
      end++;
    }
    block(start, end);
    start = end;
  }
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
  const rows: VisitRow[] = logs.visits
    ? counted.map((bucket): VisitRow => [bucket.linkId, ...blockRowOf(bucket)])
    : [];
  const visits = inLinkOrder(rows);
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

/**
 * `rows` by link, then newest first, alike rows in the order given (click-migrations/0006,
 * 0012): grouped by link and the links sorted, not the rows, which a fold has many more of.
 */
function inLinkOrder(rows: readonly VisitRow[]): VisitRow[] {
  const byLink = new Map<string, VisitRow[]>();
  for (const row of rows) {
    const list = byLink.get(row[0]);
    if (list === undefined) byLink.set(row[0], [row]);
    else list.push(row);
  }
  const ordered: VisitRow[] = [];
  for (const linkId of [...byLink.keys()].sort()) {
    const list = byLink.get(linkId) as VisitRow[];
    if (list.length > 1) list.sort(newestFirst);
    for (const row of list) ordered.push(row);
  }
  return ordered;
}

function newestFirst(a: VisitRow, b: VisitRow): number {
  return b[1] - a[1];
}
