import type { RedirectStatus, StoredLinkState } from '../domain/link.js';
import type { RedirectOutcome } from '../domain/redirect-outcome.js';

/**
 * What the in-process cache (L1) keeps per code: one fixed shape, every field present, so
 * a hit costs no lookups beyond the entry itself (STYLE: the hot path).
 */
export interface CachedLink {
  readonly found: true;
  readonly version: number;
  readonly state: StoredLinkState;
  readonly expiresAt: number | null;
  readonly status: RedirectStatus;
  readonly location: string;
  /** The whole outcome, made once, for redirects whose headers never change (302, 307). */
  readonly fixedOutcome: RedirectOutcome | null;
}

/** A negative entry: the store said there is no such code (SPEC §5: kept 10 s). */
export interface CachedAbsence {
  readonly found: false;
  readonly version: 0;
  readonly state: 'deleted';
  readonly expiresAt: null;
  readonly status: 302;
  readonly location: '';
  readonly fixedOutcome: null;
}

export type CacheEntry = CachedLink | CachedAbsence;

/** A synchronous, bounded, in-process cache of code → entry. */
export interface NearLinkCache {
  /** The live entry for this code, or undefined; never blocks. */
  get(code: string): CacheEntry | undefined;
  /**
   * Keeps `entry` unless this cache already knows a newer version of the code (a held entry
   * or an invalidation), so a slow read can never overwrite a fresher one (SPEC §5).
   */
  set(code: string, entry: CacheEntry): void;
  /**
   * Drops the entry if it is older than `version` (an entry already at that version is the
   * change itself) and remembers `version`: older fills are refused from now on.
   */
  invalidate(code: string, version: number): void;
  /** Entries held now. */
  readonly size: number;
}
