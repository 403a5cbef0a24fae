import type { LinkVariant } from './smart-options.js';

/**
 * Drawing a link's destination among its variants by weight (issue 21, ADR 0108), and the
 * cookie that keeps a visitor on the variant first drawn. The cookie names the variant by
 * a hash of its destination, not by its place in the list: reordering the variants or
 * changing their weights keeps visitors where they are; removing or changing a visitor's
 * destination draws again.
 */
export interface VariantDraw {
  /** Running totals of the weights: variant i is drawn for r in [cumulative[i-1], cumulative[i]). */
  readonly cumulative: readonly number[];
  readonly total: number;
  /** The cookie token of each variant (the hash of its destination). */
  readonly tokens: readonly string[];
}

/** Once per cache fill. */
export function compileVariants(variants: readonly LinkVariant[]): VariantDraw {
  const cumulative: number[] = [];
  let total = 0;
  for (const variant of variants) {
    total += variant.weight;
    cumulative.push(total);
  }
  return { cumulative, total, tokens: variants.map((v) => variantToken(v.destination)) };
}

/** An index drawn with probability weight/total; `random` returns [0, 1) like Math.random. */
export function drawVariant(draw: VariantDraw, random: () => number): number {
  const target = random() * draw.total;
  const last = draw.cumulative.length - 1;
  for (let index = 0; index < last; index++) {
    if (target < (draw.cumulative[index] as number)) return index;
  }
  return last;
}

const COOKIE_PREFIX = 'hop_v_';

/** The cookie that remembers a visitor's variant of one link (link ids are cookie-safe ULIDs). */
export function variantCookieName(linkId: string): string {
  return COOKIE_PREFIX + linkId;
}

/** The cookie's value for a drawn variant. */
export function variantCookieValue(draw: VariantDraw, index: number): string {
  const token = draw.tokens[index];
  if (token === undefined) throw new RangeError(`No variant ${index}`);
  return token;
}

/** The variant a visitor's cookie names, or -1 when it names none of these (or is absent). */
export function stickyVariant(draw: VariantDraw, cookieValue: string | undefined): number {
  return cookieValue === undefined ? -1 : draw.tokens.indexOf(cookieValue);
}

/**
 * The value of cookie `name` in a raw `Cookie` header (RFC 6265 §5.4: `a=1; b=2`), or
 * undefined. A scan, not a parser: the redirect needs one cookie and its value is a token.
 */
export function cookieValueOf(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  let from = 0;
  for (;;) {
    const at = header.indexOf(name, from);
    if (at < 0) return undefined;
    const end = at + name.length;
    if (isPairStart(header, at) && header.charCodeAt(end) === 0x3d /* = */) {
      const semicolon = header.indexOf(';', end + 1);
      return header.slice(end + 1, semicolon < 0 ? header.length : semicolon).trim();
    }
    from = at + 1;
  }
}

function isPairStart(header: string, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && header.charCodeAt(before) === 0x20) before--;
  return before < 0 || header.charCodeAt(before) === 0x3b; /* ; */
}

/** FNV-1a over the UTF-16 units, base 36: 6–7 characters, cookie-safe. */
function variantToken(destination: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < destination.length; i++) {
    hash ^= destination.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
