import { isPermanentRedirect, type RedirectStatus, type StoredLinkState } from './link.js';
import { TEMPORARY_CACHE_CONTROL, type RedirectOutcome } from './redirect-outcome.js';

/**
 * What the in-process cache (L1) keeps per code: one fixed shape, every field present, so
 * a hit costs no lookups beyond the entry itself (STYLE: the hot path).
 */
export interface CachedLink {
  readonly found: true;
  /** The link's id: a counted click names the link, not just the code. */
  readonly linkId: string;
  /**
   * The code, held by the entry: a click keeps this long-lived string, not the one sliced
   * from its request (which would outlive a young-generation collection while buffered).
   */
  readonly code: string;
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
  readonly linkId: '';
  readonly code: '';
  readonly version: 0;
  readonly state: 'deleted';
  readonly expiresAt: null;
  readonly status: 302;
  readonly location: '';
  readonly fixedOutcome: null;
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
});

/** A positive entry, with its outcome made once when its headers never change. */
export function cachedLinkOf(
  linkId: string,
  code: string,
  version: number,
  state: StoredLinkState,
  expiresAt: number | null,
  status: RedirectStatus,
  location: string,
): CachedLink {
  const fixedOutcome: RedirectOutcome | null = isPermanentRedirect(status)
    ? null
    : Object.freeze({
        kind: 'redirect',
        linkId,
        code,
        status,
        location,
        cacheControl: TEMPORARY_CACHE_CONTROL,
      });
  return Object.freeze({
    found: true,
    linkId,
    code,
    version,
    state,
    expiresAt,
    status,
    location,
    fixedOutcome,
  });
}
