import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CachedLink } from '../domain/cache-entry.js';
import {
  NOT_FOUND,
  TEMPORARY_CACHE_CONTROL,
  type RedirectOutcome,
} from '../domain/redirect-outcome.js';
import type { RedirectStatus } from '../domain/link.js';
import { firstMatchingRule } from '../domain/smart/compile-rules.js';
import { forwardQuery } from '../domain/smart/forward-query.js';
import type { PreparedSmart } from '../domain/smart/prepared-smart.js';
import {
  cookieValueOf,
  drawVariant,
  stickyVariant,
  variantCookieName,
  variantCookieValue,
} from '../domain/smart/variants.js';
import { isNamed } from './click-headers.js';
import type { PasswordGate } from './password-gate.js';
import { RequestVisitor, type VisitorSources } from './request-visitor.js';

/** How long a visitor keeps the variant first drawn (issue 21: "a visitor keeps it"). */
const VARIANT_COOKIE_SECONDS = 90 * 24 * 3600;

/** What the front does with a smart link's chosen answer: count it and write it. */
export interface SmartWriter {
  /** A redirect to `location`, counted as a click of `link` (not for HEAD), with these cookies. */
  redirect(
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    status: RedirectStatus,
    location: string,
    cookies: readonly string[],
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
  readonly now: () => number;
  /** Null when no password gate was made (tests of the redirect alone). */
  readonly gate: PasswordGate | null;
  readonly allowance: RedirectBudgets;
  /** True when the blocklist names the URL's domain: then the link answers the 404. */
  readonly blocks: (url: string) => boolean;
  readonly random: () => number;
  readonly writer: SmartWriter;
}

export interface SmartAnswer {
  /** GET or HEAD of an active smart link: password, then rules, variants, forwarding, limit. */
  answer(request: IncomingMessage, response: ServerResponse, link: CachedLink): void;
  /** POST of a password link's form, its password read from the body. */
  answerForm(
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    password: string | null,
  ): void;
}

/**
 * A smart link's redirect (issue 21), in the order the issue gives: the password first,
 * then the first matching rule, else a variant (kept by a cookie), else the destination;
 * the visitor's query added when the link forwards it; and the click limit taken last, so
 * only a redirect actually served uses one of `max_clicks`. A plain link never comes here.
 */
export function makeSmartAnswer(deps: SmartAnswerDeps): SmartAnswer {
  const { gate, allowance, writer, now } = deps;

  const choose = (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    smart: PreparedSmart,
    passCookie: string | undefined,
  ): void => {
    const options = smart.options;
    const query = queryOf(request.url ?? '');
    let status = link.status;
    let location = link.location;
    const cookies: string[] = passCookie === undefined ? [] : [passCookie];
    const ruleIndex =
      smart.rules.length === 0
        ? -1
        : firstMatchingRule(smart.rules, new RequestVisitor(request, query, now(), deps));
    if (ruleIndex >= 0) {
      const rule = options.rules[ruleIndex];
      if (rule !== undefined) {
        location = rule.destination;
        status = rule.statusCode ?? link.status;
      }
    } else if (smart.variants !== null) {
      const name = variantCookieName(link.linkId);
      let index = stickyVariant(smart.variants, cookieValueOf(cookieHeaderOf(request), name));
      if (index < 0) {
        index = drawVariant(smart.variants, deps.random);
        cookies.push(
          `${name}=${variantCookieValue(smart.variants, index)}; Path=/${link.code}; Max-Age=${VARIANT_COOKIE_SECONDS}; HttpOnly; SameSite=Lax`,
        );
      }
      location = options.variants[index]?.destination ?? location;
    }
    if (options.forwardQuery && query !== '') location = forwardQuery(location, query);
    if (location !== link.location && deps.blocks(location)) {
      writer.spent(request, response, NOT_FOUND);
      return;
    }
    const limit = options.maxClicks;
    if (limit === null) {
      writer.redirect(request, response, link, status, location, cookies);
      return;
    }
    // HEAD answers like GET and counts nothing: it looks, it does not take (ADR 0111).
    const allowed =
      request.method === 'HEAD'
        ? allowance.taken(link.linkId).then((taken) => taken < limit)
        : allowance.take(link.linkId, limit);
    allowed.then(
      (ok) => {
        if (ok) writer.redirect(request, response, link, status, location, cookies);
        else writer.spent(request, response, smart.whenSpent);
      },
      () => {
        writer.unavailable(response);
      },
    );
  };

  const answer = (request: IncomingMessage, response: ServerResponse, link: CachedLink): void => {
    const smart = link.smart;
    if (smart === null) return;
    const passwordHash = smart.options.passwordHash;
    if (passwordHash === null || gate === null) {
      choose(request, response, link, smart, undefined);
      return;
    }
    gate.admit(request, response, protectedLinkOf(link, passwordHash), (passCookie) => {
      choose(request, response, link, smart, passCookie);
    });
  };

  const answerForm = (
    request: IncomingMessage,
    response: ServerResponse,
    link: CachedLink,
    password: string | null,
  ): void => {
    const smart = link.smart;
    const passwordHash = smart?.options.passwordHash ?? null;
    if (smart === null || passwordHash === null || gate === null) {
      writer.spent(request, response, NOT_FOUND);
      return;
    }
    gate.admitForm(request, response, protectedLinkOf(link, passwordHash), password, (pass) => {
      choose(request, response, link, smart, pass);
    });
  };

  return { answer, answerForm };
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
