import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import { listLinks, MAX_PAGE_SIZE } from './list-links.js';

/**
 * The caller's own newest active link on `domain` (a host, as /v1's `domain` filter takes
 * it) whose destination is exactly `destination` (already normalised by hop's rules), or
 * null. The peers' "give me the link I already have" (YOURLS's unique URLs, Kutt's `reuse`:
 * issue 24), through the list's search, which matches substrings, so each page is
 * filtered exactly.
 */
export async function findOwnLinkTo(
  deps: LinkServiceDeps,
  principal: Principal,
  destination: string,
  domain: string,
): Promise<Link | null> {
  let cursor: string | undefined;
  do {
    const page = await listLinks(deps, principal, {
      owner: principal.owner,
      domain,
      state: 'active',
      search: destination,
      limit: MAX_PAGE_SIZE,
      cursor,
    });
    const match = page.items.find((link) => link.destination === destination);
    if (match !== undefined) return match;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return null;
}
