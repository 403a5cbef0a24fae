import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRedirectable, type Link } from '../domain/link.js';
import type { RedirectOutcome } from '../domain/redirect-outcome.js';
import type { LinkLookups } from '../services/links/find-visible-link.js';
import type { LinkQrDeps } from '../services/links/link-qr-code.js';
import type { DomainRoute } from '../services/redirect/domain-routes.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';
import type { LoadShedder } from '../services/protection/load-shedder.js';
import type { ScannerThrottle } from '../services/protection/scanner-throttle.js';
import type { ClientOf } from './client-address.js';
import { pageLanguageOf } from './pages/negotiation.js';
import type { PageLanguage } from './pages/page-texts.js';
import { LINK_PREVIEW_HEADERS, renderLinkPreviewPage } from './pages/link-preview-page.js';

/** The QR code's width on the page, in CSS pixels. */
const QR_SIZE = 200;

/** What the link pages (the `+` page, the crawlers' card) need that a redirect does not. */
export interface LinkPageDeps {
  /** Whole links, read by id once the cache has said the code is an active link. */
  readonly links: Pick<LinkLookups, 'findLinkById'>;
  readonly qr: LinkQrDeps['qr'];
  /** The link's short URL, as its JSON's `short_url` says it. */
  readonly shortUrlOf: (link: Link) => string;
  readonly now: () => number;
}

export interface LinkPreviewAnswerDeps extends LinkPageDeps {
  readonly resolver: Pick<RedirectResolver, 'resolve'>;
  readonly scanners: ScannerThrottle | null;
  readonly clientOf: ClientOf;
  readonly shedder: Pick<LoadShedder, 'level'>;
  /** The front's own answers: the domain's miss, a throttled client's 429, shedding's 503. */
  readonly miss: (request: IncomingMessage, response: ServerResponse, route: DomainRoute) => void;
  readonly refuse: (response: ServerResponse, coolDownMs: number) => void;
  readonly unavailable: (response: ServerResponse) => void;
}

/**
 * `GET /{code}+` (issue 22, ADR 0122): a link's public preview page. The code is looked up
 * on the request's domain as a redirect looks it up (L1, the known codes, one coalesced
 * read), so unknown, disabled, expired and deleted codes take the redirect's own miss;
 * only an active link's page reads the link itself. Never a click.
 */
export function makeLinkPreviewAnswer(
  deps: LinkPreviewAnswerDeps,
): (
  request: IncomingMessage,
  response: ServerResponse,
  code: string,
  route: DomainRoute,
) => boolean {
  const { resolver, scanners, clientOf, shedder, miss, refuse, unavailable } = deps;

  const show = (
    request: IncomingMessage,
    response: ServerResponse,
    outcome: RedirectOutcome,
    route: DomainRoute,
  ) => {
    const linkId =
      outcome.kind === 'redirect'
        ? outcome.linkId
        : outcome.kind === 'smart'
          ? outcome.link.linkId
          : null;
    if (linkId === null) {
      miss(request, response, route);
      if (outcome.kind === 'not-found' || outcome.kind === 'invalid') {
        scanners?.recordMiss(clientOf(request));
      }
      return;
    }
    const language = pageLanguageOf(request.rawHeaders);
    pageOf(deps, linkId, language).then(
      (page) => {
        if (page === null) {
          miss(request, response, route);
          return;
        }
        response.writeHead(200, {
          ...LINK_PREVIEW_HEADERS[language],
          'content-length': String(page.length),
        });
        response.end(request.method === 'HEAD' ? undefined : page);
      },
      () => {
        unavailable(response);
      },
    );
  };

  return (request, response, code, route) => {
    // A page always reads the link: a throttled client and heavy shedding get no read at
    // all (SPEC §7), where a redirect would still be served from memory.
    const coolDownMs = scanners?.throttling === true ? scanners.coolDownLeft(clientOf(request)) : 0;
    if (coolDownMs > 0 || shedder.level() === 2) {
      refuse(response, coolDownMs);
      return true;
    }
    const outcome = resolver.resolve(code, route.domain);
    if (!(outcome instanceof Promise)) {
      if (outcome.kind === 'reserved') return false;
      show(request, response, outcome.kind === 'read' ? outcome.outcome : outcome, route);
      return true;
    }
    outcome.then(
      (resolved) => {
        show(request, response, resolved.outcome, route);
      },
      () => {
        unavailable(response);
      },
    );
    return true;
  };
}

/** The page of the active link `linkId`, or null when it is no longer one. */
async function pageOf(
  deps: LinkPageDeps,
  linkId: string,
  language: PageLanguage,
): Promise<Buffer | null> {
  const link = await deps.links.findLinkById(linkId);
  if (link === null || !isRedirectable(link, deps.now())) return null;
  const shortUrl = deps.shortUrlOf(link);
  const qr = await deps.qr.render(shortUrl, 'svg', QR_SIZE);
  const locked = link.smart?.passwordHash != null;
  const html = renderLinkPreviewPage(
    {
      code: link.code,
      shortUrl,
      // A password link shows nothing its owner wrote: that is for those with the password.
      preview: locked ? null : link.preview,
      title: locked ? null : link.title,
      destination: locked ? null : link.destination,
      mayVary: (link.smart?.rules.length ?? 0) > 0 || (link.smart?.variants.length ?? 0) > 0,
      qrSvg: qr.body.toString('utf8'),
    },
    language,
  );
  return Buffer.from(html, 'utf8');
}
