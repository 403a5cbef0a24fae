import { joinUrl, pairName, rawPairs, splitUrl } from './query-pairs.js';

/**
 * `forward_query` (issue 21): the visitor's query string added to the chosen destination.
 * A parameter the destination already has keeps the destination's values (all of them);
 * the visitor's other pairs follow in their order, as the visitor wrote them, with only
 * the characters a URL may not carry percent-encoded. The fragment stays last.
 */
export function forwardQuery(destination: string, visitorQuery: string): string {
  if (visitorQuery === '') return destination;
  const incoming = rawPairs(visitorQuery);
  if (incoming.length === 0) return destination;
  const { base, query, fragment } = splitUrl(destination);
  const kept = query === null ? [] : rawPairs(query);
  const ownNames = new Set(kept.map(pairName));
  let added = false;
  for (const pair of incoming) {
    if (ownNames.has(pairName(pair))) continue;
    kept.push(encodeUnsafe(pair));
    added = true;
  }
  return added ? joinUrl(base, kept, fragment) : destination;
}

/** WHATWG's query percent-encode set, DEL and non-ASCII: what a Location may not carry raw. */
const UNSAFE = /[\p{Cc} "#<>\u{80}-\u{10ffff}]/gu;

function encodeUnsafe(pair: string): string {
  return pair.replace(UNSAFE, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as the URL parser would write it
    }
  });
}
