import type { Link } from '../domain/link.js';

/** A link as the sweeper read it: deleted only if still at this version. */
export interface LinkAtVersion {
  readonly id: string;
  readonly version: number;
}

/**
 * The sweeper's store calls (SPEC §7). Each call does at most `limit` rows, so a sweep over
 * millions of rows holds the write lock only briefly at a time and the event loop runs
 * between calls.
 */
export interface SweepQueries {
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
   * deleting its row now would break another promise of the store (SQLite keeps the row
   * inserted last: see its `LinkCodeScan`).
   */
  reclaimableLinks(olderThanMs: number, limit: number): Promise<readonly Link[]>;
  /**
   * Deletes each of these links whose row is still at the given version and still
   * reclaimable (not custom, expired or deleted), and returns how many rows went. A link
   * changed since it was read (revived by a new expiry, say) stays. Deleting the row frees
   * its code for the conditional insert, and forgets its redirect count (ADR 0111).
   */
  deleteReclaimed(links: readonly LinkAtVersion[]): Promise<number>;
  /**
   * Deletes up to `limit` idempotency records created before `olderThanMs` (records are
   * answered for 24 h only; SPEC §3) and returns how many went.
   */
  purgeIdempotencyRecords(olderThanMs: number, limit: number): Promise<number>;
}
