import { isPermanentRedirect, type RedirectStatus, type StoredLinkState } from './link.js';
import { TEMPORARY_CACHE_CONTROL, type RedirectOutcome } from './redirect-outcome.js';
import type { RedirectTarget } from './redirect-target.js';
import type { SmartOptions } from './smart/smart-options.js';
import { prepareSmart, type PreparedSmart } from './smart/prepared-smart.js';

/**
 * What the in-process cache (L1) keeps per code: a redirect target plus what only a cache
 * needs, in one fixed shape with every field present, so a hit costs no lookups beyond the
 * entry itself (STYLE: the hot path). `code` is held by the entry: a click keeps this
 * long-lived string, not the one sliced from its request (which would outlive a
 * young-generation collection while buffered).
 */
export interface CachedLink extends Omit<RedirectTarget, 'smart'> {
  readonly found: true;
  /**
   * The whole outcome, made once: for redirects whose headers never change (302, 307),
   * and a smart link's `smart` outcome (its answer is the front's to choose, per visitor).
   */
  readonly fixedOutcome: RedirectOutcome | null;
  /** A smart link's options, prepared once per fill (issue 21); null for a plain link. */
  readonly smart: PreparedSmart | null;
}

/** A negative entry: the store said there is no such code (SPEC §5: kept 10 s). */
export interface CachedAbsence {
  readonly found: false;
  readonly linkId: '';
  readonly code: '';
  readonly version: 0;
  readonly state: 'deleted';
  readonly expiresAt: null;
  readonly status: 302;
  readonly location: '';
  readonly fixedOutcome: null;
  readonly smart: null;
  readonly crawlable: false;
}

export type CacheEntry = CachedLink | CachedAbsence;

/** The one negative entry. */
export const ABSENT_ENTRY: CachedAbsence = Object.freeze({
  found: false,
  linkId: '',
  code: '',
  version: 0,
  state: 'deleted',
  expiresAt: null,
  status: 302,
  location: '',
  fixedOutcome: null,
  smart: null,
  crawlable: false,
});

/**
 * The entry for what the store's redirect read found: a positive entry made from the
 * target (once, as L1 is filled on a miss), or the negative entry for null.
 */
export function cacheEntryFor(target: RedirectTarget | null): CacheEntry {
  return target === null
    ? ABSENT_ENTRY
    : cachedLinkOf(
        target.linkId,
        target.code,
        target.version,
        target.state,
        target.expiresAt,
        target.status,
        target.location,
        target.smart,
        target.crawlable,
      );
}

/** A positive entry, with its outcome made once when its headers never change. */
export function cachedLinkOf(
  linkId: string,
  code: string,
  version: number,
  state: StoredLinkState,
  expiresAt: number | null,
  status: RedirectStatus,
  location: string,
  smart: SmartOptions | null = null,
  crawlable = false,
): CachedLink {
  const entry: { -readonly [K in keyof CachedLink]: CachedLink[K] } = {
    found: true,
    linkId,
    code,
    version,
    state,
    expiresAt,
    status,
    location,
    fixedOutcome: null,
    smart: smart === null ? null : prepareSmart(linkId, smart),
    crawlable,
  };
  if (smart !== null) {
    // Its outcome names the entry itself: the front chooses per visitor (issue 21).
    entry.fixedOutcome = Object.freeze({ kind: 'smart', link: entry });
  } else if (!isPermanentRedirect(status)) {
    entry.fixedOutcome = Object.freeze({
      kind: 'redirect',
      linkId,
      code,
      status,
      location,
      cacheControl: TEMPORARY_CACHE_CONTROL,
      crawlable,
    });
  }
  return Object.freeze(entry);
}
