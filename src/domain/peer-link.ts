import type { RedirectStatus } from './link.js';

/**
 * One link as a peer shortener (Shlink, YOURLS, Kutt) holds it, normalised by that peer's
 * reader so that one import service keeps codes, counts and states alike (issue 24).
 */
export interface PeerLink {
  /** Where the reader found it, for the per-row report: `line 12`, `keyword abc`. */
  readonly source: string;
  /** The code exactly as the peer served it (case kept). */
  readonly code: string;
  /** The short domain's host; null: hop's default domain. */
  readonly domain: string | null;
  readonly destination: string;
  readonly title: string | null;
  readonly tags: readonly string[];
  /** Epoch milliseconds; null when the source does not say (the import's time is used). */
  readonly createdAt: number | null;
  /** Epoch milliseconds; null: never. */
  readonly expiresAt: number | null;
  readonly state: 'active' | 'disabled';
  /** The peer's click total for the link: the link's starting count on hop. */
  readonly clicks: number;
  /** The peer's password hash as stored (Kutt: bcrypt `$2a$`/`$2b$`), kept; null: none. */
  readonly passwordHash: string | null;
  /**
   * The status the peer redirected with (YOURLS: 301; Shlink and Kutt: 302 by default), so
   * that browsers and caches see the same answer they saw before the move.
   */
  readonly statusCode: RedirectStatus;
}

/** A row the reader could not turn into a PeerLink: reported at its place, never dropped. */
export interface PeerRowProblem {
  readonly source: string;
  readonly problem: string;
}

export type PeerRow = PeerLink | PeerRowProblem;

export function isPeerRowProblem(row: PeerRow): row is PeerRowProblem {
  return 'problem' in row;
}
