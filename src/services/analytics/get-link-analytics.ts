import { DEFAULT_DOMAIN, storedDomainOf } from '../../domain/link-domain.js';
import { HOUR_MS, NO_CLICKS } from '../../domain/click-fold.js';
import { HopError, type FieldProblem } from '../../domain/errors.js';
import { queryTimestamp } from './query-timestamp.js';
import type { Principal } from '../../domain/principal.js';
import type { DimensionCount } from '../../ports/click-store.js';
import { findVisibleLinkOrThrow } from '../links/find-visible-link.js';
import type { AnalyticsDeps } from './analytics-deps.js';

export const ANALYTICS_BUCKETS = ['hour', 'day'] as const;
export type AnalyticsBucket = (typeof ANALYTICS_BUCKETS)[number];

const BUCKET_MS: Readonly<Record<AnalyticsBucket, number>> = { hour: HOUR_MS, day: 24 * HOUR_MS };
/** Without `from`: the last week by hour, the last 30 days by day. */
const DEFAULT_SPAN_MS: Readonly<Record<AnalyticsBucket, number>> = {
  hour: 7 * 24 * HOUR_MS,
  day: 30 * 24 * HOUR_MS,
};
/** Points in one series at most (hourly: 83 days; daily: 5 years): a bounded answer. */
export const MAX_SERIES_POINTS = 2000;

/** Clicks per value of one dimension, most first. */
export type ClickCount = DimensionCount;

export interface AnalyticsQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly bucket?: string | undefined;
  /** The short domain of a link named by its code (issue 22); the default without one. */
  readonly domain?: string | undefined;
}

export interface LinkAnalytics {
  /** The range answered: `from` rounded down and `to` up to whole buckets (UTC). */
  readonly from: number;
  readonly to: number;
  readonly bucket: AnalyticsBucket;
  /** People's clicks; bots' are counted apart, in `botClicks` (ADR 0094). */
  readonly total: number;
  readonly botClicks: number;
  /** Every bucket of the range, oldest first, empty ones included. */
  readonly series: readonly {
    readonly start: number;
    readonly clicks: number;
    readonly botClicks: number;
  }[];
  /** People's clicks only: each breakdown sums to `total`. */
  readonly byCountry: readonly DimensionCount[];
  readonly byDevice: readonly DimensionCount[];
  readonly byReferrer: readonly DimensionCount[];
  /** Issue 21: browsers and operating systems by the names link rules use, and `other`. */
  readonly byBrowser: readonly DimensionCount[];
  readonly byOs: readonly DimensionCount[];
  /** Empty unless HOP_GEOIP_DB is a City database; bounded per link and hour (ADR 0109). */
  readonly byCity: readonly DimensionCount[];
  /** Time of the newest click folded into the aggregates (any link's); null before any. */
  readonly freshness: number | null;
}

/**
 * A link's clicks over a range (SPEC §3 `GET /v1/links/{id}/analytics`): the caller must
 * be able to see the link, exactly as for `GET /v1/links/{id}`.
 */
export async function getLinkAnalytics(
  deps: AnalyticsDeps,
  principal: Principal,
  id: string,
  query: AnalyticsQuery,
): Promise<LinkAnalytics> {
  const range = resolveRangeOrThrow(query, deps.clock.now());
  const domain =
    query.domain === undefined ? DEFAULT_DOMAIN : storedDomainOf(query.domain, deps.defaultHost);
  const link = await findVisibleLinkOrThrow(deps.links, principal, id, domain);
  const [summary, freshness] = await Promise.all([
    deps.clicks.summarize(link.id, range.from, range.to),
    deps.clicks.freshness(),
  ]);
  const { series, total, botTotal } = seriesOf(summary.hours, range);
  return {
    ...range,
    total,
    botClicks: botTotal,
    series,
    byCountry: summary.countries,
    byDevice: summary.devices,
    byReferrer: summary.referrers,
    byBrowser: summary.browsers,
    byOs: summary.oses,
    byCity: summary.cities,
    freshness,
  };
}

export interface ResolvedRange {
  readonly from: number;
  readonly to: number;
  readonly bucket: AnalyticsBucket;
}

export function resolveRangeOrThrow(query: AnalyticsQuery, nowMs: number): ResolvedRange {
  const problems: FieldProblem[] = [];
  const bucket = query.bucket ?? 'hour';
  if (!(ANALYTICS_BUCKETS as readonly string[]).includes(bucket)) {
    problems.push({ field: 'bucket', detail: 'must be hour or day.' });
  }
  const toGiven = queryTimestamp('to', query.to, problems);
  const fromGiven = queryTimestamp('from', query.from, problems);
  if (problems.length > 0) throw invalidRange(problems);

  const size = bucket as AnalyticsBucket;
  const step = BUCKET_MS[size];
  // Without `to`, the range ends with the bucket now is in, so the newest clicks show.
  const to = toGiven ?? nowMs - mod(nowMs, step) + step;
  const from = fromGiven ?? nowMs - DEFAULT_SPAN_MS[size];
  if (from >= to) throw invalidRange([{ field: 'from', detail: 'must be earlier than to.' }]);
  const alignedFrom = from - mod(from, step);
  const alignedTo = to - mod(to, step) + (mod(to, step) === 0 ? 0 : step);
  if ((alignedTo - alignedFrom) / step > MAX_SERIES_POINTS) {
    throw invalidRange([
      {
        field: 'from',
        detail: `spans more than ${MAX_SERIES_POINTS} ${size}s; narrow the range or use a larger bucket.`,
      },
    ]);
  }
  return { from: alignedFrom, to: alignedTo, bucket: size };
}

function mod(value: number, step: number): number {
  return ((value % step) + step) % step;
}

function invalidRange(fields: FieldProblem[]): HopError {
  return new HopError('invalid-request', fields.map((f) => `${f.field} ${f.detail}`).join(' '), {
    fields,
  });
}

/** Hourly sums as a series of `range`'s buckets, oldest first, empty ones included. */
export function seriesOf(
  hours: readonly { readonly hour: number; readonly clicks: number; readonly botClicks: number }[],
  range: ResolvedRange,
): {
  series: { start: number; clicks: number; botClicks: number }[];
  total: number;
  botTotal: number;
} {
  const step = BUCKET_MS[range.bucket];
  const perBucket = new Map<number, { clicks: number; botClicks: number }>();
  let total = 0;
  let botTotal = 0;
  for (const { hour, clicks, botClicks } of hours) {
    const start = hour - (hour % step);
    const sums = perBucket.get(start);
    if (sums === undefined) perBucket.set(start, { clicks, botClicks });
    else {
      sums.clicks += clicks;
      sums.botClicks += botClicks;
    }
    total += clicks;
    botTotal += botClicks;
  }
  const series: { start: number; clicks: number; botClicks: number }[] = [];
  for (let start = range.from; start < range.to; start += step) {
    series.push({ start, ...(perBucket.get(start) ?? NO_CLICKS) });
  }
  return { series, total, botTotal };
}
