import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedLink } from '../domain/cache-entry.js';
import {
  NOT_FOUND,
  TEMPORARY_CACHE_CONTROL,
  type RedirectOutcome,
} from '../domain/redirect-outcome.js';
import type { RedirectStatus } from '../domain/link.js';
import { chooseDestination } from '../domain/smart/choose-destination.js';
import type { PreparedSmart } from '../domain/smart/prepared-smart.js';
import { isNamed, readClickHeaders, type ClickHeaders } from './click-headers.js';
import type { PasswordGate } from './password-gate.js';
import { RequestVisitor, type VisitorSources } from './request-visitor.js';

/** Links this instance saw spent, remembered at most (then forgotten, and asked again). */
const MAX_REMEMBERED_SPENT = 10_000;

/** How long a visitor keeps the variant first drawn (issue 21: "a visitor keeps it"). */
const VARIANT_COOKIE_SECONDS = 90 * 24 * 3600;

/** What the front does with a smart link's chosen answer: count it and write it. */
export interface SmartWriter {
  /**
   * A redirect to `location`, counted as a click of `link` (not for HEAD), with these
   * cookies. `headers`: the request's click headers when they were read in this same
   * synchronous turn (the shared object is still this request's), else null: read again.
   */
  redirect(
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    status: RedirectStatus,
    location: string,
    cookies: readonly string[],
    headers: Readonly<ClickHeaders> | null,
    /** The request's start (`performance.now()`): its click's time (ADR 0152). */
    startedAt: number,
  ): void;
  /** What a spent (exhausted) link answers: its fallback, or the one 404. */
  spent(request: IncomingMessage, response: ServerResponse, outcome: RedirectOutcome): void;
  /** The store did not answer (a click limit could not be checked): 503. */
  unavailable(response: ServerResponse): void;
}

/**
 * The store's exact redirect budgets (src/ports/redirect-allowance.ts, ADR 0111), as far
 * as the redirect needs them.
 */
export interface RedirectBudgets {
  /** Takes one of `limit` redirects; false once all were taken. */
  take(linkId: string, limit: number): Promise<boolean>;
  /** Redirects taken so far. */
  taken(linkId: string): Promise<number>;
}

export interface SmartAnswerDeps extends VisitorSources {
  /** HOP_COUNTRY_HEADER: read with the click's headers; an edge's country wins over the lookup. */
  readonly countryHeader: string | undefined;
  /** Epoch ms of a `performance.now()` reading: a visit's time, from its start (ADR 0152). */
  readonly timeAt: (monotonicMs: number) => number;
  /** Null when no password gate was made (tests of the redirect alone). */
  readonly gate: PasswordGate | null;
  readonly allowance: RedirectBudgets;
  /** True when the blocklist names the URL's domain: then the link answers the 404. */
  readonly blocks: (url: string) => boolean;
  readonly random: () => number;
  readonly writer: SmartWriter;
}

export interface SmartAnswer {
  /**
   * GET or HEAD of an active smart link: password, then rules, variants, forwarding, limit.
   * `headers`: the request's click headers, just read by the caller, or null. `startedAt`:
   * the request's start (`performance.now()`), the visit's time (ADR 0152).
   */
  answer(
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    headers: Readonly<ClickHeaders> | null,
    startedAt: number,
  ): void;
  /** POST of a password link's form, its password read from the body. */
  answerForm(
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    password: string | null,
    startedAt: number,
  ): void;
}

/**
 * A smart link's redirect (issue 21), in the order the issue gives: the password first,
 * then the first matching rule, else a variant (kept by a cookie), else the destination;
 * the visitor's query added when the link forwards it; and the click limit taken last, so
 * only a redirect actually served uses one of `max_clicks`. A plain link never comes here.
 */
