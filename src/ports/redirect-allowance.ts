/**
 * Exact per-link redirect budgets (issue 21 `max_clicks`, ADR 0111), kept in the store so
 * every instance and every process on it draws from the one count. Only links with a limit
 * ever touch it: a plain redirect writes nothing.
 */
export interface RedirectAllowance {
  /**
   * Takes one of `limit` redirects for the link: true when taken, false once `limit` have
   * been taken (from then on, unless the limit is raised). Exact under concurrency, across
   * connections, processes and instances. `limit` is a safe integer of at least 1.
   */
  take(linkId: string, limit: number): Promise<boolean>;
  /** Redirects taken so far for the link (0 when none). */
  taken(linkId: string): Promise<number>;
  /** Forgets the link's count (the link is gone for good: purged, its row reclaimed). */
  forget(linkId: string): Promise<void>;
}
