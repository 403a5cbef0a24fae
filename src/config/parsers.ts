import { isIP } from 'node:net';

/**
 * Parsers for configuration values. Each returns the value or throws a `ParseError`
 * whose message says what the variable accepts.
 */
export class ParseError extends Error {}

const DURATION_UNITS_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

/** `90s`, `10m`, `30d`, `2y` → milliseconds; `0` → null ("never"). */
export function parseDurationOrNever(raw: string): number | null {
  if (raw.trim() === '0') return null;
  return parseDuration(raw);
}

/** `250ms`, `90s`, `10m`, `30d`, `2y` → milliseconds (strictly positive). */
export function parseDuration(raw: string): number {
  const match = /^\s*(\d+)\s*(ms|s|m|h|d|w|y)\s*$/.exec(raw);
  const amount = match === null ? Number.NaN : Number(match[1]);
  const unit = match?.[2];
  if (unit === undefined || !Number.isSafeInteger(amount) || amount <= 0) {
    throw new ParseError('a duration such as 250ms, 90s, 10m, 12h, 30d or 2y');
  }
  const ms = amount * (DURATION_UNITS_MS[unit] as number);
  if (!Number.isSafeInteger(ms)) throw new ParseError('a duration shorter than 250000 years');
  return ms;
}

export interface RateRule {
  readonly ratePerSecond: number;
  readonly burst: number;
}

const RATE_UNITS_S: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * `20/s`, `600/m:50` (rate, then an optional burst) → a rule; `0` or `off` → null. Without a
 * burst, five seconds' worth is allowed at once: SPEC's 20/s comes with a burst of 100.
 */
export function parseRate(raw: string): RateRule | null {
  const text = raw.trim();
  if (text === '0' || text === 'off') return null;
  const match = /^(\d+(?:\.\d+)?)\/(s|m|h)(?::(\d+))?$/.exec(text);
  const accepts = 'a rate such as 20/s, 600/m or 20/s:100 (rate:burst), or off';
  if (match === null) throw new ParseError(accepts);
  const ratePerSecond = Number(match[1]) / (RATE_UNITS_S[match[2] as string] as number);
  const burst =
    match[3] === undefined ? Math.max(1, Math.ceil(5 * ratePerSecond)) : Number(match[3]);
  if (!(ratePerSecond > 0) || !(burst >= 1)) throw new ParseError(accepts);
  return Object.freeze({ ratePerSecond, burst });
}

export function parseInteger(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new ParseError(`a whole number from ${min} to ${max}`);
    }
    return value;
  };
}

export function parseOneOf<T extends string>(choices: readonly T[]): (raw: string) => T {
  return (raw) => {
    const value = raw.trim();
    if (!(choices as readonly string[]).includes(value)) {
      throw new ParseError(`one of: ${choices.join(', ')}`);
    }
    return value as T;
  };
}

/** An absolute http(s) URL without credentials, or a ParseError that names `example`. */
function absoluteHttpUrl(raw: string, example: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    // said below
  }
  if (
    url === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new ParseError(`an absolute http:// or https:// URL such as ${example}`);
  }
  return url;
}

/** An absolute http(s) URL without path, query or fragment, e.g. https://hop.example. */
export function parseBaseUrl(raw: string): string {
  const example = 'https://hop.example';
  const url = absoluteHttpUrl(raw, example);
  if (url.search !== '' || url.hash !== '') {
    throw new ParseError(`an absolute http:// or https:// URL such as ${example}`);
  }
  return url.href.replace(/\/+$/, '');
}

/** An absolute http(s) URL to send a visitor to (path and query kept), without credentials. */
export function parseHttpUrl(raw: string): string {
  return absoluteHttpUrl(raw, 'https://example.com/about').href;
}

/** `host:port,host:port` → the list, each entry checked. */
export function parseHostPortList(raw: string): readonly string[] {
  const nodes = commaList(raw);
  const valid = nodes.every((node) => {
    const match = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(node);
    return match !== null && Number(match[2]) > 0 && Number(match[2]) < 65536;
  });
  if (nodes.length === 0 || !valid) {
    throw new ParseError(
      'seed nodes as host:port, separated by commas, e.g. 10.0.0.5:7000,10.0.0.6:7000',
    );
  }
  return Object.freeze(nodes);
}

/** redis://[user:password@]host[:port][/db] or rediss://… */
export function parseRedisUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    if ((url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '') {
      return url.href;
    }
  } catch {
    // fall through
  }
  throw new ParseError('a Redis URL such as redis://127.0.0.1:6379');
}

/**
 * The shared store's URL: PostgreSQL, or MariaDB/MySQL (issue 25: `mysql://` or
 * `mariadb://`, which names the database hop's tables live in).
 */
