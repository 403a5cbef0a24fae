import { effectiveState, type Link } from '../../../domain/link.js';
import type { Principal } from '../../../domain/principal.js';
import {
  listLinks,
  MAX_PAGE_SIZE,
  type ListLinksInput,
} from '../../../services/links/list-links.js';
import type { LinkServiceDeps } from '../../../services/links/link-service-deps.js';
import { listLinkRange } from '../../../services/links/list-link-page.js';

/** A page as Kutt pages: by offset, with the total of every match. */
export interface OffsetPage {
  readonly items: readonly Link[];
  readonly total: number;
}

type ListFilter = Pick<ListLinksInput, 'owner' | 'search'>;

/**
 * Every link `listLinks` gives for `filter`, newest first, page after page of its cursor:
 * `reuse` looks for one exact destination among those hop's search narrows to.
 */
async function* eachListedLink(
  deps: LinkServiceDeps,
  principal: Principal,
  filter: ListFilter,
): AsyncGenerator<Link> {
  let cursor: string | undefined;
  do {
    const page = await listLinks(deps, principal, { ...filter, limit: MAX_PAGE_SIZE, cursor });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * `limit` links after the first `skip` of the caller's list, newest first, and how many it
 * has in all: one count and one page read by the store (listLinkPage), however long the
 * list (ADR 0134).
 */
export async function pageByOffset(
  deps: LinkServiceDeps,
  principal: Principal,
  filter: ListFilter,
  skip: number,
  limit: number,
): Promise<OffsetPage> {
  return listLinkRange(deps, principal, { ...filter, offset: skip, count: limit });
}

/**
 * Kutt's `reuse`: the caller's own link to exactly `destination` (as hop stores it) on
 * `domain` (a stored host), if one still redirects; hop's search narrows the list to
 * links whose destination holds the text, and the match is then exact.
 */
export async function findReusableLink(
  deps: LinkServiceDeps,
  principal: Principal,
  destination: string,
  domain: string,
): Promise<Link | null> {
  const filter = { owner: principal.owner, search: destination };
  const nowMs = deps.clock.now();
  for await (const link of eachListedLink(deps, principal, filter)) {
    if (
      link.owner === principal.owner &&
      link.destination === destination &&
      link.domain === domain &&
      effectiveState(link, nowMs) === 'active'
    ) {
      return link;
    }
  }
  return null;
}
