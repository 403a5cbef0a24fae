import { BoundedMemo } from '../bounded-memo.js';

/**
 * `Accept-Language` (RFC 9110 §12.5.4) as the language tags a visitor accepts, lower case,
 * without those weighted q=0 ("not acceptable"). `*` names no language in particular, so
 * it matches no rule (ADR 0108). Parsed once per distinct header value per process.
 */
export type AcceptedLanguages = readonly string[];

/** Entries read from one header; a longer list is someone's game, not a browser's. */
const MAX_ENTRIES = 32;
/** Distinct headers remembered: browsers send a few hundred spellings between them. */
const MAX_REMEMBERED_HEADERS = 10_000;

const NONE: AcceptedLanguages = Object.freeze([]);
const ZERO_WEIGHT = /;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)/i;

/** The accepted tags of one header value, in its order (uncached). */
export function parseAcceptLanguage(header: string): AcceptedLanguages {
  const tags: string[] = [];
  const entries = header.split(',', MAX_ENTRIES);
  for (const entry of entries) {
    const semicolon = entry.indexOf(';');
    const tag = (semicolon < 0 ? entry : entry.slice(0, semicolon)).trim().toLowerCase();
    if (tag === '' || tag === '*') continue;
    if (semicolon >= 0 && ZERO_WEIGHT.test(entry.slice(semicolon))) continue;
    tags.push(tag);
  }
  return tags.length === 0 ? NONE : Object.freeze(tags);
}

const ACCEPTED = new BoundedMemo(parseAcceptLanguage, MAX_REMEMBERED_HEADERS);

/** The accepted tags of a request's header, memoised per process; none when absent. */
export function acceptedLanguagesOf(header: string | undefined): AcceptedLanguages {
  return header === undefined || header === '' ? NONE : ACCEPTED.resolve(header);
}

/**
 * True when a rule's (lower-case) tag covers one the visitor accepts: `de` covers `de` and
 * `de-at`; `de-at` covers `de-at` and `de-at-1996` but not `de` (RFC 4647 §3.3.1 basic
 * filtering).
 */
export function isLanguageAccepted(ruleTag: string, accepted: AcceptedLanguages): boolean {
  for (const tag of accepted) {
    if (
      tag.startsWith(ruleTag) &&
      (tag.length === ruleTag.length || tag.charCodeAt(ruleTag.length) === 0x2d)
    ) {
      return true;
    }
  }
  return false;
}
