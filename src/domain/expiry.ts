import { HopError } from './errors.js';

/** Limits that apply to every link's lifetime; `null` means "never". */
export interface ExpiryPolicy {
  readonly defaultTtlMs: number | null;
  readonly maxTtlMs: number | null;
}

export interface ExpiryRequest {
  readonly expiresAt?: string | null | undefined;
  readonly ttlSeconds?: number | null | undefined;
}

// RFC 3339 date-time: a full date, a time, and an explicit offset (Z or ±hh:mm).
const RFC3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** The last instant RFC 3339 can write (year 9999); later expiries are refused. */
const LATEST_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An RFC 3339 timestamp as epoch ms, or null when it is not one (or names no real day). */
export function rfc3339ToMs(value: string): number | null {
  const ms = RFC3339.test(value) && isRealDate(value) ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

/** Parses an RFC 3339 timestamp to epoch ms, or throws `invalid-expiry`. */
export function parseTimestamp(value: string, field: string): number {
  const ms = rfc3339ToMs(value);
  if (ms === null) {
    throw invalidExpiry(field, 'must be an RFC 3339 timestamp such as 2030-01-31T12:00:00Z.');
  }
  return ms;
}

/** Date.parse rolls 2030-02-30 over into March; a date that does not exist is refused. */
function isRealDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The expiry of a new link (SPEC §3): `expires_at` or `ttl_seconds` (not both) must lie in
 * the future and within the maximum lifetime; with neither, the default lifetime applies.
 */
export function resolveExpiry(
  request: ExpiryRequest,
  nowMs: number,
  policy: ExpiryPolicy,
): number | null {
  const hasExpiresAt = request.expiresAt !== undefined && request.expiresAt !== null;
  const hasTtl = request.ttlSeconds !== undefined && request.ttlSeconds !== null;
  if (hasExpiresAt && hasTtl) {
    throw invalidExpiry('expires_at', 'give either expires_at or ttl_seconds, not both.');
  }
  if (hasTtl) {
    const ttl = request.ttlSeconds;
    if (!Number.isSafeInteger(ttl) || ttl <= 0) {
      throw invalidExpiry('ttl_seconds', 'must be a positive whole number of seconds.');
    }
    return checkWithinLimits(nowMs + ttl * 1000, nowMs, policy, 'ttl_seconds');
  }
  if (hasExpiresAt) {
    const at = parseTimestamp(request.expiresAt, 'expires_at');
    return checkWithinLimits(at, nowMs, policy, 'expires_at');
  }
  return policy.defaultTtlMs === null ? null : nowMs + policy.defaultTtlMs;
}

/** The new expiry of an existing link: a timestamp, or `null` to never expire. */
export function resolveExpiryChange(
  expiresAt: string | null,
  nowMs: number,
  policy: ExpiryPolicy,
): number | null {
  if (expiresAt === null) {
    if (policy.maxTtlMs !== null) {
      throw invalidExpiry(
        'expires_at',
        `null (never expire) is refused because HOP_MAX_TTL limits every link to ${describeDuration(policy.maxTtlMs)}; an operator may set HOP_MAX_TTL=0 to allow links that never expire.`,
      );
    }
    return null;
  }
  return checkWithinLimits(parseTimestamp(expiresAt, 'expires_at'), nowMs, policy, 'expires_at');
}

function checkWithinLimits(
  atMs: number,
  nowMs: number,
  policy: ExpiryPolicy,
  field: string,
): number {
  if (atMs <= nowMs) throw invalidExpiry(field, 'must lie in the future.');
  if (atMs > LATEST_TIMESTAMP_MS) throw invalidExpiry(field, 'lies beyond the year 9999.');
  if (policy.maxTtlMs !== null && atMs - nowMs > policy.maxTtlMs) {
    throw invalidExpiry(
      field,
      `lies beyond the maximum lifetime of a link (HOP_MAX_TTL: ${describeDuration(policy.maxTtlMs)}).`,
    );
  }
  return atMs;
}

/** Whole units as a sentence says them: 10 years, 30 days, 90 seconds (HOP_*_TTL's units). */
export function describeDuration(ms: number): string {
  const units: readonly [string, number][] = [
    ['year', 365 * 86_400_000],
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1_000],
  ];
  for (const [name, unitMs] of units) {
    if (ms >= unitMs && ms % unitMs === 0) {
      const count = ms / unitMs;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}

/** `expires_at: must lie in the future.`: the field, a colon, then what is wrong with it. */
function invalidExpiry(field: string, problem: string): HopError {
  const detail = `${field}: ${problem}`;
  return new HopError('invalid-expiry', detail, { fields: [{ field, detail }] });
}
