import { HOUR_MS } from '../../../domain/click-fold.js';
import type { Principal } from '../../../domain/principal.js';
import type { AnalyticsDeps } from '../../../services/analytics/analytics-deps.js';
import {
  getLinkAnalytics,
  type AnalyticsBucket,
  type ClickCount,
  type LinkAnalytics,
} from '../../../services/analytics/get-link-analytics.js';

const DAY_MS = 24 * HOUR_MS;

/** Kutt's fixed browser and OS names (`utils.getInitStats`): each is listed, zeros too. */
const KUTT_BROWSERS = ['chrome', 'edge', 'firefox', 'ie', 'opera', 'other', 'safari'] as const;
const KUTT_OSES = ['android', 'ios', 'linux', 'macos', 'other', 'windows'] as const;

interface NameValue {
  name: string;
  value: number;
}

/** One period of Kutt's stats (`visit.queries.js` `find`): views oldest first. */
export interface KuttPeriodStats {
  stats: { browser: NameValue[]; os: NameValue[]; country: NameValue[]; referrer: NameValue[] };
  views: number[];
  total: number;
}

export interface KuttStats {
  lastYear: KuttPeriodStats;
  lastDay: KuttPeriodStats;
  lastMonth: KuttPeriodStats;
  lastWeek: KuttPeriodStats;
  updatedAt: string;
}

/**
 * A link's stats as Kutt shapes them, from hop's analytics service (the one /v1/links/{id}/
 * analytics answers from): the last 24 hours by hour, 7 and 30 days by day (UTC), and 12
 * calendar months; people's clicks only, as `visit_count`.
 */
export async function kuttLinkStats(
  deps: AnalyticsDeps,
  principal: Principal,
  linkId: string,
): Promise<KuttStats> {
  const now = deps.clock.now();
  const hourStart = now - (now % HOUR_MS);
  const dayEnd = now - (now % DAY_MS) + DAY_MS;
  const yearFrom = monthStart(now, -11);
  const read = (bucket: AnalyticsBucket, from: number, to: number) =>
    getLinkAnalytics(deps, principal, linkId, { bucket, from: iso(from), to: iso(to) });
  const [lastDay, lastWeek, lastMonth, lastYear] = await Promise.all([
    read('hour', hourStart - 23 * HOUR_MS, hourStart + HOUR_MS),
    read('day', dayEnd - 7 * DAY_MS, dayEnd),
    read('day', dayEnd - 30 * DAY_MS, dayEnd),
    read('day', yearFrom, dayEnd),
  ]);
  return {
    lastYear: periodOf(lastYear, monthlyViews(lastYear, yearFrom)),
    lastDay: periodOf(
      lastDay,
      lastDay.series.map((point) => point.clicks),
    ),
    lastMonth: periodOf(
      lastMonth,
      lastMonth.series.map((point) => point.clicks),
    ),
    lastWeek: periodOf(
      lastWeek,
      lastWeek.series.map((point) => point.clicks),
    ),
    updatedAt: iso(now),
  };
}

function periodOf(analytics: LinkAnalytics, views: number[]): KuttPeriodStats {
  return {
    stats: {
      browser: fixedNames(KUTT_BROWSERS, analytics.byBrowser),
      os: fixedNames(KUTT_OSES, analytics.byOs),
      country: byValue(analytics.byCountry.map((row) => named(row.value, row.clicks))),
      referrer: byValue(analytics.byReferrer.map((row) => named(row.value, row.clicks))),
    },
    views,
    total: analytics.total,
  };
}

/** hop's classes under Kutt's names: a class Kutt has no name for (samsung, chromeos) is other. */
function fixedNames(names: readonly string[], rows: readonly ClickCount[]): NameValue[] {
  const counts = new Map<string, number>(names.map((name) => [name, 0]));
  for (const row of rows) {
    const name = counts.has(row.value) ? row.value : 'other';
    counts.set(name, (counts.get(name) ?? 0) + row.clicks);
  }
  return byValue([...counts].map(([name, value]) => named(name, value)));
}

function named(name: string, value: number): NameValue {
  return { name, value };
}

/** Most first, as Kutt's `statsObjectToArray` sorts; ties keep their order. */
function byValue(rows: NameValue[]): NameValue[] {
  return rows.sort((a, b) => b.value - a.value);
}

/** Daily clicks summed into the 12 calendar months (UTC) from `from`, oldest first. */
function monthlyViews(analytics: LinkAnalytics, from: number): number[] {
  const views = new Array<number>(12).fill(0);
  const first = monthIndex(from);
  for (const point of analytics.series) {
    const index = monthIndex(point.start) - first;
    if (index >= 0 && index < 12) views[index] = (views[index] ?? 0) + point.clicks;
  }
  return views;
}

function monthIndex(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The first instant of the UTC month `offset` months from the one `ms` is in. */
function monthStart(ms: number, offset: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
