import type { SmartOptions } from './smart/smart-options.js';
import type { RedirectStatus, StoredLinkState } from './link.js';

/**
 * What a redirect needs of a link, and no more: what the store's redirect read returns
 * (one covering index) and what every cache entry holds. State and expiry are checked
 * against the clock by whoever answers with it, never trusted (SPEC §3).
 */
export interface RedirectTarget {
  /** The link's id: a counted click names the link, not just the code. */
  readonly linkId: string;
  readonly code: string;
  readonly version: number;
  readonly state: StoredLinkState;
  readonly expiresAt: number | null;
  readonly status: RedirectStatus;
  readonly location: string;
  /** What a smart link does beyond its destination (issue 21); null for a plain link. */
  readonly smart: SmartOptions | null;
  /** Search engines may index it: redirects skip `X-Robots-Tag: noindex` (issue 22). */
  readonly crawlable: boolean;
}