export function makeSmartAnswer(deps: SmartAnswerDeps): SmartAnswer {
  const { gate, allowance, writer, timeAt } = deps;
  // A budget only grows spent (ADR 0111): once a take fails, every later take of that link
  // at that limit fails too, so its visits are answered here without a store write. A new
  // limit is a new key; a version is not needed (the count survives edits).
  const spent = new Set<string>();
  const rememberSpent = (key: string) => {
    if (spent.size >= MAX_REMEMBERED_SPENT) spent.clear();
    spent.add(key);
  };

  const choose = (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    smart: PreparedSmart,
    passCookie: string | undefined,
    posted: boolean,
    headers: Readonly<ClickHeaders> | null,
    startedAt: number,
  ): void => {
    const options = smart.options;
    // Read here when the caller had not (HEAD, or after the password gate's wait); from
    // here to a synchronous redirect below, nothing else reads the shared object.
    const clickHeaders = headers ?? readClickHeaders(request.rawHeaders, deps.countryHeader);
    const visitor = new RequestVisitor(
      request,
      clickHeaders,
      queryOf(request.url ?? ''),
      timeAt(startedAt),
      deps,
    );
    const choice = chooseDestination(
      smart.compiled,
      link.location,
      visitor,
      () => cookieHeaderOf(request),
      deps.random,
    );
    const location = choice.destination;
    // The form's POST is answered 302 (the words), which browsers follow with a GET,
    // whatever the link's status: a 307 or 308 would post the password on (ADR 0114).
    const status = posted ? 302 : (choice.statusCode ?? link.status);
    const cookies = cookiesOf(passCookie, choice.variantCookie, smart, link.code);
    if (location !== link.location && deps.blocks(location)) {
      writer.spent(request, response, NOT_FOUND);
      return;
    }
    const limit = options.maxClicks;
    if (limit === null) {
      writer.redirect(request, response, link, status, location, cookies, clickHeaders, startedAt);
      return;
    }
    const spentKey = `${link.linkId}:${limit}`;
    if (spent.has(spentKey)) {
      writer.spent(request, response, smart.whenSpent);
      return;
    }
    // HEAD answers like GET and counts nothing: it looks, it does not take (ADR 0111).
    const allowed =
      request.method === 'HEAD'
        ? allowance.taken(link.linkId).then((taken) => taken < limit)
        : allowance.take(link.linkId, limit);
    allowed.then(
      (ok) => {
        if (ok) {
          // A later turn: other requests have read their headers into the shared object.
          writer.redirect(request, response, link, status, location, cookies, null, startedAt);
          return;
        }
        rememberSpent(spentKey);
        writer.spent(request, response, smart.whenSpent);
      },
      () => {
        writer.unavailable(response);
      },
    );
  };

  const answer = (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    headers: Readonly<ClickHeaders> | null,
    startedAt: number,
  ): void => {
    const smart = link.smart;
    if (smart === null) return;
    const passwordHash = smart.options.passwordHash;
    if (passwordHash === null || gate === null) {
      choose(request, response, link, smart, undefined, false, headers, startedAt);
      return;
    }
    // The gate may answer later (a password's hash is checked off the event loop).
    gate.admit(request, response, protectedLinkOf(link, passwordHash), (passCookie) => {
      choose(request, response, link, smart, passCookie, false, null, startedAt);
    });
  };

  const answerForm = (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    password: string | null,
    startedAt: number,
  ): void => {
    const smart = link.smart;
    const passwordHash = smart?.options.passwordHash ?? null;
    if (smart === null || passwordHash === null || gate === null) {
      writer.spent(request, response, NOT_FOUND);
      return;
    }
    gate.admitForm(request, response, protectedLinkOf(link, passwordHash), password, (pass) => {
      choose(request, response, link, smart, pass, true, null, startedAt);
    });
  };

  return { answer, answerForm };
}

const NO_COOKIES: readonly string[] = Object.freeze([]);

/** The pass cookie and a freshly drawn variant's, if any: most redirects set none. */
function cookiesOf(
  passCookie: string | undefined,
  variantCookie: string | null,
  smart: PreparedSmart,
  code: string,
): readonly string[] {
  if (variantCookie === null) return passCookie === undefined ? NO_COOKIES : [passCookie];
  const variant = `${smart.compiled.variantCookieName}=${variantCookie}; Path=/${code}; Max-Age=${VARIANT_COOKIE_SECONDS}; HttpOnly; SameSite=Lax`;
  return passCookie === undefined ? [variant] : [passCookie, variant];
}

function protectedLinkOf(link: CachedLink, passwordHash: string) {
  return { linkId: link.linkId, code: link.code, version: link.version, passwordHash };
}

/** The request's query string without its `?`; '' when there is none. */
function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

function cookieHeaderOf(request: IncomingMessage): string | undefined {
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (isNamed(raw[index] ?? '', 'cookie')) return raw[index + 1];
  }
  return undefined;
}

/** Smart answers depend on their visitor: never kept by a browser or a shared cache. */
export const SMART_CACHE_CONTROL = TEMPORARY_CACHE_CONTROL;
