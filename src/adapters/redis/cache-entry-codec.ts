import { ABSENT_ENTRY, cachedLinkOf, type CacheEntry } from '../../domain/cache-entry.js';
import type { RedirectStatus, StoredLinkState } from '../../domain/link.js';
import type { SmartOptions } from '../../domain/smart/smart-options.js';

/**
 * L2 values are short strings, `version|state|expiresAt|status|linkId|location`, so Redis holds
 * little and a version can be read by the Lua guard without JSON. `~version` marks an
 * invalidated code (a floor, read as a miss); `0|absent` is a negative entry. A smart link
 * (issue 21) carries its options as one more field before the link id,
 * `=<encodeURIComponent(JSON)>` (no `|` inside): plain links keep the older shape, and a
 * build from before smart links reads a smart value as a miss (its link id check fails on
 * the field), never as a redirect that skips the password, rules and limit. A crawlable link
 * (issue 22) writes its status as `+302`: a build from before reads the number all the
 * same, and sends `X-Robots-Tag: noindex` as it always did.
 */
export const ABSENT_VALUE = '0|absent';
const LINK_ID = /^[0-9A-Za-z-]{1,64}$/;

export function encodeEntry(entry: CacheEntry): string {
  if (!entry.found) return ABSENT_VALUE;
  const smart =
    entry.smart === null ? '' : `=${encodeURIComponent(JSON.stringify(entry.smart.options))}|`;
  const status = entry.crawlable ? `+${entry.status}` : String(entry.status);
  return `${entry.version}|${entry.state}|${entry.expiresAt ?? ''}|${status}|${smart}${entry.linkId}|${entry.location}`;
}

/** The entry a value stands for, or undefined for floors and anything unreadable. */
export function decodeEntry(value: string | null, code: string): CacheEntry | undefined {
  if (value === null || value.startsWith('~')) return undefined;
  if (value === ABSENT_VALUE) return ABSENT_ENTRY;
  const parts = value.split('|');
  if (parts.length < 6) return undefined;
  const [version, state, expiresAt, status, smartField] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  const smart = smartField.startsWith('=') ? readSmart(smartField) : null;
  if (smart === undefined) return undefined;
  const first = smart === null ? 4 : 5;
  const linkId = parts[first] ?? '';
  // Values written before links carried their id (`…|status|location`) read as a miss.
  if (!LINK_ID.test(linkId)) return undefined;
  const location = parts.slice(first + 1).join('|');
  try {
    return cachedLinkOf(
      linkId,
      code,
      Number(version),
      state as StoredLinkState,
      expiresAt === '' ? null : Number(expiresAt),
      Number(status) as RedirectStatus,
      location,
      smart,
      status.startsWith('+'),
    );
  } catch {
    // Options this build cannot prepare (another build's shape): a miss, read from the store.
    return undefined;
  }
}

/** A smart field's options, or undefined (a miss) for anything unreadable. */
function readSmart(field: string): SmartOptions | undefined {
  try {
    return JSON.parse(decodeURIComponent(field.slice(1))) as SmartOptions;
  } catch {
    return undefined;
  }
}
