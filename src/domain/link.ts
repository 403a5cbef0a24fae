import type { LinkPreview } from './link-preview.js';
import type { SmartOptions } from './smart/smart-options.js';

/** The redirect status codes a link may answer with (SPEC §3). */
export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
export const DEFAULT_REDIRECT_STATUS: RedirectStatus = 302;

export function isRedirectStatus(value: unknown): value is RedirectStatus {
  return (REDIRECT_STATUSES as readonly unknown[]).includes(value);
}

/** Permanent redirects may be cached by browsers and proxies; temporary ones may not. */
export function isPermanentRedirect(status: RedirectStatus): boolean {
  return status === 301 || status === 308;
}

/**
 * The state stored in a row. `expired` is stored only once the sweeper has marked the
 * link; before that, expiry is derived from `expiresAt` on every read (SPEC §3, §7).
 */
export type StoredLinkState = 'active' | 'disabled' | 'expired' | 'deleted';
export type LinkState = StoredLinkState;
export const LINK_STATES: readonly LinkState[] = ['active', 'disabled', 'expired', 'deleted'];

export interface Link {
  readonly id: string;
  /**
   * The stored host of the link's domain: `''` (DEFAULT_DOMAIN) for the default domain, the
   * host of HOP_PUBLIC_URL. Codes are unique per domain (issue 22, ADR 0115).
   */
  readonly domain: string;
  readonly code: string;
  readonly owner: string;
  readonly destination: string;
  readonly statusCode: RedirectStatus;
  readonly state: StoredLinkState;
  /** True for a custom alias; custom aliases are never reclaimed or reassigned. */
  readonly custom: boolean;
  readonly title: string | null;
  readonly tags: readonly string[];
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
  readonly deletedAt: number | null;
  /** Starts at 1 and grows by one with every change; caches never let an older one win. */
  readonly version: number;
  /**
   * Rules, variants, password, click limit, fallback and query forwarding (issue 21); null
   * for a plain link, which is stored and served as before.
   */
  readonly smart: SmartOptions | null;
  /** What link-preview and social crawlers are shown (issue 22); null: the title. */
  readonly preview: LinkPreview | null;
  /** True when search engines may index the redirect (no `X-Robots-Tag: noindex`). */
  readonly crawlable: boolean;
}

/** The state a reader sees at `nowMs`: expiry is checked against the clock, never trusted. */
export function effectiveState(link: Link, nowMs: number): LinkState {
  if (link.state !== 'active') return link.state;
  if (link.expiresAt !== null && link.expiresAt <= nowMs) return 'expired';
  return 'active';
}

export function isRedirectable(link: Link, nowMs: number): boolean {
  return effectiveState(link, nowMs) === 'active';
}
