import type { ClickBatch } from '../domain/click-batch.js';

/** Where the flusher sends clicks (SPEC §6): a SQLite table, or JetStream. */
export interface ClickSink {
  /**
   * Resolves once the whole batch is durably accepted; rejects otherwise, and the flusher
   * keeps it and sends it again (so a sink may see a click twice: the fold dedupes).
   */
  send(batch: ClickBatch): Promise<void>;
  close(): Promise<void>;
}
