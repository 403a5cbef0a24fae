import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../domain/smart/smart-options.js';
import { verifyLinkPassword } from '../services/links/link-password.js';
import { passwordTrySubject, type PasswordTries } from '../services/protection/password-tries.js';
import { isNamed } from './click-headers.js';
import type { ClientOf } from './client-address.js';
import type { LinkPassCookies } from './link-pass-cookie.js';
import { passwordPageFor, type PasswordPageKind } from './pages/password-page.js';
import type { PreparedPage } from './pages/visitor-pages.js';
import { preparedProblem } from './prepared-problem.js';

/** What the gate needs of a password link: who it is, its version, its password's hash. */
export interface ProtectedLink {
  readonly linkId: string;
  readonly code: string;
  readonly version: number;
  readonly passwordHash: string;
}

export interface PasswordGate {
  /**
   * GET or HEAD of a password link (issue 21): a valid pass cookie → `serve(undefined)`, at
   * once; an X-Link-Password header → verified, then `serve(setCookie)`, or 401
   * problem+json (`wrong-password`), or 429 problem+json; else the form page (200). HEAD
   * gets the same status and headers, no body.
   */
  admit(
    request: IncomingMessage,
    response: ServerResponse,
    link: ProtectedLink,
    serve: (setCookie: string | undefined) => void,
  ): void;
  /**
   * POST of the form, its `password` already read (null: the body had none): right →
   * `serve(setCookie)`; wrong → 401 form page saying so; none → 401 form page asking for
   * it (no try counted); too many wrong tries → 429 page.
   */
  admitForm(
    request: IncomingMessage,
    response: ServerResponse,
    link: ProtectedLink,
    password: string | null,
    serve: (setCookie: string) => void,
  ): void;
}

export interface PasswordGateDeps {
  readonly cookies: LinkPassCookies;
  readonly tries: PasswordTries;
  readonly clientOf: ClientOf;
  /** Pass cookies carry `Secure`: hop is reached over HTTPS (its public base URL). */
  readonly secureCookies: boolean;
  /** Epoch milliseconds: passes' expiry is read and written with it. */
  readonly now: () => number;
}

const WRONG = preparedProblem(
  'wrong-password',
  'The X-Link-Password header is not this link’s password.',
);
const TOO_MANY = preparedProblem(
  'rate-limited',
  'Too many wrong passwords for this link from this client; wait for Retry-After.',
);

/** What one try came to. `waitSeconds` is set when it was refused (429). */
type TryOutcome =
  { readonly right: true } | { readonly right: false; readonly waitSeconds: number };

/**
 * The password step of a password link (issue 21, ADR 0110), on plain node:http like the
 * redirect it stands in front of: it answers refusals itself and hands a right password
 * (or a valid pass) to `serve`, which chooses the destination, counts the click and writes
 * the redirect with the Set-Cookie it is given. Rules, variants and forwarding come after.
 */
export function makePasswordGate(deps: PasswordGateDeps): PasswordGate {
  const { cookies, tries, clientOf, secureCookies, now } = deps;

  /** Verifies one try within the client's limit; never rejects. */
  const tryPassword = async (
    request: IncomingMessage,
    link: ProtectedLink,
    password: string,
  ): Promise<TryOutcome> => {
    const subject = passwordTrySubject(clientOf(request), link.linkId);
    const waitSeconds = tries.reserve(subject);
    if (waitSeconds > 0) return { right: false, waitSeconds };
    // Outside the length a password may have (issue 21): wrong, without hashing it.
    const plausible =
      password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH;
    const right =
      plausible && (await verifyLinkPassword(password, link.passwordHash).catch(() => false));
    if (right) {
      tries.right(subject);
      return { right: true };
    }
    return { right: false, waitSeconds: await tries.wrong(subject) };
  };

  /** Runs a try and answers it: `serve` with a fresh pass, or `refuse` (401 or 429). */
  const decide = (
    request: IncomingMessage,
    link: ProtectedLink,
    password: string,
    serve: (setCookie: string) => void,
    refuse: (waitSeconds: number) => void,
  ): void => {
    tryPassword(request, link, password).then(
      (outcome) => {
        if (outcome.right) serve(cookies.passCookieFor(link, now(), secureCookies));
        else refuse(outcome.waitSeconds);
      },
      // tryPassword does not reject; were it to, the try is wrong.
      () => {
        refuse(0);
      },
    );
  };

  const admit: PasswordGate['admit'] = (request, response, link, serve) => {
    const rawHeaders = request.rawHeaders;
    if (cookies.hasValidPass(rawHeaders, link, now())) {
      serve(undefined);
      return;
    }
    const password = headerPassword(rawHeaders);
    if (password === undefined) {
      writePage(request, response, 200, 'form');
      return;
    }
    decide(request, link, password, serve, (waitSeconds) => {
      if (waitSeconds > 0) writePrepared(request, response, 429, TOO_MANY, waitSeconds);
      else writePrepared(request, response, 401, WRONG);
    });
  };

  const admitForm: PasswordGate['admitForm'] = (request, response, link, password, serve) => {
    if (password === null || password === '') {
      writePage(request, response, 401, 'missing');
      return;
    }
    decide(request, link, password, serve, (waitSeconds) => {
      if (waitSeconds > 0) writePage(request, response, 429, 'tooMany', waitSeconds);
      else writePage(request, response, 401, 'wrong');
    });
  };

  return { admit, admitForm };
}

/**
 * The X-Link-Password header, or undefined. Node reads header bytes as latin1; a UTF-8
 * password sent raw is turned back into its characters.
 */
function headerPassword(rawHeaders: readonly string[]): string | undefined {
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (!isNamed(rawHeaders[index] ?? '', 'x-link-password')) continue;
    const value = rawHeaders[index + 1] ?? '';
    // eslint-disable-next-line no-control-regex
    return /^[\u0000-\u007f]*$/.test(value) ? value : Buffer.from(value, 'latin1').toString('utf8');
  }
  return undefined;
}

function writePage(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  kind: PasswordPageKind,
  waitSeconds = 0,
): void {
  writePrepared(request, response, status, passwordPageFor(kind, request.rawHeaders), waitSeconds);
}

/** HEAD answers like GET, without the body (issue 21); a refusal says when to try again. */
function writePrepared(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  prepared: PreparedPage,
  waitSeconds = 0,
): void {
  const headers =
    waitSeconds > 0
      ? { ...prepared.headers, 'retry-after': String(waitSeconds) }
      : prepared.headers;
  response.writeHead(status, headers);
  if (request.method === 'HEAD') response.end();
  else response.end(prepared.body);
}
