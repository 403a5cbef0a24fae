/**
 * The shape every code may have: 1 to 64 characters of RFC 3986's unreserved set
 * `[A-Za-z0-9._~-]`. Generated codes (base62 or base64url) and custom aliases fit a
 * narrower shape (ALIAS_PATTERN); codes kept from another shortener (issue 24: YOURLS's
 * 1–2 character keywords, Shlink's `.` and `~`) may use the whole of this one. A path that
 * does not fit it can never be a link and is answered without touching any store (SPEC §3).
 */
export const MIN_CODE_LENGTH = 1;
export const MAX_CODE_LENGTH = 64;
/** The same shape as a JSON Schema pattern, for documentation: isPossibleCode checks. */
export const CODE_PATTERN = `^[A-Za-z0-9._~-]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$`;

/** What a new custom alias may be (SPEC §2): `[A-Za-z0-9_-]`, 3 to 64 characters. */
export const MIN_ALIAS_LENGTH = 3;
export const MAX_ALIAS_LENGTH = MAX_CODE_LENGTH;
export const ALIAS_PATTERN = `^[A-Za-z0-9_-]{${MIN_ALIAS_LENGTH},${MAX_ALIAS_LENGTH}}$`;

/**
 * True when `candidate` may be a code. On the redirect path: one pass over the characters,
 * no allocation, no regular expression.
 */
export function isPossibleCode(candidate: string): boolean {
  const length = candidate.length;
  if (length < MIN_CODE_LENGTH || length > MAX_CODE_LENGTH) return false;
  for (let i = 0; i < length; i++) {
    const c = candidate.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) || // 0-9
      (c >= 65 && c <= 90) || // A-Z
      (c >= 97 && c <= 122) || // a-z
      c === 45 || // -
      c === 95 || // _
      c === 46 || // .
      c === 126; // ~
    if (!ok) return false;
  }
  return true;
}

/**
 * True when `candidate` has the shape of a new custom alias (ALIAS_PATTERN): a possible
 * code of 3 or more characters without the `.` and `~` only kept codes may hold.
 */
export function isAliasShaped(candidate: string): boolean {
  return (
    candidate.length >= MIN_ALIAS_LENGTH &&
    isPossibleCode(candidate) &&
    !candidate.includes('.') &&
    !candidate.includes('~')
  );
}
