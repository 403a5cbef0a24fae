import type { ClickCounts } from '../../domain/click-fold.js';
import type { AnalyticsDeps } from './analytics-deps.js';
import { MAX_PAGE_SIZE } from '../links/list-links.js';

/**
 * All-time clicks of each link (a link's `clicks` and `bot_clicks`), one read for a whole
 * page.
 */
export function linkClickTotals(
  deps: AnalyticsDeps,
  linkIds: readonly string[],
): Promise<ReadonlyMap<string, ClickCounts>> {
  return deps.clicks.totals(linkIds);
}

/** All-time clicks of any number of links, read a list page's worth of ids at a time. */
export async function manyLinkClickTotals(
  deps: AnalyticsDeps,
  linkIds: readonly string[],
): Promise<ReadonlyMap<string, ClickCounts>> {
  const totals = new Map<string, ClickCounts>();
  for (let start = 0; start < linkIds.length; start += MAX_PAGE_SIZE) {
    const read = await linkClickTotals(deps, linkIds.slice(start, start + MAX_PAGE_SIZE));
    for (const [id, counts] of read) totals.set(id, counts);
  }
  return totals;
}
