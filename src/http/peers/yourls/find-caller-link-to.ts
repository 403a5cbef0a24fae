import type { Link } from '../../../domain/link.js';
import { listLinks, MAX_PAGE_SIZE } from '../../../services/links/list-links.js';
import type { YourlsCall } from './yourls-call.js';

/**
 * The caller's own newest active link on the call's domain whose destination is exactly
 * `destination` (already normalised by hop's rules), or null: YOURLS_UNIQUE_URLS through
 * /v1's list and its search, which matches substrings, so each page is filtered exactly.
 */
export async function findCallerLinkTo(
  call: YourlsCall,
  destination: string,
): Promise<Link | null> {
  let cursor: string | undefined;
  do {
    const page = await listLinks(call.deps.linkService, call.principal, {
      owner: call.principal.owner,
      domain: call.host,
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