export function parseDatabaseUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    const postgres = url.protocol === 'postgres:' || url.protocol === 'postgresql:';
    // MariaDB's database is hop's namespace (PostgreSQL's is HOP_DATABASE_SCHEMA): required.
    const named = postgres || /^\/[A-Za-z0-9_$]{1,64}$/.test(url.pathname);
    if (url.hostname !== '' && DATABASE_SCHEMES.has(url.protocol) && named) return raw.trim();
  } catch {
    // fall through
  }
  throw new ParseError(
    'a PostgreSQL URL such as postgres://hop@127.0.0.1:5432/hop, or a MariaDB/MySQL one naming its database, such as mysql://hop@127.0.0.1:3306/hop',
  );
}

const DATABASE_SCHEMES = new Set(['postgres:', 'postgresql:', 'mysql:', 'mariadb:']);

/** Which engine a URL accepted by parseDatabaseUrl is for. */
export function databaseEngineOf(url: string): 'postgres' | 'mariadb' {
  return url.trim().startsWith('postgres') ? 'postgres' : 'mariadb';
}

export function parsePostgresUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    if ((url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '') {
      return raw.trim();
    }
  } catch {
    // fall through
  }
  throw new ParseError('a PostgreSQL URL such as postgres://hop@127.0.0.1:5432/hop');
}

/** A lower-case SQL name that needs no quoting: hop puts it into statements as it is. */
export function parseSqlIdentifier(raw: string): string {
  const name = raw.trim();
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new ParseError('a schema name of lower-case letters, digits and _ (at most 63)');
  }
  return name;
}

/** An IP address or a DNS host name to listen on. */
export function parseHost(raw: string): string {
  const host = raw.trim();
  const isName =
    /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
      host,
    );
  if (isIP(host) === 0 && !isName)
    throw new ParseError('an IP address or host name, e.g. 0.0.0.0 or ::');
  return host;
}

export function parseNonEmpty(raw: string): string {
  if (raw.trim() === '') throw new ParseError('a non-empty value');
  return raw.trim();
}

/** A secret handed to us: long enough that it cannot be guessed, printable, no spaces. */
export function parseSecret(raw: string): string {
  if (!/^[\x21-\x7e]{20,200}$/.test(raw)) {
    throw new ParseError('20 to 200 printable characters without spaces');
  }
  return raw;
}

/** NATS servers: `nats://host:port` (or `tls://…`, or bare `host:port`), comma-separated. */
export function parseNatsServers(raw: string): readonly string[] {
  const servers = commaList(raw);
  const valid = servers.every((server) => {
    const withScheme = /^[a-z]+:\/\//.test(server) ? server : `nats://${server}`;
    if (!URL.canParse(withScheme)) return false;
    const url = new URL(withScheme);
    return ['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '';
  });
  if (servers.length === 0 || !valid) {
    throw new ParseError('NATS servers such as nats://127.0.0.1:4222, separated by commas');
  }
  return Object.freeze(servers);
}

/** An HTTP header name (RFC 9110 token), lower-cased as Node presents headers. */
export function parseHeaderName(raw: string): string {
  const name = raw.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/.test(name)) {
    throw new ParseError('an HTTP header name such as cf-ipcountry');
  }
  return name;
}

/** A region's name (issue 25): it goes into stream names, subjects and instance ids. */
export function parseRegionName(raw: string): string {
  const name = raw.trim();
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(name)) {
    throw new ParseError(
      'a region name of lower-case letters, digits and - (at most 32), e.g. eu-west',
    );
  }
  return name;
}

/** A NATS subject without wildcards: tokens of letters, digits, _ and -, joined by dots. */
export function parseSubject(raw: string): string {
  const subject = raw.trim();
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(subject) || subject.length > 128) {
    throw new ParseError('a NATS subject of dot-separated tokens (letters, digits, _ and -)');
  }
  return subject;
}

/** A JetStream stream name: letters, digits, `_` and `-`. */
export function parseStreamName(raw: string): string {
  const name = raw.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
    throw new ParseError('a stream name of letters, digits, _ and - (at most 64)');
  }
  return name;
}

/** on/off, yes/no, true/false, 1/0. */
export function parseSwitch(raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['on', 'yes', 'true', '1'].includes(value)) return true;
  if (['off', 'no', 'false', '0'].includes(value)) return false;
  throw new ParseError('on or off');
}

/** `a, b,,c` → ['a', 'b', 'c']. */
function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A probability strictly between 0 and 1, as a decimal or in e-notation (`1e-6`). */
export function parseProbability(raw: string): number {
  const value = /^\d+(\.\d+)?(e-?\d+)?$/i.test(raw) ? Number(raw) : Number.NaN;
  if (!(value > 0 && value < 1))
    throw new ParseError('a probability between 0 and 1, such as 1e-6');
  return value;
}

/** Names proxy-addr knows for whole ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `10.0.0.1, 10.1.0.0/16, loopback` → the list, each entry an address, a CIDR or a range name. */
export function parseTrustedProxies(raw: string): readonly string[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const accepts =
    'addresses, CIDRs (10.0.0.0/8) or loopback, linklocal, uniquelocal, comma-separated';
  if (entries.length === 0) throw new ParseError(accepts);
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.includes(entry)) continue;
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !bitsOk || rest.length > 0) throw new ParseError(accepts);
  }
  return Object.freeze(entries);
}
