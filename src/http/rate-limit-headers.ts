import type { QuotaReading } from '../domain/quota.js';

/**
 * The IETF RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10,
 * structured-field lists): one item per policy the request was counted against, e.g.
 * `RateLimit-Policy: "key";q=100;w=5, "ip";q=100;w=5` and `RateLimit: "key";r=99;t=1, …`.
 */
export function rateLimitHeaders(quotas: readonly QuotaReading[]): Record<string, string> {
  if (quotas.length === 0) return {};
  return {
    'ratelimit-policy': quotas
      .map((q) => `"${q.policy}";q=${q.quota};w=${q.windowSeconds}`)
      .join(', '),
    ratelimit: quotas.map((q) => `"${q.policy}";r=${q.remaining};t=${q.resetSeconds}`).join(', '),
  };
}
