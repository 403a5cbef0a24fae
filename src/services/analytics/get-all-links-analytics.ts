import { isLinkIdShaped } from '../../domain/alias-rules.js';
import { OTHER_REFERRER } from '../../domain/click-event.js';
import { HopError } from '../../domain/errors.js';
import { DEFAULT_DOMAIN, normaliseDomainHost, storedDomainOf } from '../../domain/link-domain.js';
import type { TagsMode } from '../../domain/link-tags.js';
import { canUseDomain, type Principal } from '../../domain/principal.js';
import type { LinkSelection, TopLink } from '../../ports/click-analytics-queries.js';
import type { DimensionCount } from '../../ports/click-store.js';
import { isVisibleTo } from '../links/find-visible-link.js';
import type { AnalyticsDeps } from './analytics-deps.js';
import {
  resolveRangeOrThrow,
  seriesOf,
  type AnalyticsQuery,
  type LinkAnalytics,
} from './get-link-analytics.js';

/** The busiest links answered (ADR 0126). */
export const TOP_LINKS = 10;
/** Values per breakdown at most; the rest are summed as `other` (ADR 0126). */
export const MAX_BREAKDOWN_VALUES = 50;
/** Links one `link` filter may name. */
export const MAX_LINK_FILTER = 100;

export interface AllLinksAnalyticsQuery extends Omit<AnalyticsQuery, 'domain'> {
  /** Only links on the domain with this host (the default domain by HOP_PUBLIC_URL's host). */
  readonly domain?: string | undefined;
  /** Only links with any (or, with `tagsMode: 'all'`, all) of these tags. */
  readonly tags?: readonly string[] | undefined;
  readonly tagsMode?: TagsMode | undefined;
  /** Only these links (ids). */
  readonly linkIds?: readonly string[] | undefined;
}

/** As a link's analytics (without cities), with the links that had the most clicks. */
export type AllLinksAnalytics = Omit<LinkAnalytics, 'byCity'> & {
  readonly topLinks: readonly TopLink[];
};

/**
 * The caller's clicks across all the links it can see (issue 23, `GET /v1/analytics`): an
 * owner's key its owner's links, a key limited to domains those domains' links, an admin's
 * every link; narrowed by domain, tags and link ids.
 */
export async function getAllLinksAnalytics(
  deps: AnalyticsDeps,
  principal: Principal,
  query: AllLinksAnalyticsQuery,
): Promise<AllLinksAnalytics> {
  const range = resolveRangeOrThrow(query, deps.clock.now());
  const selection: LinkSelection = {
    owner: principal.admin ? undefined : principal.owner,
    domains: await domainsOrThrow(deps, principal, query.domain),
    tags: query.tags,
    tagsMode: query.tagsMode,
    linkIds: await linkIdsOrThrow(deps, principal, query.linkIds),
  };
  const [summary, freshness] = await Promise.all([
    deps.acrossLinks.summarizeLinks(selection, range.from, range.to, {
      topLinks: TOP_LINKS,
      maxValues: MAX_BREAKDOWN_VALUES,
    }),
    deps.clicks.freshness(),
  ]);
  const { series, total, botTotal } = seriesOf(summary.hours, range);
  return {
    ...range,
    total,
    botClicks: botTotal,
    series,
    topLinks: summary.topLinks,
    // Cut at MAX_BREAKDOWN_VALUES: the rest as `other`, so each still sums to total.
    byCountry: withOther(summary.countries, total),
    byDevice: withOther(summary.devices, total),
    byReferrer: withOther(summary.referrers, total),
    byBrowser: summary.browsers,
    byOs: summary.oses,
    freshness,
  };
}

/**
 * The stored hosts a `domain` filter covers: the one named, which must exist and be one
 * the key may use (else 422 on `domain`, worded as a domain that does not exist: ADR
 * 0118); without one, the key's domains, or every domain.
 */
async function domainsOrThrow(
  deps: AnalyticsDeps,
  principal: Principal,
  host: string | undefined,
): Promise<readonly string[] | undefined> {
  if (host === undefined) return principal.domains === null ? undefined : [...principal.domains];
  const named = storedDomainOf(host, deps.defaultHost);
  // Not a host name at all: 422 on `domain` saying what one looks like.
  const stored = named === DEFAULT_DOMAIN ? named : normaliseDomainHost(named, 'domain');
  const exists = stored === DEFAULT_DOMAIN || (await deps.domains.findDomain(stored)) !== null;
  if (!exists || !canUseDomain(principal, stored)) {
    const detail = `there is no domain ${JSON.stringify(host)}.`;
    throw new HopError('invalid-request', `domain: ${detail}`, {
      fields: [{ field: 'domain', detail }],
    });
  }
  return [stored];
}

/** Each id must name a link the caller can see; else 422 on `link`, the same for every miss. */
async function linkIdsOrThrow(
  deps: AnalyticsDeps,
  principal: Principal,
  ids: readonly string[] | undefined,
): Promise<readonly string[] | undefined> {
  if (ids === undefined || ids.length === 0) return undefined;
  const unique = [...new Set(ids)];
  const links = await Promise.all(
    unique.map((id) => (isLinkIdShaped(id) ? deps.links.findLinkById(id) : Promise.resolve(null))),
  );
  const missing = unique.find((_, index) => !isVisibleTo(principal, links[index] ?? null));
  if (missing !== undefined) {
    const detail = `no link has the id ${JSON.stringify(missing)}.`;
    throw new HopError('invalid-request', `link: ${detail}`, {
      fields: [{ field: 'link', detail }],
    });
  }
  return unique;
}

/** `rows` with what they leave of `total` added to `other` (created if need be). */
function withOther(rows: readonly DimensionCount[], total: number): readonly DimensionCount[] {
  const shown = rows.reduce((sum, row) => sum + row.clicks, 0);
  const rest = total - shown;
  if (rest <= 0) return rows;
  const other = rows.find((row) => row.value === OTHER_REFERRER);
  const merged = rows.map((row) =>
    row === other ? { value: row.value, clicks: row.clicks + rest } : row,
  );
  if (other === undefined) merged.push({ value: OTHER_REFERRER, clicks: rest });
  return merged.sort((a, b) => b.clicks - a.clicks);
}
