import type { CacheEntry } from './near-link-cache.js';

/**
 * L2 (SPEC §5): a cache shared by every instance. Its failures are never the caller's
 * problem: a timeout, an error or an open circuit breaker reads as a miss, and writes are
 * fire-and-forget. So a Redis outage only makes redirects slower.
 */
export interface SharedLinkCache {
  /** The entry for `code`, or undefined on a miss or any failure; never rejects. */
  get(code: string): Promise<CacheEntry | undefined>;
  /** Stores `entry` unless a newer version of the code is known there; never rejects. */
  set(code: string, entry: CacheEntry): void;
  /**
   * Drops the code everywhere: from L2, and, through the broadcast, from the L1 of every
   * instance (`onInvalidation`); fills older than `version` are refused from then on. One
   * that cannot be delivered now is delivered once L2 answers again (or L2 is emptied), so
   * an L2 that comes back with its data never serves what the change replaced.
   */
  invalidate(code: string, version: number): void;
  /**
   * Tells every instance to drop its L1 entry for `code` (e.g. a negative one); retried too
   * once L2 answers again, as far as memory allows (a negative entry expires anyway).
   */
  broadcast(code: string, version: number): void;
  /** Registers the listener told of every invalidation broadcast, this instance's included. */
  onInvalidation(listener: (code: string, version: number) => void): void;
  close(): Promise<void>;
}
