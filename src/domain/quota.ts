/**
 * Where a caller stands against one rate-limit policy after a request, for the IETF
 * RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers).
 */
export interface QuotaReading {
  /** The policy: what is counted (`key`, `ip`). */
  readonly policy: string;
  /** Requests the policy allows at once (the token bucket's burst). */
  readonly quota: number;
  /** Seconds an empty bucket takes to fill up again: the policy's window. */
  readonly windowSeconds: number;
  readonly remaining: number;
  /** Seconds until `remaining` grows: the next token when empty, else a full bucket. */
  readonly resetSeconds: number;
}
