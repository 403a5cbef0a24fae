import type { AnalyticsDeps } from './analytics-deps.js';

/** All-time clicks of each link (a link's `clicks`), one read for a whole page. */
export function linkClickTotals(
  deps: AnalyticsDeps,
  linkIds: readonly string[],
): Promise<ReadonlyMap<string, number>> {
  return deps.clicks.totals(linkIds);
}
