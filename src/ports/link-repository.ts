import type { ClickCounts } from '../domain/click-fold.js';
import type { Link, LinkState } from '../domain/link.js';
import type { TagsMode } from '../domain/link-tags.js';

/** An idempotency key claimed together with a new link, in one transaction (SPEC §3). */
export interface IdempotencyClaim {
  readonly owner: string;
  readonly key: string;
  /** Fingerprint of the request; the same key with another fingerprint is refused. */
  readonly requestHash: string;
  /** Records older than this (epoch ms) are void and may be replaced. */
  readonly notBefore: number;
}

export interface IdempotencyRecord {
  readonly owner: string;
  readonly key: string;
  readonly requestHash: string;
  /** The link exactly as the first request created it. */
  readonly link: Link;
  readonly createdAt: number;
}

export type InsertLinkResult =
  | { readonly kind: 'inserted'; readonly link: Link }
  /** Another link (of any state, tombstones included) already holds the code. */
  | { readonly kind: 'code-taken' }
  /** The idempotency key was already claimed by a live record: nothing was inserted. */
  | { readonly kind: 'replayed'; readonly record: IdempotencyRecord };

/**
 * What a list is ordered by (ADR 0097); ties are broken by id, in the same direction.
 * `clicks` are people's; `all_clicks` people's and bots' together (Shlink's `visits`),
 * a store order the peers' lists use and /v1 does not offer.
 */
export type LinkSortKey = 'created' | 'clicks' | 'all_clicks' | 'expires_at';

export interface LinkSort {
  readonly key: LinkSortKey;
  readonly descending: boolean;
}

/**
 * A keyset position: the list continues strictly after this row in the query's order.
 * `value` is the row's sort value (clicks; expiry in epoch ms with "never" as
 * NEVER_EXPIRES_SORT_VALUE); unused when sorting by `created`, where the id is the key.
 */
export interface LinkSortPosition {
  readonly value: number;
  readonly id: string;
}

/** A link that never expires sorts as if it expired last (after any real instant). */
export const NEVER_EXPIRES_SORT_VALUE = Number.MAX_SAFE_INTEGER;

/** Which links a list or a count matches: the filters, without order or paging. */
export interface LinkFilterQuery {
  /** Only this owner's links; `undefined` for all owners (admin). */
  readonly owner?: string | undefined;
  /**
   * Only links on these domains (stored hosts, `''` the default; issue 22); `undefined`
   * for every domain. An empty list matches nothing.
   */
  readonly domains?: readonly string[] | undefined;
  /** Case-insensitive substring of code, destination or title. */
  readonly search?: string | undefined;
  /** Effective state; without it every state but `deleted`. */
  readonly state?: LinkState | undefined;
  /** Only links carrying these tags: any one of them, or all with `tagsMode: 'all'`. */
  readonly tags?: readonly string[] | undefined;
  /** How `tags` combine; default `any` (ADR 0119). */
  readonly tagsMode?: TagsMode | undefined;
  /** Only links carrying none of these tags. */
  readonly excludeTags?: readonly string[] | undefined;
  /** The clock reading that decides which links count as expired. */
  readonly nowMs: number;
}

export interface LinkQuery extends LinkFilterQuery {
  /** Only links whose id sorts before this one (the previous page's last id). */
  readonly beforeId?: string | undefined;
  /** The order; without it newest first (descending id). */
  readonly sort?: LinkSort | undefined;
  /** Only links after this position in `sort`'s order (the previous page's last row). */
  readonly after?: LinkSortPosition | undefined;
  /**
   * Rows of the order to pass over first (a numbered page: the peers' APIs); after any
   * keyset condition. The store still reads the rows it skips, but never returns them.
   */
  readonly offset?: number | undefined;
  readonly limit: number;
}

/** Whole links, as the link use cases create, read, list and change them (SPEC §3, §4). */
export interface LinkRepository {
  /**
   * Inserts `link` if no link on its domain holds its code, and claims `idempotency` if given, atomically:
   * either both are written or neither. Uniqueness is decided by the database.
   */
  insertLink(link: Link, idempotency?: IdempotencyClaim): Promise<InsertLinkResult>;
  /** The live (created at or after `notBefore`) idempotency record for owner and key. */
  findIdempotencyRecord(
    owner: string,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | null>;
  /** The link with this id, in any state, or null. */
  findLinkById(id: string): Promise<Link | null>;
  /** The link holding this code on this domain (a stored host), in any state, or null. */
  findLinkByCode(domain: string, code: string): Promise<Link | null>;
  /**
   * Links matching `query`, newest first (descending id) or in `query.sort`'s order, at
   * most `limit`.
   */
  listLinks(query: LinkQuery): Promise<readonly Link[]>;
  /** How many links `listLinks` would give for these filters, with no limit. */
  countLinks(query: LinkFilterQuery): Promise<number>;
  /**
   * The all-time clicks of the links matching `query`, summed: people's (starting counts
   * included, ADR 0136) and bots' apart, as ClickStore.totals gives them per link.
   */
  sumClicks(query: LinkFilterQuery): Promise<ClickCounts>;
  /**
   * Replaces the stored link with `next` if its version is still `expectedVersion`
   * (compare-and-set). Returns false when someone else changed it first.
   */
  replaceLink(next: Link, expectedVersion: number): Promise<boolean>;
  /**
   * Inserts many links in as few transactions as the backend likes, skipping any whose code
   * is taken. Returns how many were inserted. For seeding and imports, not the API.
   */
  importLinks(links: readonly Link[]): Promise<number>;
}
