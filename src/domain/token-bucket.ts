/**
 * A token bucket (refill `ratePerSecond`, hold at most `burst`), as plain data and a pure
 * step function so any store (memory, Redis) can keep the state and any clock can drive it.
 */
export interface TokenBucketRule {
  readonly ratePerSecond: number;
  readonly burst: number;
}

export interface TokenBucketState {
  readonly tokens: number;
  readonly updatedAtMs: number;
}

export interface TokenBucketDecision {
  readonly allowed: boolean;
  readonly state: TokenBucketState;
  readonly remaining: number;
  /** Seconds until one token is back; 0 when allowed. */
  readonly retryAfterSeconds: number;
  /** Whole seconds until the bucket is full again. */
  readonly fullInSeconds: number;
}

/** Whole seconds an empty bucket of `rule` takes to fill. */
export function bucketWindowSeconds(rule: TokenBucketRule): number {
  return Math.ceil(rule.burst / rule.ratePerSecond);
}

/** Whole seconds until a bucket holding `tokens` is full. */
export function secondsUntilFull(rule: TokenBucketRule, tokens: number): number {
  return Math.max(0, Math.ceil((rule.burst - tokens) / rule.ratePerSecond));
}

export function takeToken(
  rule: TokenBucketRule,
  previous: TokenBucketState | undefined,
  nowMs: number,
): TokenBucketDecision {
  const elapsedSeconds =
    previous === undefined ? 0 : Math.max(0, nowMs - previous.updatedAtMs) / 1000;
  const available =
    previous === undefined
      ? rule.burst
      : Math.min(rule.burst, previous.tokens + elapsedSeconds * rule.ratePerSecond);
  if (available >= 1) {
    const tokens = available - 1;
    return {
      allowed: true,
      state: { tokens, updatedAtMs: nowMs },
      remaining: Math.floor(tokens),
      retryAfterSeconds: 0,
      fullInSeconds: secondsUntilFull(rule, tokens),
    };
  }
  return {
    allowed: false,
    state: { tokens: available, updatedAtMs: nowMs },
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil((1 - available) / rule.ratePerSecond)),
    fullInSeconds: secondsUntilFull(rule, available),
  };
}
