import { ABSENT_ENTRY, cachedLinkOf, type CacheEntry } from '../../domain/cache-entry.js';
import type { RedirectStatus, StoredLinkState } from '../../domain/link.js';

/**
 * L2 values are short strings, `version|state|expiresAt|status|linkId|location`, so Redis holds
 * little and a version can be read by the Lua guard without JSON. `~version` marks an
 * invalidated code (a floor, read as a miss); `0|absent` is a negative entry.
 */
export const ABSENT_VALUE = '0|absent';
const LINK_ID = /^[0-9A-Za-z-]{1,64}$/;

export function encodeEntry(entry: CacheEntry): string {
  if (!entry.found) return ABSENT_VALUE;
  return `${entry.version}|${entry.state}|${entry.expiresAt ?? ''}|${entry.status}|${entry.linkId}|${entry.location}`;
}

/** The entry a value stands for, or undefined for floors and anything unreadable. */
export function decodeEntry(value: string | null, code: string): CacheEntry | undefined {
  if (value === null || value.startsWith('~')) return undefined;
  if (value === ABSENT_VALUE) return ABSENT_ENTRY;
  const parts = value.split('|');
  if (parts.length < 6) return undefined;
  const [version, state, expiresAt, status, linkId] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  // Values written before links carried their id (`…|status|location`) read as a miss.
  if (!LINK_ID.test(linkId)) return undefined;
  const location = parts.slice(5).join('|');
  return cachedLinkOf(
    linkId,
    code,
    Number(version),
    state as StoredLinkState,
    expiresAt === '' ? null : Number(expiresAt),
    Number(status) as RedirectStatus,
    location,
  );
}
