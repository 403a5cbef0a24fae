/** A click whose language is not known: in no language's count, null in a visit. */
export const NO_LANGUAGE = '';

/** Longer headers are not read past this: a browser's is a few dozen characters. */
const MAX_HEADER_LENGTH = 256;
/** RFC 5646 §2.1: a primary language subtag is 2–3 letters (4–8 are reserved or unused). */
const PRIMARY = /^[a-z]{2,3}$/;
/** RFC 9110 §12.4.2: a weight is 0 to 1 with up to three decimals. */
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The primary language subtag of the most preferred range of an Accept-Language header
 * (RFC 9110 §12.5.4), lower case: `fr-CH, fr;q=0.9, en;q=0.8` → `fr`. The wildcard, a
 * range refused with `q=0`, and anything that is not a language range → NO_LANGUAGE.
 * Ties keep the first, as the header's order says.
 */
export function primaryLanguageOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return NO_LANGUAGE;
  const text = raw.length > MAX_HEADER_LENGTH ? raw.slice(0, MAX_HEADER_LENGTH) : raw;
  let best = NO_LANGUAGE;
  let bestWeight = 0;
  for (const range of text.split(',')) {
    const [tag = '', ...parameters] = range.split(';');
    let weight = 1;
    for (const parameter of parameters) {
      const match = WEIGHT.exec(parameter.trim().toLowerCase());
      if (match === null) {
        weight = -1;
        break;
      }
      weight = Number(match[1]);
    }
    if (!(weight > bestWeight)) continue;
    const primary = tag.trim().split('-', 1)[0]?.toLowerCase() ?? '';
    if (!PRIMARY.test(primary)) continue;
    best = primary;
    bestWeight = weight;
  }
  return best;
}
