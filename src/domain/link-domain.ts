import { HopError } from './errors.js';

/**
 * A short domain a link belongs to (issue 22). The default domain is the host of
 * HOP_PUBLIC_URL; links on it store the empty host (`DEFAULT_DOMAIN`), so a change of
 * HOP_PUBLIC_URL moves them with it and every key of theirs stays as it was (ADR 0115).
 */
export interface LinkDomain {
  /** Lower-case host name, no port: `go.acme.com`. */
  readonly host: string;
  /** Where `GET /` on this domain goes; null: hop's own root page. */
  readonly rootRedirect: string | null;
  /** Where an unknown, disabled, expired or deleted code on this domain goes; null: the 404. */
  readonly notFoundRedirect: string | null;
  /** Short URLs on this domain are `https://`; false: `http://`. */
  readonly https: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The stored host of a link on the default domain (the host of HOP_PUBLIC_URL). */
export const DEFAULT_DOMAIN = '';

/**
 * The key a link is cached, filtered, invalidated and announced under: its code on the
 * default domain (as before domains existed), `host/code` on any other. No code holds a
 * `/` and no host does, so keys of two domains never meet (ADR 0115).
 */
export function linkKey(domain: string, code: string): string {
  return domain === DEFAULT_DOMAIN ? code : `${domain}/${code}`;
}

/** The domain and code a key names: the inverse of `linkKey`. */
export function splitLinkKey(key: string): { readonly domain: string; readonly code: string } {
  const slash = key.lastIndexOf('/');
  return slash < 0
    ? { domain: DEFAULT_DOMAIN, code: key }
    : { domain: key.slice(0, slash), code: key.slice(slash + 1) };
}

/**
 * The stored host of the domain a caller names by `host` (a request's value, any case):
 * `''` for the default domain's host, else the host itself, normalised.
 */
export function storedDomainOf(host: string, defaultHost: string): string {
  const normalised = requestHostOf(host.trim());
  return normalised === defaultHost || normalised === DEFAULT_DOMAIN ? DEFAULT_DOMAIN : normalised;
}

/** RFC 1123 host names: labels of letters, digits and inner hyphens, at most 253 characters. */
const HOST_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The host as stored and compared: lower case, without a trailing dot. Throws
 * `invalid-request` naming `field` for anything that is not a host name (a port, a path,
 * a scheme, an address literal with a port).
 */
export function normaliseDomainHost(value: string, field = 'host'): string {
  const host = value.trim().toLowerCase().replace(/\.$/, '');
  if (!HOST_PATTERN.test(host)) {
    const detail = `${field} must be a host name such as go.acme.com, without scheme, port or path.`;
    throw new HopError('invalid-request', detail, { fields: [{ field, detail }] });
  }
  return host;
}

/**
 * The host a request names, as domains are looked up: lower case, port and trailing dot
 * removed. Never throws; a value that is no host name simply matches no domain.
 */
export function requestHostOf(hostHeader: string): string {
  let host = hostHeader;
  if (host.charCodeAt(0) === 91 /* [ */) {
    const end = host.indexOf(']');
    host = end < 0 ? host : host.slice(0, end + 1);
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host.toLowerCase();
}
