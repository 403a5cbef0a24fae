import type { ClickEvent } from '../domain/click-event.js';

/** Where the flusher sends click events (SPEC §6): a SQLite table, or JetStream. */
export interface ClickSink {
  /**
   * Resolves once every event is durably accepted; rejects otherwise, and the flusher
   * keeps them and sends them again (so a sink may see an event twice: the fold dedupes).
   */
  send(events: readonly ClickEvent[]): Promise<void>;
  close(): Promise<void>;
}
