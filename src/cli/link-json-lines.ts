import { NO_CLICKS } from '../domain/click-fold.js';
import type { Link } from '../domain/link.js';
import type { Runtime } from '../main/compose.js';
import { toLinkJson, type LinkJson } from '../main/link-wire-json.js';
import { linkClickTotals } from '../services/analytics/link-click-totals.js';

/** `links` as the API writes them, clicks included: one read of their click totals. */
export async function linksAsJson(runtime: Runtime, links: readonly Link[]): Promise<LinkJson[]> {
  const totals = await linkClickTotals(
    runtime.appDeps.analytics,
    links.map((link) => link.id),
  );
  const now = runtime.linkService.clock.now();
  return links.map((link) =>
    toLinkJson(link, runtime.domainRoutes, now, totals.get(link.id) ?? NO_CLICKS),
  );
}
