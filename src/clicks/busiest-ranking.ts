import { HOUR_MS, hourOf } from '../domain/click-fold.js';
import type { ClickStore } from '../ports/click-store.js';
import type { Clock } from '../ports/clock.js';

/** The console's dashboard shows the busiest links of the last 7 days... */
export const BUSIEST_WINDOW_MS = 7 * 24 * HOUR_MS;
/** ...this many, ranked; the dashboard shows the first ten that still exist. */
export const BUSIEST_RANKED = 20;
/**
 * A ranking reads a week of buckets, so it runs at most every 10 s and, when it took long,
 * a hundred times its own duration later (a ranking of 0.5 s, every 50 s), so ranking
 * never takes more than 1% of the folding side's time. Ten minutes at most between two.
 */
const MIN_INTERVAL_MS = 10_000;
const MAX_INTERVAL_MS = 600_000;
const INTERVAL_PER_RANKING_MS = 100;

/**
 * Keeps the store's ranking of the busiest links current, from where clicks are folded
 * (the aggregator's thread, hop worker, or an instance folding its own clicks): never
 * from the request path, which only reads the ranking.
 */
export class BusiestRanking {
  readonly #store: ClickStore;
  readonly #clock: Clock;
  #nextAt = 0;

  constructor(store: ClickStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Ranks anew when the last ranking is old enough; call after a fold. */
  async rankIfDue(): Promise<void> {
    const now = this.#clock.now();
    if (now < this.#nextAt) return;
    // Until this one is done, no other: a slow ranking is not started twice.
    this.#nextAt = Infinity;
    const started = performance.now();
    const toHour = hourOf(now) + HOUR_MS;
    try {
      await this.#store.rankBusiest(toHour - BUSIEST_WINDOW_MS, toHour, BUSIEST_RANKED, now);
    } finally {
      const took = performance.now() - started;
      this.#nextAt =
        now + Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, took * INTERVAL_PER_RANKING_MS));
    }
  }
}
