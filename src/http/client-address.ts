import type { IncomingMessage } from 'node:http';
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
  const addressOf = makeClientAddressOf(trustedProxies);
  return (request) => clientSubject(addressOf(request) ?? '');
}

/**
 * The client's full address (not its /64), found as `makeClientOf` finds it: what a smart
 * link's `ip` rules match (issue 21), so that behind HOP_TRUST_PROXY's proxies they see
 * the visitor, not the proxy.
 */
export function makeClientAddressOf(
  trustedProxies: readonly string[],
): (request: IncomingMessage) => string | undefined {
  if (trustedProxies.length === 0) return (request) => request.socket.remoteAddress;
  const trust = proxyAddr.compile([...trustedProxies]);
  return (request) => proxyAddr(request, trust);
}

/** `::ffff:192.0.2.1` → `192.0.2.1`; `2001:db8:1:2:…` → `2001:db8:1:2::/64`. */
export function clientSubject(address: string): string {
  if (address.startsWith('::ffff:') && ipaddr.IPv4.isValidFourPartDecimal(address.slice(7))) {
    return address.slice(7);
  }
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts;
  return `${parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
