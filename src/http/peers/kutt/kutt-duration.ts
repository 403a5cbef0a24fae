import { KuttRefusal } from './kutt-errors.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The units of the `ms` package, which Kutt reads `expire_in` with ("2 minutes", "8h"). */
const UNIT_MS: Readonly<Record<string, number>> = {
  years: 365.25 * DAY,
  year: 365.25 * DAY,
  yrs: 365.25 * DAY,
  yr: 365.25 * DAY,
  y: 365.25 * DAY,
  weeks: 7 * DAY,
  week: 7 * DAY,
  w: 7 * DAY,
  days: DAY,
  day: DAY,
  d: DAY,
  hours: HOUR,
  hour: HOUR,
  hrs: HOUR,
  hr: HOUR,
  h: HOUR,
  minutes: MINUTE,
  minute: MINUTE,
  mins: MINUTE,
  min: MINUTE,
  m: MINUTE,
  seconds: SECOND,
  second: SECOND,
  secs: SECOND,
  sec: SECOND,
  s: SECOND,
  milliseconds: 1,
  millisecond: 1,
  msecs: 1,
  msec: 1,
  ms: 1,
};

/** `ms`'s grammar: a number, optional spaces, an optional unit (none: milliseconds). */
const DURATION = /^(-?(?:\d+)?\.?\d+) *([a-z]+)?$/i;
/** `ms` refuses longer text; so does hop. */
const MAX_DURATION_TEXT = 100;

export const EXPIRE_FORMAT_INVALID = 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.';
export const EXPIRE_TOO_SOON = 'Expire time should be more than 1 minute.';

/**
 * Kutt's `expire_in` (validators.handler.js): duration text read as `ms` reads it, at least
 * one minute, made an absolute time from `nowMs`, as hop's `expires_at` (RFC 3339).
 */
export function expiryOfDuration(value: unknown, nowMs: number): string {
  if (typeof value !== 'string') throw new KuttRefusal(400, EXPIRE_FORMAT_INVALID);
  const text = value.trim();
  const match = text.length <= MAX_DURATION_TEXT ? DURATION.exec(text) : null;
  const unit = (match?.[2] ?? 'ms').toLowerCase();
  const unitMs = UNIT_MS[unit];
  if (match === null || unitMs === undefined) throw new KuttRefusal(400, EXPIRE_FORMAT_INVALID);
  const durationMs = Number(match[1]) * unitMs;
  // `ms` reads "0" as 0, which Kutt takes as "no value": it fails the format check there.
  if (!Number.isFinite(durationMs) || durationMs === 0) {
    throw new KuttRefusal(400, EXPIRE_FORMAT_INVALID);
  }
  if (durationMs < MINUTE) throw new KuttRefusal(400, EXPIRE_TOO_SOON);
  const at = nowMs + Math.round(durationMs);
  // Past any date a Date can hold: hop's expiry policy names the real bound.
  if (!Number.isFinite(new Date(at).getTime())) {
    throw new KuttRefusal(400, 'Expire time is too far in the future.');
  }
  return new Date(at).toISOString();
}
