import type { ClickTally } from '../domain/click-tally.js';

/** Clicks handed to the aggregator; acknowledged only after they are folded. */
export interface ClickDelivery {
  readonly tallies: readonly ClickTally[];
  /** Marks them done: they are not delivered again (unless the ack is lost). */
  ack(): Promise<void>;
}

/** What the aggregator consumes, at least once (SPEC §6). */
export interface ClickSource {
  /** What waits, up to about `maxClicks` clicks; null when nothing does (after a short wait). */
  next(maxClicks: number): Promise<ClickDelivery | null>;
  close(): Promise<void>;
}
