import type { ClickCounts } from '../domain/click-fold.js';
import type { ClickTally } from '../domain/click-tally.js';

/** How one fold went. */
export interface FoldResult {
  readonly counted: number;
  /** Events already folded before: redeliveries and retries, not counted again. */
  readonly duplicates: number;
}

export interface FoldOptions {
  /** Write each counted click to the visit log too (HOP_VISIT_LOG). */
  readonly logVisits?: boolean;
  /**
   * Write the fold's per-second click events (`link.clicked`, issue 23); default true.
   * False while nobody can read them: no stream open or resumable, no webhook taking
   * them (ClickEventDemand, ADR 0131).
   */
  readonly logClickEvents?: boolean;
  /**
   * Keep the buckets for those logs in a spool, to be written out later at low priority
   * (FoldLogSpool, ADR 0132), instead of writing them now. Only a store that has a spool
   * heeds it (the embedded one, in `hop serve`'s aggregator thread).
   */
  readonly spoolLogs?: boolean;
}

/** Clicks per value of one dimension, most first. */
export interface DimensionCount {
  readonly value: string;
  readonly clicks: number;
}

/**
 * A link's clicks within `[fromHour, toHour)`, summed per hour and per dimension. Bots'
 * clicks are counted apart per hour and are in no dimension (ADR 0094).
 */
export interface ClickSummary {
  /**
   * Hours with at least one click (a bot's included), oldest first; `hour` is its first
   * epoch millisecond.
   */
  readonly hours: readonly {
    readonly hour: number;
    readonly clicks: number;
    readonly botClicks: number;
  }[];
  readonly countries: readonly DimensionCount[];
  readonly devices: readonly DimensionCount[];
  readonly referrers: readonly DimensionCount[];
  /** Issue 21's facets (`click_hourly_facets`): browser and os names, cities (ADR 0109). */
  readonly browsers: readonly DimensionCount[];
  readonly oses: readonly DimensionCount[];
  /** Empty unless a City database places clicks (HOP_GEOIP_DB). */
  readonly cities: readonly DimensionCount[];
}

/** The links with the most clicks over a window, as last ranked. */
export interface BusiestLinks {
  /** When the ranking was made; null before the first. */
  readonly rankedAt: number | null;
  /** Most clicks first (ties by link id). */
  readonly links: readonly { readonly linkId: string; readonly clicks: number }[];
}

/** A link's clicks from before it was on hop (issue 24): its peer's total at import. */
export interface StartingCount {
  readonly linkId: string;
  readonly clicks: number;
}

/** The aggregates of SPEC §4 (`click_hourly`) and what folding into them needs. */
export interface ClickStore {
  /**
   * Adds tallies to the hourly buckets in one transaction, skipping those whose event ids
   * were folded before, with at most `maxReferrers` referrer hosts (and as many cities)
   * per link and hour. In the same transaction: one click event per link and second
   * counted, and with `logVisits` one visit per click counted (issue 23, ADR 0125).
   */
  fold(
    tallies: readonly ClickTally[],
    maxReferrers: number,
    options?: FoldOptions,
  ): Promise<FoldResult>;
  summarize(linkId: string, fromHour: number, toHour: number): Promise<ClickSummary>;
  /**
   * All links' clicks within `[fromHour, toHour)`, bots' left out: kept per hour by each
   * fold, cheap to read.
   */
  clicksBetween(fromHour: number, toHour: number): Promise<number>;
  /**
   * Ranks the `top` links with the most clicks (bots' left out) within `[fromHour, toHour)`, replacing the
   * last ranking. Reads every bucket of the window: run where folds run, never where a
   * redirect would wait for it.
   */
  rankBusiest(fromHour: number, toHour: number, top: number, nowMs: number): Promise<void>;
  /** The last ranking; a read of a few rows. */
  busiest(): Promise<BusiestLinks>;
  /**
   * Sets each link's starting count (issue 24, ADR 0136), which its all-time people's
   * clicks (`totals`) include and no hour, breakdown or visit does. Idempotent: a count set
   * again replaces the one set before, never adds to it.
   */
  keepStartingCounts(counts: readonly StartingCount[]): Promise<void>;
  /**
   * All-time clicks of each link asked for, people's and bots' apart (0 when none);
   * people's include a starting count.
   */
  totals(linkIds: readonly string[]): Promise<ReadonlyMap<string, ClickCounts>>;
  /** Time of the newest event folded in, or null before the first. */
  freshness(): Promise<number | null>;
}
