import ipaddr from 'ipaddr.js';

/**
 * The `ip` condition of a rule (issue 21): addresses or CIDRs, IPv4 or IPv6. IPv4-mapped
 * IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket reports an IPv4 client) is IPv4 here,
 * both in rules and in the visitor's address, so either spelling matches either.
 * (`import ipaddr from` — the package's named imports do not exist at runtime.)
 */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [IpAddress, number];

export interface IpRanges {
  readonly v4: readonly [ipaddr.IPv4, number][];
  readonly v6: readonly [ipaddr.IPv6, number][];
}

const PREFIX = /^(0|[1-9]\d{0,2})$/;

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
  const v4: [ipaddr.IPv4, number][] = [];
  const v6: [ipaddr.IPv6, number][] = [];
  for (const text of conditions) {
    const range = parseRange(text);
    if (range === null) continue; // stored conditions were validated; never here
    const [address, prefix] = range;
    if (address.kind() === 'ipv4') v4.push([address as ipaddr.IPv4, prefix]);
    else v6.push([address as ipaddr.IPv6, prefix]);
  }
  return { v4, v6 };
}

/** A visitor's address, parsed (IPv4-mapped → IPv4), or null when it is not one. */
export function parseVisitorAddress(text: string | undefined): IpAddress | null {
  if (text === undefined || !ipaddr.isValid(text)) return null;
  return ipaddr.process(text);
}

export function isAddressInRanges(address: IpAddress, ranges: IpRanges): boolean {
  if (address.kind() === 'ipv4') {
    const v4 = address as ipaddr.IPv4;
    for (const range of ranges.v4) if (v4.match(range)) return true;
  } else {
    const v6 = address as ipaddr.IPv6;
    for (const range of ranges.v6) if (v6.match(range)) return true;
  }
  return false;
}

/** Strict spellings only: four-part decimal IPv4, IPv6 without a zone, a decimal prefix. */
function parseRange(text: string): Range | null {
  const slash = text.indexOf('/');
  const literal = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? null : text.slice(slash + 1);
  let address: IpAddress;
  if (ipaddr.IPv4.isValidFourPartDecimal(literal)) {
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
