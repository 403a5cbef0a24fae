import { NO_CLICKS } from '../../../domain/click-fold.js';
import type { Link } from '../../../domain/link.js';
import type { Principal } from '../../../domain/principal.js';
import { linkClickTotals } from '../../../services/analytics/link-click-totals.js';
import { listLinks, MAX_PAGE_SIZE } from '../../../services/links/list-links.js';
import type { AppDeps } from '../../app-deps.js';

/** A link the caller can see, with its people's clicks (/v1's `clicks`). */
export interface CountedLink {
  readonly link: Link;
  readonly clicks: number;
}

/**
 * Every link the caller sees on the domain `host` names, newest first, with its clicks:
 * YOURLS's `stats` and `db-stats` are over one install's whole table (ADR 0135). Read
 * through the same list and totals /v1 uses, a page of 100 at a time, so the cost is
 * linear in the caller's links.
 */
export async function readCallerLinks(
  deps: Pick<AppDeps, 'linkService' | 'analytics'>,
  principal: Principal,
  host: string,
): Promise<readonly CountedLink[]> {
  const counted: CountedLink[] = [];
  let cursor: string | undefined;
  do {
    const page = await listLinks(deps.linkService, principal, {
      domain: host,
      limit: MAX_PAGE_SIZE,
      cursor,
    });
    const totals = await linkClickTotals(
      deps.analytics,
      page.items.map((link) => link.id),
    );
    for (const link of page.items) {
      counted.push({ link, clicks: (totals.get(link.id) ?? NO_CLICKS).clicks });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return counted;
}
