/** The console's session cookie (issue 7): one name, one shape, set and cleared here only. */
export const SESSION_COOKIE = 'hop_console';

/** Session cookie values are `[0-9A-Za-z._-]`: nothing to decode, nothing to escape. */
const COOKIE_VALUE = /^[0-9A-Za-z._-]{1,256}$/;

/** The session cookie's value in a `Cookie` header, or undefined. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    return COOKIE_VALUE.test(value) ? value : undefined;
  }
  return undefined;
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
