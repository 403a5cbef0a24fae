/**
 * What creates cost the store, for the metric and the codes benchmark (SPEC §2, ADR 0045): every
 * strategy is judged by its store round trips per create. Plain numbers, read at scrape.
 */
export class CreateCounters {
  /** Links created (replays of an earlier create not counted). */
  created = 0;
  /** Conditional inserts tried, taken codes included. */
  insertAttempts = 0;
  /** Idempotency records looked up before an insert. */
  idempotencyReads = 0;
}
