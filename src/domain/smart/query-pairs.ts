/**
 * The raw `name=value` pairs of a query string and their names as a form decoder reads
 * them (WHATWG URL application/x-www-form-urlencoded), for the edits issue 21 makes to a
 * destination's query (forwarding, UTM) without re-encoding the pairs it keeps.
 */

/** Splits `url` into the part before its query, its query (no `?`) and its fragment (with `#`). */
export function splitUrl(url: string): { base: string; query: string | null; fragment: string } {
  const hash = url.indexOf('#');
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const question = beforeFragment.indexOf('?');
  return question < 0
    ? { base: beforeFragment, query: null, fragment }
    : {
        base: beforeFragment.slice(0, question),
        query: beforeFragment.slice(question + 1),
        fragment,
      };
}

/** The non-empty `&`-separated pairs of a raw query, as written. */
export function rawPairs(query: string): string[] {
  return query === '' ? [] : query.split('&').filter((pair) => pair !== '');
}

/** The decoded name of a raw pair (`+` is a space; a bad escape stays as written). */
export function pairName(pair: string): string {
  const equals = pair.indexOf('=');
  const raw = (equals < 0 ? pair : pair.slice(0, equals)).replaceAll('+', ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Joins a base, pairs and a fragment back into a URL; no `?` when there are no pairs. */
export function joinUrl(base: string, pairs: readonly string[], fragment: string): string {
  return pairs.length === 0 ? base + fragment : `${base}?${pairs.join('&')}${fragment}`;
}
