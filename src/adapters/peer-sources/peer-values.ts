/** Reading the peers' cells and columns into PeerLink values; null: not readable. */

/** A click total: a whole number ≥ 0, as a number, a bigint or its decimal text. */
export function clickCount(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return 0;
  const count = typeof value === 'string' ? Number(value.trim()) : Number(value);
  return Number.isSafeInteger(count) && count >= 0 ? count : null;
}

/** A date-and-time with no zone, as SQL servers print one: `2024-03-01 12:30:00[.123]`. */
const ZONELESS = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Epoch milliseconds of a peer's time: a Date (pg, mysql2), epoch milliseconds (knex's
 * SQLite binding of a Date), a zoneless SQL text taken as UTC (Kutt writes UTC into SQLite,
 * YOURLS writes PHP's UTC time), or an RFC 3339 text with its zone (Shlink). Undefined when
 * there is no time (empty, MySQL's zero date); null when it cannot be read.
 */
export function epochMs(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number' || typeof value === 'bigint') {
    const ms = Number(value);
    return Number.isSafeInteger(ms) ? ms : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '' || text.startsWith('0000-00-00')) return undefined;
  const ms = Date.parse(ZONELESS.test(text) ? `${text.replace(' ', 'T')}Z` : text);
  return Number.isNaN(ms) ? null : ms;
}

/** Trimmed text, or null when empty or absent. */
export function textOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** A database flag: true, 1, '1', 't', 'true'. */
export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** A database URL without its password, fit for an error line. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/**
 * What a driver's failure says, for one error line: the first of an AggregateError's (a
 * refused connection to each address tried), its message, else its code.
 */
export function driverMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return driverMessage(error.errors[0]);
  }
  const message = error instanceof Error ? error.message : String(error);
  return message !== '' ? message : ((error as { code?: string }).code ?? 'unknown error');
}
