import type { TestResponse, TestServer } from './test-server.js';
import { DESKTOP } from './user-agents.js';

/**
 * A visitor's GET (or HEAD, POST) of a short link, without an API key and with a browser's
 * user agent unless told otherwise (isbot counts Node's fetch as a bot: a person's click
 * needs a browser's agent).
 */
export function visit(
  server: TestServer,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<TestResponse> {
  return server.request(method, pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`, {
    key: null,
    headers: { 'user-agent': DESKTOP, ...headers },
  });
}

/** Where a visit was sent: `status location`, or just the status when it was no redirect. */
export async function landing(
  server: TestServer,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await visit(server, pathAndQuery, headers);
  const location = response.headers.get('location');
  return location === null ? String(response.status) : `${response.status} ${location}`;
}

/** The `name=value` of a response's Set-Cookie that names `prefix…`, or undefined. */
export function setCookiePair(response: TestResponse, prefix: string): string | undefined {
  for (const cookie of response.headers.getSetCookie()) {
    if (cookie.startsWith(prefix)) return cookie.slice(0, cookie.indexOf(';'));
  }
  return undefined;
}
