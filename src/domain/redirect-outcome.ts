import type { CachedLink } from './cache-entry.js';
import { isPermanentRedirect, type RedirectStatus } from './link.js';

/** Expected outcomes of a redirect are values, not exceptions (STYLE: the hot path). */
export type RedirectOutcome =
  | {
      readonly kind: 'redirect';
      /** The link followed: its click is counted under this id. */
      readonly linkId: string;
      /** The code followed, as the cache holds it. */
      readonly code: string;
      readonly status: RedirectStatus;
      readonly location: string;
      readonly cacheControl: string;
      /** Search engines may index it: no `X-Robots-Tag: noindex` (issue 22). */
      readonly crawlable: boolean;
    }
  /** Unknown, disabled, expired and deleted look the same from outside (SPEC §3). */
  | { readonly kind: 'not-found' }
  /** The path cannot be a code; no store was asked. */
  | { readonly kind: 'invalid' }
  /**
   * A reserved word (`isReservedAlias`): the name of one of our own routes, in some case,
   * never a code; no store was asked. The redirect front hands it on to those routes.
   */
  | { readonly kind: 'reserved' }
  /**
   * An active smart link (issue 21): what to answer depends on the visitor (password,
   * rules, variants, forwarding) or on a shared count (max_clicks), so the front decides.
   */
  | { readonly kind: 'smart'; readonly link: CachedLink }
  /**
   * An expired or click-exhausted link with a fallback_url: 302 there, never cached, never
   * counted (issue 21). Disabled and deleted links stay the one 404.
   */
  | { readonly kind: 'fallback'; readonly location: string };

export const NOT_FOUND: RedirectOutcome = Object.freeze({ kind: 'not-found' });
export const INVALID: RedirectOutcome = Object.freeze({ kind: 'invalid' });
export const RESERVED: RedirectOutcome = Object.freeze({ kind: 'reserved' });

/** Temporary redirects must come back to us, so clicks are seen and edits take effect. */
export const TEMPORARY_CACHE_CONTROL = 'private, no-store';
/** The longest a browser may keep a permanent redirect, so edits and disables still land. */
export const MAX_PERMANENT_AGE_SECONDS = 3600;

/**
 * SPEC §3: temporary redirects are not cacheable by shared caches; permanent ones carry a
 * max-age no longer than the link's remaining life.
 */
export function cacheControlFor(
  status: RedirectStatus,
  expiresAt: number | null,
  nowMs: number,
): string {
  if (!isPermanentRedirect(status)) return TEMPORARY_CACHE_CONTROL;
  const remaining =
    expiresAt === null ? MAX_PERMANENT_AGE_SECONDS : Math.floor((expiresAt - nowMs) / 1000);
  return `public, max-age=${Math.max(0, Math.min(MAX_PERMANENT_AGE_SECONDS, remaining))}`;
}
