import type { Cluster, Redis } from 'ioredis';
import {
  bucketWindowSeconds,
  secondsUntilFull,
  type TokenBucketRule,
} from '../../domain/token-bucket.js';
import type { Clock } from '../../ports/clock.js';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { TIMED_OUT, withinTimeout } from './within-timeout.js';

/**
 * The token bucket of src/domain/token-bucket.ts, run inside Redis so that every instance
 * takes from one bucket per subject: read, refill, take and write back are one atomic step.
 * The clock is the caller's (instances' clocks agree to well under a token's worth); a
 * reading older than the stored one refills nothing rather than going back in time.
 * Returns {allowed (1/0), tokens left (as a string: Lua numbers would be truncated)}.
 */
const TAKE_TOKEN_LUA = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] then
  local at = tonumber(state[2])
  if now < at then now = at end
  tokens = math.min(burst, tonumber(state[1]) + (now - at) / 1000 * rate)
end
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {allowed, tostring(tokens)}
`;

/** Consecutive Redis failures before the limiter stops asking Redis for a while. */
const BREAKER_FAILURES = 3;
const BREAKER_OPEN_MS = 2000;

type WithTakeToken = (Redis | Cluster) & {
  hopTakeToken(
    key: string,
    rate: number,
    burst: number,
    nowMs: number,
    ttlMs: number,
  ): Promise<[number, string]>;
};

export interface RedisRateLimiterOptions {
  readonly client: Redis | Cluster;
  /** Key prefix of this deployment (HOP_REDIS_PREFIX) and what the limit is for. */
  readonly keyPrefix: string;
  readonly rule: TokenBucketRule;
  readonly clock: Clock;
  /**
   * Asked instead while Redis fails: the limit then holds per instance, never not at all,
   * and a failing Redis never fails a create.
   */
  readonly fallback: RateLimiter;
  /**
   * Longest a take waits for Redis before asking the fallback. Decided after the event
   * loop's poll phase, so a busy instance whose loop ran late does not lose a reply that
   * came in time (the same rule as the shared link cache's lookups).
   */
  readonly timeoutMs: number;
}

/** A rate limit shared by every instance through Redis (SPEC §7, ADR 0059). */
export class RedisRateLimiter implements RateLimiter {
  readonly #client: WithTakeToken;
  readonly #options: RedisRateLimiterOptions;
  readonly #ttlMs: number;
  readonly #breaker: CircuitBreaker;

  constructor(options: RedisRateLimiterOptions) {
    this.#options = options;
    options.client.defineCommand('hopTakeToken', { numberOfKeys: 1, lua: TAKE_TOKEN_LUA });
    this.#client = options.client as WithTakeToken;
    // A bucket untouched for as long as it takes to refill is full: Redis may forget it.
    this.#ttlMs = Math.ceil((options.rule.burst / options.rule.ratePerSecond) * 1000) + 1000;
    this.#breaker = new CircuitBreaker({
      failureThreshold: BREAKER_FAILURES,
      openMs: BREAKER_OPEN_MS,
      now: () => Date.now(),
    });
  }

  async take(subject: string): Promise<RateDecision> {
    if (!this.#breaker.allows()) return this.#options.fallback.take(subject);
    const { rule } = this.#options;
    let reply: [number, string];
    try {
      const answer = await withinTimeout(
        this.#client.hopTakeToken(
          `${this.#options.keyPrefix}${subject}`,
          rule.ratePerSecond,
          rule.burst,
          this.#options.clock.now(),
          this.#ttlMs,
        ),
        this.#options.timeoutMs,
      );
      if (answer === TIMED_OUT) throw new Error('redis rate limit timed out');
      reply = answer;
      this.#breaker.succeeded();
    } catch {
      this.#breaker.failed();
      return this.#options.fallback.take(subject);
    }
    const tokens = Number(reply[1]);
    const allowed = reply[0] === 1;
    return {
      allowed,
      limit: rule.burst,
      remaining: allowed ? Math.floor(tokens) : 0,
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rule.ratePerSecond)),
      fullInSeconds: secondsUntilFull(rule, tokens),
      windowSeconds: bucketWindowSeconds(rule),
    };
  }
}
