import { NO_CLICKS } from '../../../domain/click-fold.js';
import type { Link } from '../../../domain/link.js';
import type { Principal } from '../../../domain/principal.js';
import { manyLinkClickTotals } from '../../../services/analytics/link-click-totals.js';
import {
  linkTotals,
  listLinkRange,
  type LinkPageSortName,
} from '../../../services/links/list-link-page.js';
import type { AppDeps } from '../../app-deps.js';

type Deps = Pick<AppDeps, 'linkService' | 'analytics'>;

/** A link the caller can see, with its people's clicks (/v1's `clicks`). */
export interface CountedLink {
  readonly link: Link;
  readonly clicks: number;
}

/** YOURLS's `stats`/`db-stats` totals: the caller's links on one domain and their clicks. */
export interface CallerTotals {
  readonly links: number;
  /** People's clicks, starting counts included (ADR 0136). */
  readonly clicks: number;
}

/**
 * How many links the caller sees on the domain `host` names, and their clicks: YOURLS's
 * totals are over one install's whole table (ADR 0135), counted and summed by the store
 * without reading a link.
 */
export async function callerTotals(
  deps: Deps,
  principal: Principal,
  host: string,
): Promise<CallerTotals> {
  const totals = await linkTotals(deps.linkService, principal, { domain: host });
  return { links: totals.links, clicks: totals.clicks.clicks };
}

/**
 * `count` of the caller's links on `host` from `offset` in `sort`'s order, with their
 * clicks: one store page (or a few, past MAX_PAGE_SIZE) and the totals of those links only.
 */
export async function readCallerLinks(
  deps: Deps,
  principal: Principal,
  host: string,
  range: { sort: LinkPageSortName; offset: number; count: number },
): Promise<readonly CountedLink[]> {
  const { items } = await listLinkRange(deps.linkService, principal, {
    domain: host,
    sort: range.sort,
    offset: Math.min(range.offset, Number.MAX_SAFE_INTEGER),
    count: range.count,
  });
  const totals = await manyLinkClickTotals(
    deps.analytics,
    items.map((link) => link.id),
  );
  return items.map((link) => ({ link, clicks: (totals.get(link.id) ?? NO_CLICKS).clicks }));
}
