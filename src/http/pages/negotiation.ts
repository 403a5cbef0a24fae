import { isNamed } from '../click-headers.js';
import { PAGE_LANGUAGES, type PageLanguage } from './page-texts.js';

/** Longer Accept and Accept-Language values are not parsed: the default answer. */
const MAX_HEADER_LENGTH = 2048;

/**
 * Whether a request asks for an HTML page rather than problem+json (ADR 0092): only an
 * explicit `text/html` with a weight above zero and above that of `application/json` and
 * `application/problem+json`. Wildcards (`*\/*`, `text/*`) count for neither, so curl, fetch
 * and API clients keep problem+json; every browser's navigation names text/html first. A
 * tie goes to problem+json, the API's own type. RFC 9110 §12.5.1.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined || accept.length > MAX_HEADER_LENGTH) return false;
  const lower = accept.toLowerCase();
  if (!lower.includes('text/html')) return false;
  let html = 0;
  let json = 0;
  for (const { value, weight } of weightedValues(lower)) {
    if (value === 'text/html') html = Math.max(html, weight);
    else if (value === 'application/json' || value === 'application/problem+json') {
      json = Math.max(json, weight);
    }
  }
  return html > 0 && html > json;
}

/**
 * The page language (RFC 9110 §12.5.4, basic filtering by primary subtag): the language hop
 * has with the highest weight, the earlier one on a tie; English when none is wanted.
 */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  if (acceptLanguage === undefined || acceptLanguage.length > MAX_HEADER_LENGTH) return 'en';
  let best: PageLanguage = 'en';
  let bestWeight = 0;
  for (const { value, weight } of weightedValues(acceptLanguage.toLowerCase())) {
    const dash = value.indexOf('-');
    const primary = dash < 0 ? value : value.slice(0, dash);
    const language = PAGE_LANGUAGES.find((shipped) => shipped === primary);
    if (language !== undefined && weight > bestWeight) {
      best = language;
      bestWeight = weight;
    }
  }
  return best;
}

/** The page language of a request, by its Accept-Language read from `rawHeaders`. */
export function pageLanguageOf(rawHeaders: readonly string[]): PageLanguage {
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (isNamed(rawHeaders[index] ?? '', 'accept-language')) {
      return pageLanguage(rawHeaders[index + 1]);
    }
  }
  return pageLanguage(undefined);
}

/**
 * `a;q=0.5, b` → `{a, 0.5}`, `{b, 1}`; other parameters are dropped. A weight that is not a
 * qvalue (RFC 9110 §12.4.2) makes its value count as not wanted.
 */
function* weightedValues(header: string): Generator<{ value: string; weight: number }> {
  for (const part of header.split(',')) {
    const [rawValue = '', ...parameters] = part.split(';');
    const value = rawValue.trim();
    if (value === '') continue;
    let weight = 1;
    for (const parameter of parameters) {
      const [name = '', given = ''] = parameter.split('=');
      if (name.trim() !== 'q') continue;
      weight = /^\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/.test(given) ? Number(given) : 0;
    }
    yield { value, weight };
  }
}
