import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
// Not the global `performance`, an accessor: a getter call at each use (BENCHMARKS.md, 2026-12-07).
import { performance } from 'node:perf_hooks';
import type { RedirectOutcome } from '../domain/redirect-outcome.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';
import type { LoadShedder } from '../services/protection/load-shedder.js';
import type { ScannerThrottle } from '../services/protection/scanner-throttle.js';
import type { ClickRecorder } from './app-deps.js';
import type { ClientAddressOf, ClientOf } from './client-address.js';
import { isReservedAlias } from '../domain/alias-rules.js';
import { isLinkCrawler } from '../domain/link-crawlers.js';
import { readClickHeaders, type ClickHeaders } from './click-headers.js';
import { makeCrawlerAnswer, NOINDEX } from './crawler-answer.js';
import { makeLinkPreviewAnswer, type LinkPageDeps } from './link-preview-answer.js';
import { readPasswordForm } from './read-password-form.js';
import type { DomainRoute, DomainRoutes } from '../services/redirect/domain-routes.js';
import {
  makeSmartAnswer,
  SMART_CACHE_CONTROL,
  type SmartAnswerDeps,
  type SmartWriter,
} from './smart-answer.js';
import { missPageFor, type PreparedPage } from './pages/visitor-pages.js';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problems.js';

/**
 * One body for every kind of miss, made once: unknown, disabled, expired, deleted and
 * impossible codes are indistinguishable from outside (SPEC §3), down to the byte.
 */
export const NOT_FOUND_BODY = JSON.stringify(
  problemBody('not-found', 'There is no link with this code.', undefined),
);
const NOT_FOUND_PROBLEM: PreparedPage = {
  body: Buffer.from(NOT_FOUND_BODY),
  headers: {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(NOT_FOUND_BODY)),
    'cache-control': 'no-store',
  },
};

/**
 * The one answer to a miss: the page a browser asks for, else problem+json (ADR 0092).
 * Only a miss reads Accept, from `rawHeaders`.
 */
export function missAnswer(rawHeaders: readonly string[]): PreparedPage {
  return missPageFor(rawHeaders) ?? NOT_FOUND_PROBLEM;
}
const UNAVAILABLE_BODY = JSON.stringify(
  problemBody('store-unavailable', 'The link store did not answer; try again.', undefined),
);
const UNAVAILABLE_HEADERS = {
  'content-type': PROBLEM_CONTENT_TYPE,
  'content-length': String(Buffer.byteLength(UNAVAILABLE_BODY)),
  'cache-control': 'no-store',
  'retry-after': '1',
};

const THROTTLED_BODY = JSON.stringify(
  problemBody(
    'rate-limited',
    'Too many unknown codes from this client; wait for Retry-After before asking again.',
    undefined,
  ),
);
const THROTTLED_LENGTH = String(Buffer.byteLength(THROTTLED_BODY));
export const OVERLOADED_BODY = JSON.stringify(
  problemBody('overloaded', 'The service is overloaded; try again shortly.', undefined),
);
export const OVERLOADED_HEADERS = {
  'content-type': PROBLEM_CONTENT_TYPE,
  'content-length': String(Buffer.byteLength(OVERLOADED_BODY)),
  'cache-control': 'no-store',
  'retry-after': '2',
};

/** Observes how long one redirect took and how it ended, for metrics. */
export type RedirectObserver = (outcome: string, startedAt: number) => void;

export interface RedirectFrontDeps {
  readonly resolver: RedirectResolver;
  readonly observe: RedirectObserver;
  readonly clicks: ClickRecorder | null;
  readonly countryHeader: string | undefined;
  /** The client's address, looked up for the click's country when `countryHeader` is unset. */
  readonly clickAddressOf: ClientAddressOf;
  /** Code scanners; null when HOP_SCANNER_THRESHOLD is 0. */
  readonly scanners: ScannerThrottle | null;
  readonly clientOf: ClientOf;
  readonly shedder: LoadShedder;
  /** What smart links need beyond a plain redirect (issue 21): gate, limit, visitor. */
  readonly smart: Omit<SmartAnswerDeps, 'writer'>;
  /** The domain each request's `Host` names (issue 22). */
  readonly domains: Pick<DomainRoutes, 'routeOf'>;
  /** The `+` page and the crawlers' cards (issue 22): whole links and QR codes. */
  readonly linkPages: LinkPageDeps;
}

