const numbers = new Intl.NumberFormat('en');

export function count(n: number | null): string {
  return n === null ? '…' : numbers.format(Math.round(n));
}

/** Rates: one decimal below 10, so a trickle does not read as nothing. */
export function rate(n: number): string {
  return n < 10 ? n.toFixed(1) : numbers.format(Math.round(n));
}

export function dateTime(iso: string | null): string {
  if (iso === null) return '—';
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The day alone, for tables; `dateTime` says the minute. */
export function date(iso: string | null): string {
  if (iso === null) return '—';
  return new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' });
}

export function ms(value: number | null): string {
  if (value === null) return '—';
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`;
}

/** A country as the analytics name it: ISO 3166 codes, `ZZ` where hop could not tell. */
export function countryName(code: string): string {
  return code === 'ZZ' ? 'Unknown' : code;
}

/** An instant as a datetime-local value, in the browser's time zone, to the minute. */
export function localDateTime(iso: string | null): string {
  if (iso === null) return '';
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
