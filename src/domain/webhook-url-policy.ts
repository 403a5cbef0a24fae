import ipaddr from 'ipaddr.js';
import { checkDestination } from './destination-policy.js';

/** Longest webhook URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export interface WebhookUrlPolicy {
  /** HOP_WEBHOOK_ALLOW_PRIVATE: private, loopback and link-local hosts are allowed. */
  readonly allowPrivate: boolean;
}

export type WebhookUrlVerdict =
  { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

const NO_BLOCKS: ReadonlySet<string> = new Set();

/**
 * Issue 23 safe egress: a webhook URL passes the destinations' rules (SPEC §3: absolute
 * http(s), no credentials, no private, loopback or link-local hosts), the address rule
 * lifted by `allowPrivate`. Delivery checks the resolved addresses again (isPublicAddress).
 */
export function checkWebhookUrl(input: string, policy: WebhookUrlPolicy): WebhookUrlVerdict {
  const options = { maxLength: WEBHOOK_URL_MAX_LENGTH, ownHosts: [], blockedDomains: NO_BLOCKS };
  const verdict = checkDestination(input, options);
  if (verdict.ok) return { ok: true, url: verdict.destination };
  if (!policy.allowPrivate) return { ok: false, reason: wordedForWebhooks(verdict.reason) };
  // Allowed private hosts: only the scheme, credential and form rules still apply.
  const loopback = checkDestination(rehosted(input), options);
  if (!loopback.ok) return { ok: false, reason: wordedForWebhooks(loopback.reason) };
  return { ok: true, url: new URL(input).href };
}

/** The same URL on a public host, so that only the non-host rules are judged. */
function rehosted(input: string): string {
  try {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return input;
    url.hostname = 'example.com';
    // The input's own credentials and form still count: rebuild from its raw text.
    return url.username !== '' || url.password !== '' || /\s/.test(input) ? input : url.href;
  } catch {
    return input;
  }
}

function wordedForWebhooks(reason: string): string {
  return reason.replace(/^The destination/, 'The webhook URL');
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * True when `address` (an IP as DNS answered it) is public unicast: delivery refuses a host
 * any of whose addresses is not (issue 23: checked again after DNS resolution).
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (!v6.match(GLOBAL_UNICAST_V6)) return false;
  }
  return parsed.range() === 'unicast';
}
