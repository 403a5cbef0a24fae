import type { ClickBatch } from '../domain/click-batch.js';

/** Where the flusher sends clicks (SPEC §6): a SQLite table, or JetStream. */
export interface ClickSink {
  /**
   * Resolves once the whole batch is durably accepted; rejects otherwise, and the flusher
   * keeps it and sends it again (so a sink may see a click twice: the fold dedupes).
   */
  send(batch: ClickBatch): Promise<void>;
  close(): Promise<void>;
  /**
   * Offered by a sink that sums a send's clicks per bucket before sending them (the
   * embedded aggregator thread's): the flusher hands it one send's clicks in slices, an
   * event-loop turn apart, so that summing a second's clicks never holds the redirects'
   * event loop for long (ADR 0143).
   */
  readonly summing?: SummingSend;
}

/** One send summed in parts: `add` each slice in order, then `send`, or `discard`. */
export interface SummingSend {
  /** Sums the next consecutive run of clicks into the send being made. */
  add(slice: ClickBatch): void;
  /**
   * Sends every click added since the last send, as `ClickSink.send` would have sent them
   * in one batch: resolves once they are durably accepted, rejects otherwise.
   */
  send(): Promise<void>;
  /** Forgets what was added: the send is not made (the clicks stay buffered). */
  discard(): void;
}
