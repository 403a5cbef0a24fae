import { isPossibleCode } from '../../domain/code-format.js';
import { isPermanentRedirect, isRedirectable, type RedirectStatus } from '../../domain/link.js';
import type { Clock } from '../../ports/clock.js';
import type { LinkStore } from '../../ports/link-store.js';

/** Expected outcomes of a redirect are values, not exceptions (STYLE: the hot path). */
export type RedirectOutcome =
  | {
      readonly kind: 'redirect';
      readonly status: RedirectStatus;
      readonly location: string;
      readonly cacheControl: string;
    }
  /** Unknown, disabled, expired and deleted look the same from outside (SPEC §3). */
  | { readonly kind: 'not-found' }
  /** The path cannot be a code; no store was asked. */
  | { readonly kind: 'invalid' };

export const NOT_FOUND: RedirectOutcome = Object.freeze({ kind: 'not-found' });
export const INVALID: RedirectOutcome = Object.freeze({ kind: 'invalid' });

/** Temporary redirects must come back to us, so clicks are seen and edits take effect. */
export const TEMPORARY_CACHE_CONTROL = 'private, no-store';
/** The longest a browser may keep a permanent redirect, so edits and disables still land. */
export const MAX_PERMANENT_AGE_SECONDS = 3600;

export interface RedirectDeps {
  readonly links: LinkStore;
  readonly clock: Clock;
}

/**
 * Resolves a code to where it sends the browser.
 * 1. Reject a path that cannot be a code, without any I/O.
 * 2. Read the link from the store.
 * 3. Check state and expiry against the clock, on every read.
 */
export function resolveRedirect(
  deps: RedirectDeps,
  code: string,
): RedirectOutcome | Promise<RedirectOutcome> {
  if (!isPossibleCode(code)) return INVALID;
  return deps.links.findLinkByCode(code).then((link) => {
    const now = deps.clock.now();
    if (link === null || !isRedirectable(link, now)) return NOT_FOUND;
    return {
      kind: 'redirect',
      status: link.statusCode,
      location: link.destination,
      cacheControl: cacheControlFor(link.statusCode, link.expiresAt, now),
    };
  });
}

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
