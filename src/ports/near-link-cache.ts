import type { CacheEntry } from '../domain/cache-entry.js';

export type { CacheEntry, CachedAbsence, CachedLink } from '../domain/cache-entry.js';

/** A synchronous, bounded, in-process cache of code → entry. */
export interface NearLinkCache {
  /** The live entry for this code, or undefined; never blocks. */
  get(code: string): CacheEntry | undefined;
  /**
   * Keeps `entry` unless this cache already knows a newer version of the code (a held entry
   * or an invalidation), so a slow read can never overwrite a fresher one (SPEC §5). False
   * when it refused `entry` for that reason: the entry is stale and must not be served.
   */
  set(code: string, entry: CacheEntry): boolean;
  /**
   * Drops the entry if it is older than `version` (an entry already at that version is the
   * change itself) and remembers `version`: older fills are refused from now on.
   */
  invalidate(code: string, version: number): void;
  /** Entries held now. */
  readonly size: number;
}