export interface RedirectFront {
  /**
   * node:http's handler, ahead of Fastify: answers GET and HEAD of `/{code}` (and of
   * `/{code}/`) and nothing else. Returns false when the request is not ours: every other
   * request, the root, and the reserved words (our own routes' names), go on to Fastify.
   */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => boolean;
  /**
   * Answers a GET or HEAD of `code`, already taken from its path: a redirect, the one 404,
   * or a refusal (429, 503); for `{code}+`, the link's preview page (ADR 0122). Returns
   * false, having written nothing, for a reserved word.
   */
  readonly answer: (request: IncomingMessage, response: ServerResponse, code: string) => boolean;
  /**
   * A password link's form whose body Fastify already read (an absolute-form target the
   * router sent to POST /:code): answered as the front answers a form it reads itself.
   */
  readonly answerPasswordForm: (
    request: IncomingMessage,
    response: ServerResponse,
    code: string,
    password: string | null,
  ) => void;
}

/**
 * A redirect's headers, `X-Robots-Tag: noindex` unless the link is crawlable (issue 22,
 * ADR 0121). A flat list, not an object: node:http walks an object's keys with `for…in`
 * and an own-property check each, a list by index (ADR 0124).
 */
function redirectHeaders(
  location: string,
  cacheControl: string,
  crawlable: boolean,
): OutgoingHttpHeader[] {
  return crawlable
    ? ['location', location, 'cache-control', cacheControl, 'content-length', '0']
    : [
        'location',
        location,
        'cache-control',
        cacheControl,
        'content-length',
        '0',
        'x-robots-tag',
        NOINDEX,
      ];
}

/** A fallback (issue 21): never kept, never counted. */
const FALLBACK_CACHE_CONTROL = 'no-store';

/**
 * The redirect, served by plain node:http in front of Fastify (ADR 0019: Fastify's routing
 * costs more than the whole L1 hit). Every redirect hop answers is answered here, with its
 * click and its metrics; Fastify's `/:code` route hands this what the router sends it (see
 * routes/redirect-route.ts).
 *
 * Abuse resistance (SPEC §7) adds little to an L1 hit while nobody is throttled and the
 * instance is not shedding: a size check and `shedder.level()`'s four comparisons (an A/B
 * on `hot` could not tell before from after, BENCHMARKS.md); a client's address is only
 * looked up on a miss.
 */
