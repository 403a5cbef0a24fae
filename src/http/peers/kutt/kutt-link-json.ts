import { NO_CLICKS, type ClickCounts } from '../../../domain/click-fold.js';
import { DEFAULT_DOMAIN } from '../../../domain/link-domain.js';
import { effectiveState, type Link } from '../../../domain/link.js';
import type { AnalyticsDeps } from '../../../services/analytics/analytics-deps.js';
import { linkClickTotals } from '../../../services/analytics/link-click-totals.js';
import type { ShortUrls } from '../../../services/redirect/domain-routes.js';

/**
 * Kutt's Link object (`utils.sanitize.link` over link.queries.js's columns), as its
 * clients read it: `id` addresses the link, `link` is the whole short URL, `password` only
 * says whether there is one.
 */
export interface KuttLinkJson {
  id: string;
  address: string;
  /** hop has no bans: a disabled link, which no longer redirects, shows as banned (ADR 0134). */
  banned: boolean;
  created_at: string;
  updated_at: string;
  password: boolean;
  /** hop's title (ADR 0134). */
  description: string | null;
  /** The absolute expiry, as Kutt stores it; null: never. */
  expire_in: string | null;
  target: string;
  /** People's clicks (bots are counted apart: ADR 0094). */
  visit_count: number;
  /** The short domain's host; null for the default domain, as Kutt says it. */
  domain: string | null;
  link: string;
}

export function toKuttLinkJson(
  link: Link,
  shortUrls: ShortUrls,
  nowMs: number,
  clicks: ClickCounts,
): KuttLinkJson {
  return {
    id: link.id,
    address: link.code,
    banned: effectiveState(link, nowMs) === 'disabled',
    created_at: new Date(link.createdAt).toISOString(),
    updated_at: new Date(link.updatedAt).toISOString(),
    password: link.smart?.passwordHash != null,
    description: link.title,
    expire_in: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
    target: link.destination,
    visit_count: clicks.clicks,
    domain: link.domain === DEFAULT_DOMAIN ? null : shortUrls.hostOf(link.domain),
    link: shortUrls.shortUrlOf(link.domain, link.code),
  };
}

/** Links as Kutt JSON, their click totals read at once (`linkClickTotals`). */
export async function kuttLinksJson(
  deps: { readonly analytics: AnalyticsDeps; readonly domainRoutes: ShortUrls },
  links: readonly Link[],
  nowMs: number,
): Promise<KuttLinkJson[]> {
  const totals = await linkClickTotals(
    deps.analytics,
    links.map((link) => link.id),
  );
  return links.map((link) =>
    toKuttLinkJson(link, deps.domainRoutes, nowMs, totals.get(link.id) ?? NO_CLICKS),
  );
}
