/**
 * RFC 3339 §5.6 date-times (`2026-12-05T09:00:00Z`, `…T10:00:00.5+01:00`), as epoch ms.
 * `Date.parse` alone accepts far more (and rolls Feb 30 over into March), so the shape and
 * the calendar are checked first. No leap seconds: JavaScript time has none.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Instants whose UTC year has four digits, so that toISOString() writes them back as RFC 3339. */
const EARLIEST_MS = Date.parse('0000-01-01T00:00:00Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch ms of an RFC 3339 date-time, or null when `text` is not one. */
export function parseRfc3339(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, , , offsetHour, offsetMinute] = match;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > (DAYS_IN_MONTH[m - 1] ?? 0)) return null;
  if (m === 2 && d === 29 && !isLeapYear(y)) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (offsetHour !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) {
    return null;
  }
  const ms = Date.parse(text.toUpperCase());
  return ms >= EARLIEST_MS && ms <= LATEST_MS ? ms : null;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
