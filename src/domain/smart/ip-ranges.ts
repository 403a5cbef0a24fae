import ipaddr from 'ipaddr.js';

/**
 * The `ip` condition of a rule (issue 21): addresses or CIDRs, IPv4 or IPv6. IPv4-mapped
 * IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket reports an IPv4 client) is IPv4 here,
 * both in rules and in the visitor's address, so either spelling matches either.
 * IPv4 is compared as 32-bit numbers (a visitor's dotted quad is read without ipaddr.js,
 * which parses every address twice); IPv6 through ipaddr.js.
 * (`import ipaddr from` — the package's named imports do not exist at runtime.)
 */
export interface IpRanges {
  /** Pairs of (network, mask) as unsigned 32-bit numbers, flat: [n0, m0, n1, m1, …]. */
  readonly v4: readonly number[];
  readonly v6: readonly [ipaddr.IPv6, number][];
}

/** A visitor's address: an IPv4 number (v6 null), or an IPv6 address (v4 -1). */
export interface VisitorAddress {
  readonly v4: number;
  readonly v6: ipaddr.IPv6 | null;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const PREFIX = /^(0|[1-9]\d{0,2})$/;
const MAPPED_PREFIX = '::ffff:';

/** The normalised spelling of an address or CIDR (`10.0.0.0/8`, `2001:db8::/32`), or null. */
export function normaliseIpCondition(text: string): string | null {
  const range = parseRange(text);
  if (range === null) return null;
  const [address, prefix] = range;
  const full = address.kind() === 'ipv4' ? 32 : 128;
  return prefix === full && !text.includes('/')
    ? address.toString()
    : `${address.toString()}/${prefix}`;
}

/** Parsed once per cache fill: the ranges of one rule's condition, split by kind. */
export function compileIpRanges(conditions: readonly string[]): IpRanges {
  const v4: number[] = [];
  const v6: [ipaddr.IPv6, number][] = [];
  for (const text of conditions) {
    const range = parseRange(text);
    if (range === null) continue; // stored conditions were validated; never here
    const [address, prefix] = range;
    if (address.kind() === 'ipv4') {
      const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
      v4.push((ipv4Number((address as ipaddr.IPv4).toString()) & mask) >>> 0, mask);
    } else {
      v6.push([address as ipaddr.IPv6, prefix]);
    }
  }
  return { v4, v6 };
}

/** A visitor's address, parsed (IPv4-mapped → IPv4), or null when it is not one. */
export function parseVisitorAddress(text: string | undefined): VisitorAddress | null {
  if (text === undefined) return null;
  const v4 = ipv4Number(text.startsWith(MAPPED_PREFIX) ? text.slice(MAPPED_PREFIX.length) : text);
  if (v4 >= 0) return { v4, v6: null };
  if (!ipaddr.IPv6.isValid(text)) return null;
  const v6 = ipaddr.IPv6.parse(text);
  if (v6.isIPv4MappedAddress()) return { v4: ipv4Number(v6.toIPv4Address().toString()), v6: null };
  return { v4: -1, v6 };
}

export function isAddressInRanges(address: VisitorAddress, ranges: IpRanges): boolean {
  if (address.v6 === null) {
    const v4 = ranges.v4;
    for (let i = 0; i < v4.length; i += 2) {
      if ((address.v4 & (v4[i + 1] as number)) >>> 0 === v4[i]) return true;
    }
    return false;
  }
  for (const range of ranges.v6) if (address.v6.match(range)) return true;
  return false;
}

/**
 * A four-part decimal IPv4 address as an unsigned 32-bit number, or -1. Read by hand: it
 * runs on the redirect, where a regex or ipaddr.js would allocate.
 */
function ipv4Number(text: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      if (digits > 0 && octet === 0) return -1; // a leading zero: octal in some parsers
      octet = octet * 10 + (code - 0x30);
      if (octet > 255) return -1;
      digits++;
    } else if (code === 0x2e && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return -1;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : -1;
}

/** Strict spellings only: four-part decimal IPv4, IPv6 without a zone, a decimal prefix. */
function parseRange(text: string): Range | null {
  const slash = text.indexOf('/');
  const literal = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? null : text.slice(slash + 1);
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipv4Number(literal) >= 0) {
    address = ipaddr.IPv4.parse(literal);
  } else if (!literal.includes('%') && ipaddr.IPv6.isValid(literal)) {
    address = ipaddr.IPv6.parse(literal);
  } else {
    return null;
  }
  const full = address.kind() === 'ipv4' ? 32 : 128;
  let prefix = full;
  if (prefixText !== null) {
    if (!PREFIX.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > full) return null;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    if (prefix < 96) return null; // wider than the mapped block: means nothing as IPv4
    return [(address as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [address, prefix];
}
