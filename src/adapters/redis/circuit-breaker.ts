export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit skips the dependency before one trial call. */
  readonly openMs: number;
  readonly now: () => number;
}

/**
 * Skips a failing dependency (SPEC §5: "a circuit breaker skips a failing Redis"): after
 * `failureThreshold` failures in a row, calls are refused for `openMs`; then one trial call
 * decides whether to close again.
 */
export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  #failures = 0;
  #openedAt = 0;
  #state: BreakerState = 'closed';
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  get state(): BreakerState {
    return this.#state;
  }

  /** Whether a call may go ahead now. */
  allows(): boolean {
    if (this.#state === 'closed') return true;
    if (this.#state === 'open' && this.#options.now() - this.#openedAt >= this.#options.openMs) {
      this.#state = 'half-open';
    }
    if (this.#state === 'half-open' && !this.#trialInFlight) {
      this.#trialInFlight = true;
      return true;
    }
    return false;
  }

  succeeded(): void {
    this.#failures = 0;
    this.#trialInFlight = false;
    this.#state = 'closed';
  }

  failed(): void {
    this.#trialInFlight = false;
    this.#failures++;
    if (this.#state === 'half-open' || this.#failures >= this.#options.failureThreshold) {
      this.#state = 'open';
      this.#openedAt = this.#options.now();
    }
  }
}
