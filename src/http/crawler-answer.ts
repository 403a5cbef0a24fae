import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRedirectable } from '../domain/link.js';
import { CONSOLE_HEADERS } from './console/console-headers.js';
import type { LinkPageDeps } from './link-preview-answer.js';
import { LINK_CARD_CSP, renderLinkCard } from './pages/link-card-page.js';

/** `X-Robots-Tag` of every redirect and card of a link that is not `crawlable` (ADR 0121). */
export const NOINDEX = 'noindex';

export interface CrawlerAnswerDeps extends Omit<LinkPageDeps, 'qr'> {
  /** The request's domain's miss (the link went away between the cache and the read). */
  readonly miss: (request: IncomingMessage, response: ServerResponse) => void;
  /** The store did not answer: 503. */
  readonly unavailable: (response: ServerResponse) => void;
}

export interface CrawlerAnswer {
  /**
   * A crawler's GET of an active link (its visit already counted, as a bot's: ADR 0094):
   * 200 with the link's card, read by id. A password link never shows one.
   */
  answer(request: IncomingMessage, response: ServerResponse, linkId: string): void;
}

/**
 * Link cards for link-preview and social crawlers (issue 22, ADR 0121). The cache entry
 * holds what a redirect needs and not a link's title or preview, so a crawler's request
 * reads the link by id (its primary key): crawlers are few, and a person's redirect never
 * pays for this.
 */
export function makeCrawlerAnswer(deps: CrawlerAnswerDeps): CrawlerAnswer {
  const { links, now, shortUrlOf, miss, unavailable } = deps;
  return {
    answer(request, response, linkId) {
      links.findLinkById(linkId).then(
        (link) => {
          // Changed since the cache entry was made: disabled, deleted, expired, or given a
          // password (whose destination no card may show).
          if (link === null || !isRedirectable(link, now()) || link.smart?.passwordHash != null) {
            miss(request, response);
            return;
          }
          const crawlable = link.crawlable;
          const body = Buffer.from(
            renderLinkCard({
              preview: link.preview,
              title: link.title,
              shortUrl: shortUrlOf(link),
              destination: link.destination,
              crawlable,
            }),
            'utf8',
          );
          response.writeHead(200, {
            ...CONSOLE_HEADERS,
            'content-security-policy': LINK_CARD_CSP,
            'content-type': 'text/html; charset=utf-8',
            'content-length': String(body.length),
            'cache-control': 'private, no-store',
            // The same URL redirects everyone else.
            vary: 'User-Agent',
            ...(crawlable ? {} : { 'x-robots-tag': NOINDEX }),
          });
          response.end(body);
        },
        () => {
          unavailable(response);
        },
      );
    },
  };
}
