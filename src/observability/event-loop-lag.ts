/** How often the loop is asked to run a timer; its lateness is the lag. */
const SAMPLE_EVERY_MS = 100;
/** Weight of the newest sample: one stall of S ms reads as S/3 and fades over ~1 s. */
const NEWEST_WEIGHT = 1 / 3;

/**
 * The event loop's lag as a moving average of how late a 100 ms timer fires: load
 * shedding reads it (SPEC §7). Averaged so that one garbage collection pause does not
 * refuse requests, while a loop that stays behind does within a few samples.
 */
export class EventLoopLag {
  #averageMs = 0;
  #timer: NodeJS.Timeout | undefined;

  start(): void {
    if (this.#timer !== undefined) return;
    let expected = performance.now() + SAMPLE_EVERY_MS;
    this.#timer = setInterval(() => {
      const now = performance.now();
      const lateBy = Math.max(0, now - expected);
      expected = now + SAMPLE_EVERY_MS;
      this.#averageMs += (lateBy - this.#averageMs) * NEWEST_WEIGHT;
    }, SAMPLE_EVERY_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Milliseconds, averaged over the last second or so. */
  readonly lagMs = (): number => this.#averageMs;
}
