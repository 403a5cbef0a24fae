export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the next request would be allowed; 0 when allowed. */
  readonly retryAfterSeconds: number;
  /** Whole seconds until the bucket is full again. */
  readonly fullInSeconds: number;
  /** Whole seconds an empty bucket takes to fill. */
  readonly windowSeconds: number;
}

/** Counts requests per subject (an API key, an IP) against one rule. */
export interface RateLimiter {
  /** Takes one unit for `subject` and says whether it was allowed. */
  take(subject: string): Promise<RateDecision>;
}
