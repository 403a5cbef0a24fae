/** 0: serve everything; 1: refuse all but redirects and health; 2: redirects only from memory. */
export type ShedLevel = 0 | 1 | 2;

export interface LoadShedderOptions {
  /** Requests in flight past which level 1 starts; twice this, level 2. */
  readonly maxInFlight: number;
  /** Event-loop lag (ms) past which level 1 starts; twice this, level 2. */
  readonly maxLagMs: number;
  /** The event loop's current lag in ms, as the sampler last measured it. */
  readonly lagMs: () => number;
}

/**
 * Load shedding (SPEC §7): under overload the work that can wait is refused first. Level 1
 * refuses creates, analytics, admin and the console (503 + Retry-After); level 2 also
 * refuses redirects that would need a read (L2 or the store), while redirects answered
 * from memory go on: one costs less than writing the 503 would.
 */
export class LoadShedder {
  readonly #options: LoadShedderOptions;
  inFlight = 0;
  /** Requests refused, by what they were. */
  shedRequests = 0;
  shedRedirects = 0;

  constructor(options: LoadShedderOptions) {
    this.#options = options;
  }

  level(): ShedLevel {
    const { maxInFlight, maxLagMs } = this.#options;
    const lag = this.#options.lagMs();
    if (this.inFlight > 2 * maxInFlight || lag > 2 * maxLagMs) return 2;
    if (this.inFlight > maxInFlight || lag > maxLagMs) return 1;
    return 0;
  }

  readonly enter = (): void => {
    this.inFlight++;
  };

  readonly leave = (): void => {
    this.inFlight--;
  };
}
