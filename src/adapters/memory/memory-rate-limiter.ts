import {
  bucketWindowSeconds,
  takeToken,
  type TokenBucketRule,
  type TokenBucketState,
} from '../../domain/token-bucket.js';
import type { Clock } from '../../ports/clock.js';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter.js';

/** Subjects remembered at most; the least recently seen are forgotten first. */
const MAX_SUBJECTS = 100_000;

/** Token buckets kept in this process: right for one instance, per instance when many. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #rule: TokenBucketRule;
  readonly #clock: Clock;
  readonly #buckets = new Map<string, TokenBucketState>();

  constructor(rule: TokenBucketRule, clock: Clock) {
    this.#rule = rule;
    this.#clock = clock;
  }

  async take(subject: string): Promise<RateDecision> {
    const decision = takeToken(this.#rule, this.#buckets.get(subject), this.#clock.now());
    // Delete and set again so that the Map's insertion order is least-recently-used first.
    this.#buckets.delete(subject);
    this.#buckets.set(subject, decision.state);
    if (this.#buckets.size > MAX_SUBJECTS) {
      const oldest = this.#buckets.keys().next();
      if (oldest.done !== true) this.#buckets.delete(oldest.value);
    }
    return {
      allowed: decision.allowed,
      limit: this.#rule.burst,
      remaining: decision.remaining,
      retryAfterSeconds: decision.retryAfterSeconds,
      fullInSeconds: decision.fullInSeconds,
      windowSeconds: bucketWindowSeconds(this.#rule),
    };
  }
}
