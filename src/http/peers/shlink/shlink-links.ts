import { NO_CLICKS, type ClickCounts } from '../../../domain/click-fold.js';
import { isHopError } from '../../../domain/errors.js';
import type { Link } from '../../../domain/link.js';
import type { TagsMode } from '../../../domain/link-tags.js';
import type { Principal } from '../../../domain/principal.js';
import { manyLinkClickTotals } from '../../../services/analytics/link-click-totals.js';
import { getLink } from '../../../services/links/get-link.js';
import { listLinks, MAX_PAGE_SIZE } from '../../../services/links/list-links.js';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { shortUrlJson } from './shlink-json.js';
import { shortUrlNotFound } from './shlink-problem.js';

/** What narrows a walk of the caller's links, in hop's terms. */
export interface LinkFilter {
  readonly search?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly tagsMode?: TagsMode | undefined;
  readonly excludeTags?: readonly string[] | undefined;
  readonly domain?: string | undefined;
}

/** `?domain=` of a Shlink route: absent, empty or `DEFAULT` name the default domain. */
export function domainParam(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value !== 'DEFAULT' ? value : undefined;
}

/**
 * The caller's link with this short code on that domain, through hop's lookup (owner keys
 * see only their own, as on /v1); anything it cannot see is Shlink's `short-url-not-found`.
 */
export async function findShortUrl(
  deps: AppDeps,
  principal: Principal,
  shortCode: string,
  domain: string | undefined,
): Promise<Link> {
  try {
    const link = await getLink(deps.linkService, principal, shortCode, domain);
    // An id names a link on /v1; on Shlink only a code does.
    if (link.code === shortCode) return link;
  } catch (error) {
    if (!isHopError(error) || error.kind !== 'not-found') throw error;
  }
  throw shortUrlNotFound(shortCode, domain);
}

/** The short URL a `/short-urls/:shortCode?domain=` request names, as `findShortUrl` finds it. */
export function shortUrlOfRequest(
  deps: AppDeps,
  request: FastifyRequest<{ Params: { shortCode: string }; Querystring: Record<string, unknown> }>,
): Promise<Link> {
  return findShortUrl(
    deps,
    principalOf(request),
    request.params.shortCode,
    domainParam(request.query['domain']),
  );
}

/**
 * Every link the caller can see that matches `filter`, newest first, through hop's list a
 * page at a time: Shlink numbers pages and counts them, hop pages by cursor (ADR 0133).
 */
export async function walkLinks(
  deps: AppDeps,
  principal: Principal,
  filter: LinkFilter,
): Promise<Link[]> {
  const links: Link[] = [];
  let cursor: string | undefined;
  do {
    const page = await listLinks(deps.linkService, principal, {
      ...filter,
      limit: MAX_PAGE_SIZE,
      cursor,
    });
    links.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return links;
}

/** The all-time clicks of many links. */
export function clickTotalsOf(
  deps: AppDeps,
  links: readonly Link[],
): Promise<ReadonlyMap<string, ClickCounts>> {
  return manyLinkClickTotals(
    deps.analytics,
    links.map((link) => link.id),
  );
}

/** Links as Shlink ShortUrls, with their click totals. */
export async function shortUrlsJson(deps: AppDeps, links: readonly Link[]) {
  const totals = await clickTotalsOf(deps, links);
  return links.map((link) =>
    shortUrlJson(link, deps.domainRoutes, totals.get(link.id) ?? NO_CLICKS),
  );
}
