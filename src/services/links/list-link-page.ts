import type { ClickCounts } from '../../domain/click-fold.js';
import { HopError } from '../../domain/errors.js';
import type { Link } from '../../domain/link.js';
import type { Principal } from '../../domain/principal.js';
import type { LinkFilterQuery, LinkSortKey } from '../../ports/link-repository.js';
import type { LinkServiceDeps } from './link-service-deps.js';
import {
  checkedLimit,
  listScopeOf,
  MAX_PAGE_SIZE,
  sortOf,
  type ListLinksInput,
} from './list-links.js';

/** What narrows a numbered list: /v1's list filters, without its cursor and size. */
export type LinkPageFilter = Pick<
  ListLinksInput,
  'owner' | 'search' | 'state' | 'tags' | 'tagsMode' | 'excludeTags' | 'domain'
>;

/**
 * The orders of a numbered page: /v1's (ADR 0097) and `all_clicks`, people's and bots'
 * clicks together, which Shlink's `visits` order asks for.
 */
export type LinkPageSortName = `${'' | '-'}${LinkSortKey}`;

export interface ListLinkPageInput extends LinkPageFilter {
  /** Default `-created`: newest first. */
  readonly sort?: LinkPageSortName | undefined;
  /** Links of the order to pass over: a whole number, 0 for the first page. */
  readonly offset: number;
  /** From 1 to MAX_PAGE_SIZE, as /v1's `limit`. */
  readonly limit: number;
}

/** A page numbered by offset, as the peers' APIs page (Shlink, Kutt, YOURLS). */
export interface NumberedLinkPage {
  readonly items: readonly Link[];
  /** Every link the filter matches, on any page. */
  readonly total: number;
}

/**
 * The caller's links matching `input`, `limit` of them after the first `offset` in `sort`'s
 * order, and how many match in all: one count and one page read by the store, however many
 * links the caller has. Owner and domains are scoped as `listLinks` scopes them. /v1 keeps
 * its cursors (inserts never shift them); this is for APIs that number their pages.
 */
export async function listLinkPage(
  deps: LinkServiceDeps,
  principal: Principal,
  input: ListLinkPageInput,
): Promise<NumberedLinkPage> {
  const filter = filterQueryOf(deps, principal, input);
  const limit = checkedLimit(input.limit);
  const offset = input.offset;
  assertOffset(offset);
  const total = await deps.links.countLinks(filter);
  // A page past the end is empty: no need to have the store pass over every row to see so.
  if (offset >= total) return { items: [], total };
  const items = await deps.links.listLinks({
    ...filter,
    sort: sortOf(input.sort ?? '-created'),
    offset,
    limit,
  });
  return { items, total };
}

/** How many links match `filter` for the caller, and their all-time clicks summed. */
export interface LinkTotals {
  readonly links: number;
  /** People's (starting counts included, ADR 0136) and bots' apart. */
  readonly clicks: ClickCounts;
}

/**
 * The caller's links matching `filter`, counted, and their clicks summed by the store:
 * totals without reading a link (YOURLS's `db-stats`, Shlink's visits overview).
 */
export async function linkTotals(
  deps: LinkServiceDeps,
  principal: Principal,
  filter: LinkPageFilter,
): Promise<LinkTotals> {
  const query = filterQueryOf(deps, principal, filter);
  const [links, clicks] = await Promise.all([
    deps.links.countLinks(query),
    deps.links.sumClicks(query),
  ]);
  return { links, clicks };
}

/** The all-time clicks of the caller's links matching `filter`, summed by the store. */
export async function linkClicks(
  deps: LinkServiceDeps,
  principal: Principal,
  filter: LinkPageFilter,
): Promise<ClickCounts> {
  return deps.links.sumClicks(filterQueryOf(deps, principal, filter));
}

function filterQueryOf(
  deps: LinkServiceDeps,
  principal: Principal,
  filter: LinkPageFilter,
): LinkFilterQuery {
  return {
    ...listScopeOf(deps, principal, filter),
    search: filter.search,
    state: filter.state,
    tags: filter.tags,
    tagsMode: filter.tagsMode,
    excludeTags: filter.excludeTags,
    nowMs: deps.clock.now(),
  };
}

/**
 * Like `listLinkPage`, for a range longer than a page: `count` links (null: all to the end)
 * from `offset`, one count, then MAX_PAGE_SIZE at a time. Only a caller asking for every
 * link reads every link.
 */
export async function listLinkRange(
  deps: LinkServiceDeps,
  principal: Principal,
  input: Omit<ListLinkPageInput, 'limit'> & { readonly count: number | null },
): Promise<NumberedLinkPage> {
  const filter = filterQueryOf(deps, principal, input);
  assertOffset(input.offset);
  const total = await deps.links.countLinks(filter);
  const sort = sortOf(input.sort ?? '-created');
  const end = input.count === null ? total : Math.min(total, input.offset + input.count);
  const items: Link[] = [];
  for (let offset = input.offset; offset < end;) {
    const limit = Math.min(MAX_PAGE_SIZE, end - offset);
    const page = await deps.links.listLinks({ ...filter, sort, offset, limit });
    if (page.length === 0) break;
    items.push(...page);
    offset += page.length;
  }
  return { items, total };
}

function assertOffset(offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    const detail = 'offset must be a whole number, 0 or more.';
    throw new HopError('invalid-request', detail, { fields: [{ field: 'offset', detail }] });
  }
}
