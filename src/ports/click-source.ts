import type { ClickEvent } from '../domain/click-event.js';

/** Events handed to the aggregator; acknowledged only after they are folded. */
export interface ClickDelivery {
  readonly events: readonly ClickEvent[];
  /** Marks the events done: they are not delivered again (unless the ack is lost). */
  ack(): Promise<void>;
}

/** What the aggregator consumes, at least once (SPEC §6). */
export interface ClickSource {
  /** The next events waiting, at most `maxEvents`; null when none are (after a short wait). */
  next(maxEvents: number): Promise<ClickDelivery | null>;
  close(): Promise<void>;
}
