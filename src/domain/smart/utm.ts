import { joinUrl, pairName, rawPairs, splitUrl } from './query-pairs.js';

/**
 * `utm` (issue 21): set a destination's `utm_*` parameters when the link is written; the
 * link JSON shows them read back from the destination, so the destination is the one
 * truth. Values are written with encodeURIComponent; other pairs are kept as written.
 */
export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

/** The `utm_*` parameters of a destination (the first value of each). */
export type Utm = Partial<Readonly<Record<UtmKey, string>>>;

/** What a write asks for: a string sets `utm_<key>`, null removes it, absent leaves it. */
export type UtmChanges = Partial<Readonly<Record<UtmKey, string | null>>>;

/** The destination with `changes` applied: a parameter that exists is replaced in place. */
export function applyUtm(destination: string, changes: UtmChanges): string {
  const { base, query, fragment } = splitUrl(destination);
  const pairs = query === null ? [] : rawPairs(query);
  let changed = false;
  for (const key of UTM_KEYS) {
    const value = changes[key];
    if (value === undefined) continue;
    const name = `utm_${key}`;
    const replacement = value === null ? null : `${name}=${encodeURIComponent(value)}`;
    let placed = false;
    for (let i = 0; i < pairs.length; i++) {
      if (pairName(pairs[i] as string) !== name) continue;
      if (replacement !== null && !placed) {
        pairs[i] = replacement;
        placed = true;
      } else {
        pairs.splice(i--, 1); // a second value of a parameter being set or removed
      }
      changed = true;
    }
    if (replacement !== null && !placed) {
      pairs.push(replacement);
      changed = true;
    }
  }
  return changed ? joinUrl(base, pairs, fragment) : destination;
}

/** The `utm_*` parameters a destination carries, or null when it carries none. */
export function utmOf(destination: string): Utm | null {
  const { query } = splitUrl(destination);
  if (query === null || !query.includes('utm_')) return null;
  const params = new URLSearchParams(query);
  const utm: Partial<Record<UtmKey, string>> = {};
  let found = false;
  for (const key of UTM_KEYS) {
    const value = params.get(`utm_${key}`);
    if (value === null) continue;
    utm[key] = value;
    found = true;
  }
  return found ? utm : null;
}
