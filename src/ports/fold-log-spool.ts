/**
 * A fold's visits and click events, kept as its counted buckets in the fold's transaction
 * and written out later (ADR 0132): by `hop serve`'s integrations thread, which runs at the
 * lowest CPU priority, so that while redirects take the whole CPU the logs wait here
 * instead of taking a share of it. Nothing is lost or written twice: a spooled row becomes
 * its log rows and is deleted in one transaction.
 */
export interface FoldLogSpool {
  /**
   * Writes out some of the oldest spooled fold's visits and click events, in one
   * transaction; false when the spool is empty.
   */
  writeOut(): Promise<boolean>;
  /** Spooled rows not yet written out. */
  pending(): Promise<number>;
}
