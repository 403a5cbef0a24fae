import type { CachedLink } from '../domain/cache-entry.js';
import type { Link, LinkState } from '../domain/link.js';

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

export interface LinkQuery {
  /** Only this owner's links; `undefined` for all owners (admin). */
  readonly owner?: string | undefined;
  /** Case-insensitive substring of code, destination or title. */
  readonly search?: string | undefined;
  /** Effective state; without it every state but `deleted`. */
  readonly state?: LinkState | undefined;
  readonly tag?: string | undefined;
  /** Only links whose id sorts before this one (the previous page's last id). */
  readonly beforeId?: string | undefined;
  readonly limit: number;
  /** The clock reading that decides which links count as expired. */
  readonly nowMs: number;
}

/** One page of a scan over every code the store holds. */
export interface CodeScan {
  readonly codes: readonly string[];
  /** Where the next scan continues (opaque). */
  readonly cursor: string | null;
}

export interface LinkStore {
  /**
   * Inserts `link` if no link holds its code, and claims `idempotency` if given, atomically:
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
  /** The link holding this code, in any state, or null. */
  findLinkByCode(code: string): Promise<Link | null>;
  /**
   * What a redirect needs of the link holding this code (any state), as L1 keeps it, or
   * null: the redirect's store read, which reads no more than it must. `primary`: read
   * where writes go, never a replica that may not have replayed the latest change.
   */
  findRedirectByCode(
    code: string,
    options?: { readonly primary?: boolean },
  ): Promise<CachedLink | null>;
  /** Links matching `query`, newest first (descending id), at most `limit`. */
  listLinks(query: LinkQuery): Promise<readonly Link[]>;
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
  /**
   * Codes of links of every state, at most `limit`, continuing from `cursor` (null: from
   * the start). Paging on from each returned cursor until a page comes back short returns
   * every code the store held when the scan began; a link committed later is found by a
   * later scan continued from the last cursor, never skipped (a code may come twice). The
   * redirect's filter of known codes loads and catches up this way.
   */
  scanCodes(cursor: string | null, limit: number): Promise<CodeScan>;

  // The sweeper (SPEC §7). Each call does at most `limit` rows, so a sweep over millions of
  // rows holds the write lock only briefly at a time and the event loop runs between calls.

  /**
   * Marks up to `limit` active links whose `expiresAt` is at or before `nowMs` as
   * `expired`, with `updatedAt = nowMs` and the version bumped by one, in one transaction.
   * Returns the links as they now are (their caches are invalidated with them).
   */
  markExpired(nowMs: number, limit: number): Promise<readonly Link[]>;
  /**
   * Up to `limit` generated (never custom) links whose code may be returned to
   * circulation: stored as `expired` with `expiresAt` at or before `olderThanMs`, or as
   * `deleted` with `deletedAt` at or before it. An active link whose expiry has passed is
   * not returned until `markExpired` has marked it (the sweeper marks before it reclaims,
   * and every link is announced as expired before its code can go). Custom aliases are
   * never returned (SPEC §2). An adapter may hold a link back for a later call when
   * deleting its row now would break another promise of the port (SQLite keeps the row
   * inserted last: see `scanCodes` there).
   */
  reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]>;
  /**
   * Deletes each of these links whose row is still at the given version and still
   * reclaimable (not custom, expired or deleted), and returns how many rows went. A link
   * changed since it was read (revived by a new expiry, say) stays. Deleting the row frees
   * its code for the conditional insert.
   */
  deleteReclaimed(
    links: readonly { readonly id: string; readonly version: number }[],
  ): Promise<number>;
  /**
   * Deletes up to `limit` idempotency records created before `olderThanMs` (records are
   * answered for 24 h only; SPEC §3) and returns how many went.
   */
  purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number>;
}
