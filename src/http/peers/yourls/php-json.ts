/**
 * JSON as PHP's `json_encode` writes it with its default flags, which YOURLS uses: `/` as
 * `\/` and every character outside ASCII as a `\uXXXX` escape (UTF-16 units, so astral
 * characters are surrogate pairs, as PHP writes them). Parsed, it is the same JSON.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
