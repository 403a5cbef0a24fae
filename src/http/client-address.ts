import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** Who sent a request, as rate limits and the scanner throttle count it. */
export type ClientOf = (request: IncomingMessage) => string;

/**
 * The client of a request: the socket's peer, or, when that peer is one of the proxies
 * HOP_TRUST_PROXY names, the address those proxies put in X-Forwarded-For (the nearest
 * one not itself trusted: a client cannot spoof its way past the proxies it came
 * through). IPv6 clients are counted by their /64, the block one host usually gets.
 */
export function makeClientOf(trustedProxies: readonly string[]): ClientOf {
  const addressOf = makeClientAddressOf(trustedProxies, { keepMapped: true });
  return (request) => clientSubject(addressOf(request));
}

/** A request's client's whole address (issue 21: geolocation and `ip` rules). */
export type ClientAddressOf = (request: IncomingMessage) => string;

/**
 * The client's whole address, found as `makeClientOf` finds it (the socket's peer, or
 * through HOP_TRUST_PROXY's proxies) but not cut to a /64: where a person is and whether
 * a rule's CIDR holds need all of it. IPv4-mapped IPv6 (`::ffff:192.0.2.1`, what a server
 * listening on `::` sees of IPv4 clients) is given as IPv4, unless `keepMapped`: a click
 * keeps the socket's own string, made once per connection, and the flusher's lookup
 * unmaps it (ADR 0109), so the redirect copies nothing. '' when the socket has closed.
 */
export function makeClientAddressOf(
  trustedProxies: readonly string[],
  options: { readonly keepMapped?: boolean } = {},
): ClientAddressOf {
  const unmap = options.keepMapped !== true;
  if (trustedProxies.length === 0) {
    return unmap
      ? (request) => unmapped(request.socket.remoteAddress ?? '')
      : (request) => request.socket.remoteAddress ?? '';
  }
  const trust = proxyAddr.compile([...trustedProxies]);
  return unmap
    ? (request) => unmapped(proxyAddr(request, trust))
    : (request) => proxyAddr(request, trust);
}

/**
 * `::ffff:192.0.2.1` → `192.0.2.1`; anything else as it is. node:net's `isIPv4` (one
 * regular expression: four decimal parts of 0-255, no leading zeros) rather than ipaddr's
 * `isValidFourPartDecimal`, which parses the address first: 343 ns against 58 a call, and
 * a smart link's country rule asks on every redirect (BENCHMARKS.md, 2026-12-07).
 */
export function unmapped(address: string): string {
  if (!address.startsWith('::ffff:')) return address;
  const v4 = address.slice(7);
  return isIPv4(v4) ? v4 : address;
}

/** `::ffff:192.0.2.1` → `192.0.2.1`; `2001:db8:1:2:…` → `2001:db8:1:2::/64`. */
export function clientSubject(address: string): string {
  const plain = unmapped(address);
  if (plain !== address) return plain;
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts;
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
