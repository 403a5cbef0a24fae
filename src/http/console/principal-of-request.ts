import type { FastifyRequest } from 'fastify';
import { HopError } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import { authenticate } from '../../services/keys/authenticate.js';
import type { KeyServiceDeps } from '../../services/keys/key-service-deps.js';
import {
  carriesCsrfToken,
  readSession,
  type ConsoleSession,
  type ConsoleSessionDeps,
} from '../../services/console/console-sessions.js';
import { readSessionCookies } from './session-cookie.js';

const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who calls the v1 API: the bearer key when one is sent, else the console's session.
 * A console request that changes something must also carry the session's CSRF token in
 * `X-CSRF-Token`; SameSite=Strict already keeps other sites' pages from sending the
 * cookie, and the token holds even where a browser does not honour SameSite.
 */
export async function principalOfRequest(
  keys: Pick<KeyServiceDeps, 'keys' | 'clock' | 'uses'>,
  sessions: ConsoleSessionDeps,
  request: FastifyRequest,
): Promise<Principal> {
  const authorization = request.headers.authorization;
  const cookies = readSessionCookies(request.headers.cookie);
  if (authorization !== undefined || cookies.length === 0) {
    return authenticate(keys, authorization);
  }
  const session = await sessionOfCookies(sessions, cookies);
  if (session === null) {
    throw new HopError('unauthorized', 'The console session has ended; sign in again.');
  }
  if (!SAFE_METHODS.has(request.method)) {
    if (!carriesCsrfHeader(session, request)) {
      throw new HopError(
        'forbidden',
        "A console request that changes something must carry its session's X-CSRF-Token header.",
      );
    }
  }
  return session.principal;
}

/** The console session the request's cookies stand for, or null. */
export function sessionOfRequest(
  sessions: ConsoleSessionDeps,
  request: FastifyRequest,
): Promise<ConsoleSession | null> {
  return sessionOfCookies(sessions, readSessionCookies(request.headers.cookie));
}

/** True when the request's `X-CSRF-Token` is the session's. */
export function carriesCsrfHeader(session: ConsoleSession, request: FastifyRequest): boolean {
  const token = request.headers[CSRF_HEADER];
  return carriesCsrfToken(session, typeof token === 'string' ? token : undefined);
}

/** The session of the first cookie value that is one, or null. */
async function sessionOfCookies(
  sessions: ConsoleSessionDeps,
  cookies: readonly string[],
): Promise<ConsoleSession | null> {
  for (const cookie of cookies) {
    const session = await readSession(sessions, cookie);
    if (session !== null) return session;
  }
  return null;
}
