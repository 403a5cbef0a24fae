import type { ClickBatch } from '../domain/click-batch.js';
import { decodeTallyWire } from '../wire/click-tally-wire.js';
import type { ClickSink, SummingSend } from '../ports/click-sink.js';
import type { ClickStore } from '../ports/click-store.js';
import type { Clock } from '../ports/clock.js';
import { BusiestRanking } from './busiest-ranking.js';
import { FlushTally } from '../wire/flush-tally.js';

/**
 * A sink that folds each flushed batch straight into the shared store: scaled out on
 * PostgreSQL without NATS, each instance folds its own clicks (one transaction a flush).
 * A fold that fails rejects the send, so the flusher keeps the batch and sends it again; a
 * batch folded twice counts once (the store skips event ids it has folded).
 */
export class StoreFoldingClickSink implements ClickSink {
  readonly #store: ClickStore;
  readonly #maxReferrers: number;
  readonly #flushTally = new FlushTally();
  readonly #ranking: BusiestRanking;
  /** Clicks folded, and redelivered ones skipped, as the aggregator counts them. */
  folded = 0;
  duplicates = 0;
  /** Folded as it is flushed: no lag beyond the flush interval. */
  readonly lagSeconds = 0;

  readonly #logVisits: boolean;

  /** `logVisits`: HOP_VISIT_LOG (ADR 0125). */
  constructor(store: ClickStore, maxReferrers: number, clock: Clock, logVisits = false) {
    this.#store = store;
    this.#logVisits = logVisits;
    this.#maxReferrers = maxReferrers;
    this.#ranking = new BusiestRanking(store, clock);
  }

  /** A flush's clicks summed in slices, then folded as one send (ADR 0143). */
  readonly summing: SummingSend = this.#flushTally.summingInto((bytes) => this.#fold(bytes));

  async send(batch: ClickBatch): Promise<void> {
    if (batch.size === 0) return;
    await this.#fold(this.#flushTally.encode(batch));
  }

  async #fold(bytes: ArrayBuffer): Promise<void> {
    const tally = decodeTallyWire(bytes);
    if (tally === null) throw new Error('a flushed batch did not encode');
    const result = await this.#store.fold([tally], this.#maxReferrers, {
      logVisits: this.#logVisits,
    });
    this.folded += result.counted;
    this.duplicates += result.duplicates;
    // A failed ranking is not a failed send: the batch is folded, and must not come again.
    await this.#ranking.rankIfDue().catch(() => undefined);
  }

  async close(): Promise<void> {
    // Nothing of its own: the store is closed by whoever opened it.
  }
}
