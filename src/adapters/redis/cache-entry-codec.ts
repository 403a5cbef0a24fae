import type { RedirectStatus, StoredLinkState } from '../../domain/link.js';
import { TEMPORARY_CACHE_CONTROL } from '../../domain/redirect-outcome.js';
import type { CacheEntry, CachedAbsence } from '../../ports/near-link-cache.js';

/**
 * L2 values are short strings, `version|state|expiresAt|status|location`, so Redis holds
 * little and a version can be read by the Lua guard without JSON. `~version` marks an
 * invalidated code (a floor, read as a miss); `0|absent` is a negative entry.
 */
export const ABSENT_VALUE = '0|absent';

const ABSENT: CachedAbsence = Object.freeze({
  found: false,
  version: 0,
  state: 'deleted',
  expiresAt: null,
  status: 302,
  location: '',
  fixedOutcome: null,
});

export function encodeEntry(entry: CacheEntry): string {
  if (!entry.found) return ABSENT_VALUE;
  return `${entry.version}|${entry.state}|${entry.expiresAt ?? ''}|${entry.status}|${entry.location}`;
}

/** The entry a value stands for, or undefined for floors and anything unreadable. */
export function decodeEntry(value: string | null): CacheEntry | undefined {
  if (value === null || value.startsWith('~')) return undefined;
  if (value === ABSENT_VALUE) return ABSENT;
  const parts = value.split('|');
  if (parts.length < 5) return undefined;
  const [version, state, expiresAt, status] = parts as [string, string, string, string];
  const location = parts.slice(4).join('|');
  const statusCode = Number(status) as RedirectStatus;
  return Object.freeze({
    found: true,
    version: Number(version),
    state: state as StoredLinkState,
    expiresAt: expiresAt === '' ? null : Number(expiresAt),
    status: statusCode,
    location,
    fixedOutcome:
      statusCode === 301 || statusCode === 308
        ? null
        : Object.freeze({
            kind: 'redirect',
            status: statusCode,
            location,
            cacheControl: TEMPORARY_CACHE_CONTROL,
          }),
  });
}
