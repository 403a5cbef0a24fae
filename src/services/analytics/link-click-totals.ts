import type { ClickCounts } from '../../domain/click-fold.js';
import type { AnalyticsDeps } from './analytics-deps.js';

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
