import { HopError } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { QuotaReading } from '../../domain/quota.js';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter.js';

/**
 * Takes one create from the caller's API key and from its client address (SPEC §7): two
 * token buckets of the same HOP_CREATE_RATE, so neither many keys from one address nor
 * one key from many addresses gets past it. Admin keys are exempt. Returns the readings
 * for the RateLimit fields; throws `rate-limited`, carrying them, when either is empty.
 */
export async function takeCreateQuota(
  limiter: RateLimiter | null,
  principal: Principal,
  client: string | undefined,
): Promise<readonly QuotaReading[]> {
  if (principal.admin || limiter === null) return [];
  const [byKey, byClient] = await Promise.all([
    limiter.take(`key:${principal.keyId}`),
    client === undefined ? undefined : limiter.take(`ip:${client}`),
  ]);
  const quotas = [readingOf('key', byKey)];
  if (byClient !== undefined) quotas.push(readingOf('ip', byClient));
  const refused = [byKey, byClient].filter((d) => d !== undefined && !d.allowed);
  if (refused.length === 0) return quotas;
  const detail = !byKey.allowed
    ? 'Too many links created with this key; slow down.'
    : 'Too many links created from this address; slow down.';
  throw new HopError('rate-limited', detail, {
    retryAfterSeconds: Math.max(...refused.map((d) => d?.retryAfterSeconds ?? 1)),
    retryable: true,
    quotas,
  });
}

function readingOf(policy: string, decision: RateDecision): QuotaReading {
  return {
    policy,
    quota: decision.limit,
    windowSeconds: decision.windowSeconds,
    remaining: decision.remaining,
    resetSeconds: decision.allowed ? decision.fullInSeconds : decision.retryAfterSeconds,
  };
}
