import type { ClickCounts } from '../../domain/click-fold.js';
import { isLinkIdShaped } from '../../domain/alias-rules.js';
import { HopError } from '../../domain/errors.js';
import type { Link, LinkState } from '../../domain/link.js';
import { canUseDomain, type Principal } from '../../domain/principal.js';
import { storedDomainOf } from '../../domain/link-domain.js';
import {
  NEVER_EXPIRES_SORT_VALUE,
  type LinkSort,
  type LinkSortPosition,
} from '../../ports/link-repository.js';
import type { TagsMode } from '../../domain/link-tags.js';
import type { LinkServiceDeps } from './link-service-deps.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListLinksInput {
  readonly owner?: string | undefined;
  readonly search?: string | undefined;
  readonly state?: LinkState | undefined;
  /** Only links with any (or, with `tagsMode: 'all'`, all) of these tags (ADR 0119). */
  readonly tags?: readonly string[] | undefined;
  readonly tagsMode?: TagsMode | undefined;
  /** Only links with none of these tags. */
  readonly excludeTags?: readonly string[] | undefined;
  /** Only links on the domain with this host (issue 22). */
  readonly domain?: string | undefined;
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  /** `created`, `clicks` or `expires_at`, `-` first for descending; default `-created`. */
  readonly sort?: LinkSortName | undefined;
  /** All-time clicks of links: needed to continue a list sorted by clicks. */
  readonly clickTotals?:
    ((linkIds: readonly string[]) => Promise<ReadonlyMap<string, ClickCounts>>) | undefined;
}

/** Whose links, on which domains, a caller's list covers. */
export interface ListScope {
  readonly owner: string | undefined;
  readonly domains: readonly string[] | undefined;
}

/**
 * The owner and domains of a caller's list: their own links, or with an admin key every
 * owner's or the one `owner` names; another owner's is forbidden to any other key.
 */
export function listScopeOf(
  deps: LinkServiceDeps,
  principal: Principal,
  input: Pick<ListLinksInput, 'owner' | 'domain'>,
): ListScope {
  if (input.owner !== undefined && !principal.admin && input.owner !== principal.owner) {
    throw new HopError('forbidden', "Only an admin key may list another owner's links.");
  }
  return {
    owner: principal.admin ? input.owner : principal.owner,
    domains: domainsOf(deps, principal, input.domain),
  };
}

/**
 * The domains a list covers (issue 22): the one asked for, within the key's domains (one
 * outside them lists nothing, as if it had no links); else the key's; else every domain.
 */
function domainsOf(
  deps: LinkServiceDeps,
  principal: Principal,
  host: string | undefined,
): readonly string[] | undefined {
  if (host === undefined) return principal.domains === null ? undefined : [...principal.domains];
  const domain = storedDomainOf(host, deps.defaultHost);
  return canUseDomain(principal, domain) ? [domain] : [];
}

/** The orders a list may take (ADR 0097); the HTTP schema lists the same names. */
export const LINK_SORT_NAMES = [
  '-created',
  'created',
  '-clicks',
  'clicks',
  '-expires_at',
  'expires_at',
] as const;
export type LinkSortName = (typeof LINK_SORT_NAMES)[number];
const DEFAULT_SORT: LinkSortName = '-created';

export interface LinkPage {
  readonly items: readonly Link[];
  /** Opaque: hand it back as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * The caller's links, newest first (SPEC §3) or in `sort`'s order; an admin sees every
 * owner's, or one owner's with `owner`. Pages are keyed by the last row seen (its sort
 * value and id), so inserts never shift a page.
 */
export async function listLinks(
  deps: LinkServiceDeps,
  principal: Principal,
  input: ListLinksInput,
): Promise<LinkPage> {
  const scope = listScopeOf(deps, principal, input);
  const limit = checkedLimit(input.limit ?? DEFAULT_PAGE_SIZE);
  const sortName = input.sort ?? DEFAULT_SORT;
  const sort = sortOf(sortName);
  const position = input.cursor === undefined ? undefined : decodeCursor(input.cursor, sortName);
  // One extra row tells whether another page exists without a count query.
  const rows = await deps.links.listLinks({
    ...scope,
    search: input.search,
    state: input.state,
    tags: input.tags,
    tagsMode: input.tagsMode,
    excludeTags: input.excludeTags,
    // The default order keeps its id-only cursor, so cursors handed out before sorting
    // existed still page on.
    ...(sortName === DEFAULT_SORT ? { beforeId: position?.id } : { sort, after: position }),
    limit: limit + 1,
    nowMs: deps.clock.now(),
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  if (rows.length <= limit || last === undefined) return { items, nextCursor: null };
  if (sortName === DEFAULT_SORT) return { items, nextCursor: encode({ before: last.id }) };
  const value = await sortValueOf(sort, last, input.clickTotals);
  return { items, nextCursor: encode({ sort: sortName, value, id: last.id }) };
}

/** A page size from 1 to MAX_PAGE_SIZE, else the caller's mistake. */
export function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    const detail = `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`;
    throw new HopError('invalid-request', detail, { fields: [{ field: 'limit', detail }] });
  }
  return limit;
}

/** The store's order of a sort name: `-` first for descending. */
export function sortOf(name: `${'' | '-'}${LinkSort['key']}`): LinkSort {
  const descending = name.startsWith('-');
  const key = (descending ? name.slice(1) : name) as LinkSort['key'];
  return { key, descending };
}

/** The last row's sort value, as the store compares it (ADR 0097). */
async function sortValueOf(
  sort: LinkSort,
  last: Link,
  clickTotals: ListLinksInput['clickTotals'],
): Promise<number> {
  switch (sort.key) {
    case 'created':
      return 0;
    case 'expires_at':
      return last.expiresAt ?? NEVER_EXPIRES_SORT_VALUE;
    case 'all_clicks':
      // No /v1 sort name gives this order (LINK_SORT_NAMES), so no cursor is made for it.
      throw new Error('a cursor list is never sorted by all clicks');
    case 'clicks': {
      if (clickTotals === undefined) throw new Error('listing by clicks needs clickTotals');
      // People's clicks, as the stores sort by (bots are apart: ADR 0094).
      return (await clickTotals([last.id])).get(last.id)?.clicks ?? 0;
    }
  }
}

function encode(cursor: object): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The position a cursor names; refused when it was made for another order. */
function decodeCursor(cursor: string, sortName: LinkSortName): LinkSortPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) {
      const fields = parsed as Record<string, unknown>;
      if (sortName === DEFAULT_SORT) {
        const before = fields['before'];
        if (typeof before === 'string' && isLinkIdShaped(before)) return { value: 0, id: before };
      } else {
        const { sort, value, id } = fields;
        if (
          sort === sortName &&
          typeof value === 'number' &&
          Number.isSafeInteger(value) &&
          typeof id === 'string' &&
          isLinkIdShaped(id)
        ) {
          return { value, id };
        }
      }
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  const detail = 'cursor is not one this service handed out for this sort.';
  throw new HopError('invalid-cursor', detail, { fields: [{ field: 'cursor', detail }] });
}
