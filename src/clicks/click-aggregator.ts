import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../ports/clock.js';
import type { ClickSource } from '../ports/click-source.js';
import type { ClickStore } from '../ports/click-store.js';
import { BusiestRanking } from './busiest-ranking.js';

export interface ClickAggregatorDeps {
  readonly source: ClickSource;
  readonly store: ClickStore;
  readonly clock: Clock;
  /** Clicks per fold (about: the embedded queue delivers whole batches). */
  readonly batchSize: number;
  readonly maxReferrers: number;
  /** Write each counted click to the visit log too (HOP_VISIT_LOG, ADR 0125). */
  readonly logVisits?: boolean;
  /**
   * Whether a fold at this time writes its click events (ADR 0131); always when absent
   * (scaled out, where nothing tells one instance of another's streams).
   */
  readonly clickEventsWanted?: (nowMs: number) => boolean;
  /**
   * Spool those logs for `hop serve`'s integrations thread instead of writing them in the
   * fold (ADR 0132): its aggregator thread's folds.
   */
  readonly spoolLogs?: boolean;
  /** Pause after finding nothing to fold, or after a failure. */
  readonly idleMs: number;
  /** A fold failed; told once per run of failures (again only after a fold succeeds). */
  readonly onFailure: (error: unknown) => void;
}

/**
 * Folds click events into hourly buckets (SPEC §6): take a delivery, fold it, then
 * acknowledge it. A crash between fold and ack redelivers events the store has already
 * counted; the fold skips them by event id, so every click is counted once.
 */
export class ClickAggregator {
  readonly #deps: ClickAggregatorDeps;
  readonly #ranking: BusiestRanking;
  #loop: Promise<void> | null = null;
  #stopping = false;
  #wake: (() => void) | null = null;
  #failing = false;
  /** Clicks counted. */
  folded = 0;
  /** Clicks seen again (redelivered or re-sent) and not counted twice. */
  duplicates = 0;
  /** How old the oldest event of the last fold was when folded, in seconds; 0 when idle. */
  lagSeconds = 0;

  constructor(deps: ClickAggregatorDeps) {
    this.#deps = deps;
    this.#ranking = new BusiestRanking(deps.store, deps.clock);
  }

  start(): void {
    this.#stopping = false;
    this.#loop ??= this.#run();
  }

  /** Finishes the fold in progress, then stops. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    this.#loop = null;
  }

  /** Folds until the source has nothing left (tests, and the last act of a shutdown). */
  async drain(): Promise<void> {
    while (await this.foldOnce()) {
      // keep folding
    }
  }

  /** One delivery folded and acknowledged; false when there was none. */
  async foldOnce(): Promise<boolean> {
    const { source, store, clock, batchSize, maxReferrers } = this.#deps;
    const delivery = await source.next(batchSize);
    if (delivery === null) {
      this.lagSeconds = 0;
      return false;
    }
    let oldest = Infinity;
    for (const tally of delivery.tallies) if (tally.oldestAt < oldest) oldest = tally.oldestAt;
    const result = await store.fold(delivery.tallies, maxReferrers, {
      logVisits: this.#deps.logVisits === true,
      logClickEvents: this.#deps.clickEventsWanted?.(clock.now()) ?? true,
      spoolLogs: this.#deps.spoolLogs === true,
    });
    // Counted once committed: the metric never lags the store (the ack may still fail).
    this.folded += result.counted;
    this.duplicates += result.duplicates;
    await delivery.ack();
    this.lagSeconds = oldest === Infinity ? 0 : Math.max(0, (clock.now() - oldest) / 1000);
    // The dashboard's ranking is made here, where folds run, never on the request path.
    // A failed ranking is reported, and is not a failed fold: the delivery is acknowledged.
    await this.#ranking.rankIfDue().catch((error: unknown) => {
      this.#deps.onFailure(error);
    });
    return true;
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      let foundSome = false;
      try {
        foundSome = await this.foldOnce();
        this.#failing = false;
      } catch (error) {
        if (!this.#failing) this.#deps.onFailure(error);
        this.#failing = true;
      }
      if (!foundSome && !this.#stopping) await this.#sleep(this.#deps.idleMs);
      // Between folds the event loop serves requests (the embedded store is synchronous).
      else await nextTurn();
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}
