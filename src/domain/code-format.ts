/**
 * The shape every code and alias shares: `[A-Za-z0-9_-]`, 3 to 64 characters.
 * Generated codes (base62 or base64url) and custom aliases both fit it, so a path that
 * does not can never be a link and is answered without touching any store (SPEC §3).
 */
export const MIN_CODE_LENGTH = 3;
export const MAX_CODE_LENGTH = 64;
/** The same shape as a JSON Schema pattern, for documentation: isPossibleCode checks. */
export const CODE_PATTERN = `^[A-Za-z0-9_-]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$`;

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
      c === 95; // _
    if (!ok) return false;
  }
  return true;
}
