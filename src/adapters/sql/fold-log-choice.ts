/** Which logs a fold writes besides its counters, and the time it records them at. */
export interface FoldLogChoice {
  /** The visit log (HOP_VISIT_LOG, ADR 0125). */
  readonly visits: boolean;
  /** The per-second click events (ADR 0131: only while someone can read them). */
  readonly clickEvents: boolean;
  readonly nowMs: number;
  /** Spool them instead, for `hop serve`'s integrations thread to write (ADR 0132). */
  readonly spool: boolean;
}
