import { BUSIEST_WINDOW_MS } from '../../clicks/busiest-ranking.js';
import { HOUR_MS, hourOf } from '../../domain/click-fold.js';
import type { Link } from '../../domain/link.js';
import type { ClickStore } from '../../ports/click-store.js';
import type { Clock } from '../../ports/clock.js';
import type { LinkCountSnapshot } from '../../ports/link-census.js';
import type { LinkRepository } from '../../ports/link-repository.js';

const DAY_MS = 24 * HOUR_MS;
const BUSIEST = 10;

/** The redirect path over the last seconds, as the service's own metrics saw it. */
export interface RecentRedirectRate {
  readonly windowSeconds: number;
  readonly perSecond: number;
  readonly p99Ms: number | null;
}

export interface DashboardDeps {
  readonly links: Pick<LinkRepository, 'findLinkById'>;
  readonly clicks: ClickStore;
  readonly clock: Clock;
  /** Links by state as of the newest census in the store (ADR 0100). */
  readonly linkCounts: () => Promise<LinkCountSnapshot>;
  readonly recentRedirects: () => RecentRedirectRate;
}

export interface Dashboard {
  readonly links: LinkCountSnapshot;
  /** Since midnight UTC, and over the last 7 days (whole hours). */
  readonly clicksToday: number;
  readonly clicksWeek: number;
  /** The links with the most clicks over the last 7 days, most first. */
  readonly busiest: readonly { readonly link: Link; readonly clicks: number }[];
  /** When the busiest links were ranked (where clicks are folded); null before the first. */
  readonly rankedAt: number | null;
  readonly redirects: RecentRedirectRate;
  /** Time of the newest click folded in; null before any. */
  readonly freshness: number | null;
}

/**
 * What the console's dashboard shows (ADR 0068), from reads of a few rows each: link counts
 * by state from the census's snapshot in the store (ADR 0100), clicks from the per-hour totals each fold keeps, the busiest links from
 * the ranking made where clicks are folded. A dashboard left open never makes the store
 * read click_hourly, whatever the corpus.
 */
export async function readDashboard(deps: DashboardDeps): Promise<Dashboard> {
  const now = deps.clock.now();
  const nextHour = hourOf(now) + HOUR_MS;
  const midnight = now - (now % DAY_MS);
  const [linkCounts, clicksToday, clicksWeek, ranking, freshness] = await Promise.all([
    deps.linkCounts(),
    deps.clicks.clicksBetween(midnight, nextHour),
    // The same 7 × 24 whole hours the busiest links are ranked over.
    deps.clicks.clicksBetween(nextHour - BUSIEST_WINDOW_MS, nextHour),
    deps.clicks.busiest(),
    deps.clicks.freshness(),
  ]);
  const links = await Promise.all(
    ranking.links.map(({ linkId }) => deps.links.findLinkById(linkId)),
  );
  const busiest: { link: Link; clicks: number }[] = [];
  ranking.links.forEach(({ clicks }, index) => {
    const link = links[index];
    // A reclaimed link's clicks stay in the aggregates; the link itself is gone.
    if (link !== null && link !== undefined && busiest.length < BUSIEST)
      busiest.push({ link, clicks });
  });
  return {
    links: linkCounts,
    clicksToday,
    clicksWeek,
    busiest,
    rankedAt: ranking.rankedAt,
    redirects: deps.recentRedirects(),
    freshness,
  };
}
