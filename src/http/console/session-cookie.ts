/** The console's session cookie (ADR 0064): one name, one shape, set and cleared here only. */
export const SESSION_COOKIE = 'hop_console';

/** Session cookie values are `[0-9A-Za-z._-]`: nothing to decode, nothing to escape. */
const COOKIE_VALUE = /^[0-9A-Za-z._-]{1,256}$/;

/** Candidates tried at most: a page on a sibling host may have set junk under our name. */
const MAX_CANDIDATES = 4;

/**
 * Every well-formed session cookie value in a `Cookie` header, first first, at most four:
 * a junk cookie of the same name set from a sibling host must not lock an admin out.
 */
export function readSessionCookies(header: string | undefined): string[] {
  const values: string[] = [];
  if (header === undefined) return values;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    if (COOKIE_VALUE.test(value)) values.push(value);
    if (values.length === MAX_CANDIDATES) break;
  }
  return values;
}

/**
 * HttpOnly: page scripts never see it. SameSite=Strict: no other site's page can make the
 * browser send it. Path=/ because the console calls the /v1 API with it.
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${
    secure ? '; Secure' : ''
  }`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
