import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNamed } from './click-headers.js';

/** What a pass is bound to: the link, its version, and the password's stored hash. */
export interface PassedLink {
  readonly linkId: string;
  readonly code: string;
  readonly version: number;
  readonly passwordHash: string;
}

/** Issue 21: the right password lets this visitor straight through for 24 hours. */
export const PASS_SECONDS = 24 * 60 * 60;
const COOKIE_PREFIX = 'hop_pass_';
/** `<expires at, epoch seconds>.<43 base64url characters of HMAC-SHA256>`. */
const VALUE = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface LinkPassCookies {
  /** A Set-Cookie value that lets this visitor through `link` for PASS_SECONDS from nowMs. */
  passCookieFor(link: PassedLink, nowMs: number, secure: boolean): string;
  /**
   * Whether the request's Cookie headers (read from node's rawHeaders, every Cookie line)
   * hold an unexpired pass for this link at this version, made with this secret.
   */
  hasValidPass(rawHeaders: readonly string[], link: PassedLink, nowMs: number): boolean;
}

/** The cookie's name: one per link, so passes for several links live side by side. */
export function passCookieName(linkId: string): string {
  return `${COOKIE_PREFIX}${linkId}`;
}

/**
 * Signed pass cookies (ADR 0110). The MAC covers the link id, its version (any edit of
 * the link ends every pass), the expiry, and the password's hash: a changed password
 * ends passes even if a version were reused, and without a server secret (scaled out
 * with no HOP_CONSOLE_SECRET) the hash, which never leaves the store, still keys them.
 */
export function makeLinkPassCookies(secret: Buffer | null): LinkPassCookies {
  const key = secret ?? Buffer.alloc(0);
  const mac = (link: PassedLink, expiresAt: number): Buffer =>
    createHmac('sha256', key)
      .update(`${link.linkId}|${link.version}|${expiresAt}|${link.passwordHash}`)
      .digest();

  const passCookieFor = (link: PassedLink, nowMs: number, secure: boolean): string => {
    const expiresAt = Math.floor(nowMs / 1000) + PASS_SECONDS;
    const value = `${expiresAt}.${mac(link, expiresAt).toString('base64url')}`;
    const attributes = `Path=/${link.code}; Max-Age=${PASS_SECONDS}; HttpOnly; SameSite=Lax`;
    return `${passCookieName(link.linkId)}=${value}; ${attributes}${secure ? '; Secure' : ''}`;
  };

  const isValid = (value: string, link: PassedLink, nowMs: number): boolean => {
    const parts = VALUE.exec(value);
    if (parts === null) return false;
    const expiresAt = Number(parts[1]);
    if (expiresAt * 1000 <= nowMs || expiresAt * 1000 > nowMs + PASS_SECONDS * 1000 + 60_000) {
      return false;
    }
    // Compared as text: base64url's last character has bits no decoder looks at.
    const expected = Buffer.from(mac(link, expiresAt).toString('base64url'));
    return timingSafeEqual(Buffer.from(parts[2] ?? ''), expected);
  };

  const hasValidPass = (rawHeaders: readonly string[], link: PassedLink, nowMs: number) => {
    const name = passCookieName(link.linkId);
    for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
      if (!isNamed(rawHeaders[index] ?? '', 'cookie')) continue;
      for (const value of cookieValues(rawHeaders[index + 1] ?? '', name)) {
        if (isValid(value, link, nowMs)) return true;
      }
    }
    return false;
  };

  return { passCookieFor, hasValidPass };
}

/** Every value of cookie `name` in one Cookie header (`a=1; b=2`, RFC 6265 §4.2.1). */
function* cookieValues(header: string, name: string): Generator<string> {
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim() !== name) continue;
    yield pair.slice(equals + 1).trim();
  }
}