export function makeRedirectFront(deps: RedirectFrontDeps): RedirectFront {
  const {
    resolver,
    observe,
    clicks,
    countryHeader,
    clickAddressOf,
    scanners,
    clientOf,
    shedder,
    domains,
  } = deps;

  /** A 302 of ours that is never kept or counted: fallbacks, a domain's own redirects. */
  const sendTo = (response: ServerResponse, location: string) => {
    response.writeHead(302, {
      location,
      'cache-control': FALLBACK_CACHE_CONTROL,
      'content-length': '0',
      'x-robots-tag': NOINDEX,
    });
    response.end();
  };

  /**
   * `GET /` (and HEAD) on a domain with a root redirect (issue 22): 302 there. Any other
   * root request is Fastify's root page (ADR 0093).
   */
  const answerRoot = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method === 'POST') return false;
    const { rootRedirect } = domains.routeOf(request.rawHeaders);
    if (rootRedirect === null || resolver.blocks(rootRedirect)) return false;
    sendTo(response, rootRedirect);
    return true;
  };

  /**
   * `headers`: this request's, when just read in this turn; else they are read here.
   * `startedAt`: the request's start (`performance.now()`), the click's time (ADR 0152).
   */
  const countClick = (
    request: IncomingMessage,
    linkId: string,
    code: string,
    startedAt: number,
    headers: Readonly<ClickHeaders> | null = null,
  ) => {
    // SPEC §3: HEAD and prefetches are not clicks. A password form's POST (the only other
    // method here) answered by the redirect is one: it is the visit (issue 21).
    if (clicks !== null && request.method !== 'HEAD') {
      recordClick(
        request,
        headers ?? readClickHeaders(request.rawHeaders, countryHeader),
        linkId,
        code,
        startedAt,
      );
    }
  };

  const recordClick = (
    request: IncomingMessage,
    headers: Readonly<ClickHeaders>,
    linkId: string,
    code: string,
    startedAt: number,
  ) => {
    if (clicks !== null && !headers.prefetch) {
      // Issue 21: without an edge's country header, the address is passed on and placed
      // at the flush, off the redirect (ADR 0109); reading it is all the redirect adds.
      clicks(
        startedAt,
        linkId,
        code,
        headers.userAgent,
        headers.referer,
        headers.country,
        countryHeader === undefined ? clickAddressOf(request) : undefined,
        headers.acceptLanguage,
      );
    }
  };

  /**
   * A GET's click, and whether its agent is a link crawler (ADR 0121): the click's one read
   * of the headers tells both, and the crawler's visit is counted like any (a bot's, by
   * its agent: ADR 0094). True when `crawlers` answered it with the link's card.
   */
  const countedCard = (
    request: IncomingMessage,
    response: ServerResponse,
    linkId: string,
    code: string,
    startedAt: number,
  ): boolean => {
    const headers = readClickHeaders(request.rawHeaders, countryHeader);
    recordClick(request, headers, linkId, code, startedAt);
    if (!isLinkCrawler(headers.userAgent)) return false;
    return answerCrawler(request, response, linkId);
  };

  /** The card needs a read: under heavy shedding (SPEC §7) the crawler gets the redirect. */
  const answerCrawler = (request: IncomingMessage, response: ServerResponse, linkId: string) => {
    if (shedder.level() === 2) return false;
    crawlers.answer(request, response, linkId);
    return true;
  };

  const sendMiss = (request: IncomingMessage, response: ServerResponse, route: DomainRoute) => {
    // Issue 22: a domain's not-found redirect takes every miss on it, the same for unknown,
    // disabled, expired and deleted codes (SPEC §3's one answer, per domain).
    if (route.notFoundRedirect !== null && !resolver.blocks(route.notFoundRedirect)) {
      sendTo(response, route.notFoundRedirect);
      return;
    }
    const miss = missAnswer(request.rawHeaders);
    response.writeHead(404, miss.headers);
    response.end(miss.body);
  };

  const sendFallback = (
    request: IncomingMessage,
    response: ServerResponse,
    location: string,
    route: DomainRoute,
  ) => {
    // A fallback on the blocklist goes nowhere, like a destination on it (ADR 0114).
    if (resolver.blocks(location)) {
      sendMiss(request, response, route);
      return;
    }
    sendTo(response, location);
  };

  const writer: SmartWriter = {
    redirect: (request, response, link, status, location, cookies, headers, startedAt) => {
      countClick(request, link.linkId, link.code, startedAt, headers);
      const list = redirectHeaders(location, SMART_CACHE_CONTROL, link.crawlable);
      // A `set-cookie` list is written one line per cookie.
      if (cookies.length > 0) list.push('set-cookie', [...cookies]);
      response.writeHead(status, list);
      response.end();
    },
    spent: (request, response, outcome) => {
      const route = domains.routeOf(request.rawHeaders);
      if (outcome.kind === 'fallback') sendFallback(request, response, outcome.location, route);
      else sendMiss(request, response, route);
    },
    unavailable: (response) => {
      response.writeHead(503, UNAVAILABLE_HEADERS);
      response.end(UNAVAILABLE_BODY);
    },
  };
  const smart = makeSmartAnswer({ ...deps.smart, writer });
  /** The one 404 (or the domain's not-found redirect) of the request's own domain. */
  const sendMissHere = (request: IncomingMessage, response: ServerResponse) => {
    sendMiss(request, response, domains.routeOf(request.rawHeaders));
  };
  const unavailable = (response: ServerResponse) => {
    writer.unavailable(response);
  };
  const crawlers = makeCrawlerAnswer({ ...deps.linkPages, miss: sendMissHere, unavailable });

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    outcome: RedirectOutcome,
    source: string,
    startedAt: number,
    route: DomainRoute,
  ) => {
    if (outcome.kind === 'redirect') {
      // Recorded before the response is written: one-after-the-other A/B runs once put
      // this order ahead (9% against 17-20%), but such runs were later found to scatter by
      // more than that on this VM (BENCHMARKS.md, 2026-12-03), so the order is kept, not
      // shown to matter.
      if (
        request.method !== 'HEAD' &&
        countedCard(request, response, outcome.linkId, outcome.code, startedAt)
      ) {
        observe(source, startedAt);
        return;
      }
      response.writeHead(
        outcome.status,
        redirectHeaders(outcome.location, outcome.cacheControl, outcome.crawlable),
      );
      response.end();
      observe(source, startedAt);
      return;
    }
    if (outcome.kind === 'smart') {
      // A password link shows no card: its crawler gets the form, like anyone (ADR 0121).
      const link = outcome.link;
      const headers =
        request.method === 'HEAD' || link.smart?.options.passwordHash != null
          ? null
          : readClickHeaders(request.rawHeaders, countryHeader);
      if (
        headers !== null &&
        isLinkCrawler(headers.userAgent) &&
        answerCrawler(request, response, link.linkId)
      ) {
        // The card reads no headers: the shared object still holds this request's.
        recordClick(request, headers, link.linkId, link.code, startedAt);
      } else {
        // Its rules and its click read the headers just read, not the request's again.
        smart.answer(request, response, link, headers, startedAt);
      }
      observe(source, startedAt);
      return;
    }
    if (outcome.kind === 'fallback') {
      sendFallback(request, response, outcome.location, route);
      observe(source, startedAt);
      return;
    }
    sendMiss(request, response, route);
    observe(outcome.kind === 'invalid' ? 'invalid' : 'not_found', startedAt);
    scanners?.recordMiss(clientOf(request));
  };

  /**
   * A throttled client, or heavy shedding: only what memory can answer. A redirect found
   * there is served; anything that would need a read gets `refuse` instead, and so does
   * an unknown code from a throttled client.
   */
  const sendFromMemory = (
    request: IncomingMessage,
    response: ServerResponse,
    code: string,
    startedAt: number,
    coolDownMs: number,
    route: DomainRoute,
  ): boolean => {
    const outcome = resolver.resolveFromMemory(code, route.domain);
    if (outcome?.kind === 'reserved') return false;
    const found =
      outcome?.kind === 'redirect' || outcome?.kind === 'smart' || outcome?.kind === 'fallback';
    if (found || (outcome !== undefined && coolDownMs === 0)) {
      send(request, response, outcome, 'l1', startedAt, route);
      return true;
    }
    refuse(response, coolDownMs);
    observe(coolDownMs > 0 ? 'throttled' : 'shed', startedAt);
    return true;
  };

  /** 429 to a throttled client (`coolDownMs` > 0), else 503: shedding. */
  const refuse = (response: ServerResponse, coolDownMs: number) => {
    if (coolDownMs > 0) {
      if (scanners !== null) scanners.refusedRequests++;
      response.writeHead(429, {
        'content-type': PROBLEM_CONTENT_TYPE,
        'content-length': THROTTLED_LENGTH,
        'cache-control': 'no-store',
        'retry-after': String(Math.ceil(coolDownMs / 1000)),
      });
      response.end(THROTTLED_BODY);
      return;
    }
    shedder.shedRedirects++;
    response.writeHead(503, OVERLOADED_HEADERS);
    response.end(OVERLOADED_BODY);
  };

  const preview = makeLinkPreviewAnswer({
    ...deps.linkPages,
    resolver,
    scanners,
    clientOf,
    shedder,
    miss: sendMiss,
    refuse,
    unavailable,
  });

  const answer = (request: IncomingMessage, response: ServerResponse, code: string): boolean => {
    const startedAt = performance.now();
    // Issue 22: the domain the Host names; without other domains, the default at once.
    const route = domains.routeOf(request.rawHeaders);
    // `/{code}+`: the link's preview page (issue 22, ADR 0122); no code holds a `+`.
    if (code.charCodeAt(code.length - 1) === 43) {
      return preview(request, response, code.slice(0, -1), route);
    }
    if (scanners?.throttling === true) {
      const coolDownMs = scanners.coolDownLeft(clientOf(request));
      if (coolDownMs > 0) {
        return sendFromMemory(request, response, code, startedAt, coolDownMs, route);
      }
    }
    if (shedder.level() === 2) {
      return sendFromMemory(request, response, code, startedAt, 0, route);
    }
    const outcome = resolver.resolve(code, route.domain);
    if (!(outcome instanceof Promise)) {
      // Our own routes (/healthz, /metrics, /openapi.json …) are never codes: Fastify's.
      if (outcome.kind === 'reserved') return false;
      // The embedded store's miss, read in this turn (ADR 0155).
      if (outcome.kind === 'read') {
        send(request, response, outcome.outcome, outcome.source, startedAt, route);
      } else {
        send(request, response, outcome, 'l1', startedAt, route);
      }
      return true;
    }
    shedder.enter();
    outcome.then(
      (resolved) => {
        shedder.leave();
        send(request, response, resolved.outcome, resolved.source, startedAt, route);
      },
      () => {
        shedder.leave();
        // Never "not found" for a store that failed (SPEC §5): 503, try again.
        response.writeHead(503, UNAVAILABLE_HEADERS);
        response.end(UNAVAILABLE_BODY);
        observe('error', startedAt);
      },
    );
    return true;
  };

  const handle = (request: IncomingMessage, response: ServerResponse): boolean => {
    const method = request.method;
    const posted = method === 'POST';
    if (method !== 'GET' && method !== 'HEAD' && !posted) return false;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    if (url.charCodeAt(0) !== 47) return false;
    let code = query < 0 ? url.slice(1) : url.slice(1, query);
    // `/{code}/` is `/{code}` (ADR 0095); `/` is the root page's (ADR 0093), and any other
    // slash is no code: `//x`, `/a/b`, `/a/b/` and `/v1/…` go on to Fastify.
    if (code.endsWith('/')) code = code.slice(0, -1);
    // `/` and `/?…` are the root: a domain's root redirect, else Fastify's root page.
    if (code.length === 0)
      return url.length === 1 || query === 1 ? answerRoot(request, response) : false;
    if (code.includes('/')) return false;
    if (!posted) return answer(request, response, code);
    // A password link's form (issue 21). Our own routes' names are Fastify's, body unread.
    if (isReservedAlias(code)) return false;
    answerPost(request, response, code, (then) => {
      readPasswordForm(request, response, then);
    });
    return true;
  };

  /**
   * A POST to `/{code}`: a password link's form (issue 21), its body read only once the
   * code is known to be one; any other code answers the one 404 (an expired link with a
   * fallback: its 302), its body left unread.
   */
  const answerPost = (
    request: IncomingMessage,
    response: ServerResponse,
    code: string,
    readPassword: (then: (password: string | null) => void) => void,
  ): void => {
    const startedAt = performance.now();
    const answerWith = (outcome: RedirectOutcome) => {
      if (outcome.kind === 'smart' && outcome.link.smart?.options.passwordHash != null) {
        const link = outcome.link;
        readPassword((password) => {
          smart.answerForm(request, response, link, password, startedAt);
        });
        return;
      }
      request.resume();
      const route = domains.routeOf(request.rawHeaders);
      if (outcome.kind === 'fallback') {
        sendFallback(request, response, outcome.location, route);
        return;
      }
      sendMiss(request, response, route);
      if (outcome.kind === 'not-found' || outcome.kind === 'invalid') {
        scanners?.recordMiss(clientOf(request));
      }
    };
    const { domain } = domains.routeOf(request.rawHeaders);
    // Throttled scanners and heavy shedding: what memory can answer, as for a GET.
    const coolDownMs = scanners?.throttling === true ? scanners.coolDownLeft(clientOf(request)) : 0;
    if (coolDownMs > 0 || shedder.level() === 2) {
      const inMemory = resolver.resolveFromMemory(code, domain);
      if (inMemory === undefined || (coolDownMs > 0 && inMemory.kind === 'not-found')) {
        request.resume();
        refuse(response, coolDownMs);
        return;
      }
      answerWith(inMemory);
      return;
    }
    const outcome = resolver.resolve(code, domain);
    if (!(outcome instanceof Promise)) {
      answerWith(outcome.kind === 'read' ? outcome.outcome : outcome);
      return;
    }
    outcome.then(
      (resolved) => {
        answerWith(resolved.outcome);
      },
      () => {
        writer.unavailable(response);
      },
    );
  };

  const answerPasswordForm = (
    request: IncomingMessage,
    response: ServerResponse,
    code: string,
    password: string | null,
  ): void => {
    answerPost(request, response, code, (then) => {
      then(password);
    });
  };

  return { handle, answer, answerPasswordForm };
}
