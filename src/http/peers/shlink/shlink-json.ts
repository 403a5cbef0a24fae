import type { ClickCounts } from '../../../domain/click-fold.js';
import type { Visit } from '../../../domain/click-visits.js';
import { DEFAULT_DOMAIN } from '../../../domain/link-domain.js';
import type { Link } from '../../../domain/link.js';
import type { DomainRoutes } from '../../../services/redirect/domain-routes.js';

/** Shlink's `visitsSummary`: people and bots apart, as hop counts them (ADR 0094). */
export interface ShlinkVisitsSummary {
  readonly total: number;
  readonly nonBots: number;
  readonly bots: number;
}

export function visitsSummaryOf(counts: ClickCounts): ShlinkVisitsSummary {
  return {
    total: counts.clicks + counts.botClicks,
    nonBots: counts.clicks,
    bots: counts.botClicks,
  };
}

/** Shlink's dates: ISO 8601 to the second with an offset (`toAtomString`), here always UTC. */
export function atomDate(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * A hop link as Shlink's ShortUrl (all twelve members): `maxVisits` is the smart link's
 * `max_clicks`, `validUntil` its expiry, `forwardQuery` its `forward_query`; hop has no
 * `validSince`, so it is always null.
 */
export function shortUrlJson(link: Link, routes: DomainRoutes, counts: ClickCounts) {
  return {
    shortCode: link.code,
    shortUrl: routes.shortUrlOf(link.domain, link.code),
    longUrl: link.destination,
    dateCreated: atomDate(link.createdAt),
    visitsSummary: visitsSummaryOf(counts),
    tags: [...link.tags],
    meta: {
      validSince: null,
      validUntil: link.expiresAt === null ? null : atomDate(link.expiresAt),
      maxVisits: link.smart?.maxClicks ?? null,
    },
    domain: link.domain === DEFAULT_DOMAIN ? null : link.domain,
    title: link.title,
    crawlable: link.crawlable,
    forwardQuery: link.smart?.forwardQuery ?? false,
    hasRedirectRules: (link.smart?.rules.length ?? 0) > 0,
  };
}

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string | null {
  try {
    return COUNTRY_NAMES.of(code) ?? null;
  } catch {
    return null;
  }
}

/**
 * One visit of hop's log as Shlink's Visit. hop keeps a visit's classes, never its user
 * agent or whole referrer (ADR 0125): `userAgent` is empty and `referer` the referrer's
 * host; a visit hop could not place has no `visitLocation`.
 */
export function visitJson(visit: Visit, shortUrl: string) {
  return {
    referer: visit.referrerHost ?? '',
    date: atomDate(visit.at),
    userAgent: '',
    visitLocation:
      visit.country === null && visit.city === null
        ? null
        : {
            countryCode: visit.country,
            countryName: visit.country === null ? null : countryName(visit.country),
            regionName: null,
            cityName: visit.city,
            latitude: null,
            longitude: null,
            timezone: null,
            isEmpty: false,
          },
    potentialBot: visit.bot,
    visitedUrl: shortUrl,
    redirectUrl: null,
  };
}
