import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import type { DomainRoutes } from '../../services/redirect/domain-routes.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withConsoleHeaders } from '../console/console-headers.js';
import { sendPage } from '../pages/send-page.js';
import { pageIn, ROOT_PAGES } from '../pages/visitor-pages.js';

/** `GET /` and `GET /robots.txt`: what a visitor or a crawler finds at the root (ADR 0093). */
export function registerVisitorRoutes(
  app: FastifyInstance,
  rootRedirect: string | undefined,
  domains: Pick<DomainRoutes, 'routeOf'>,
  robotsTxt: (request: FastifyRequest) => Promise<string>,
): void {
  app.get(
    '/',
    {
      schema: {
        summary: "hop's page, or a redirect to HOP_ROOT_REDIRECT",
        tags: ['visitors'],
        response: {
          200: { type: 'string', description: 'A small HTML page: what hop is.' },
          302: { type: 'null', description: 'HOP_ROOT_REDIRECT is set.' },
        },
      },
    },
    (request, reply) => {
      // HOP_ROOT_REDIRECT is the default domain's; another domain's root shows this page
      // unless it has a root redirect of its own (the front answers that: ADR 0116).
      const onDefault = domains.routeOf(request.raw.rawHeaders).domain === DEFAULT_DOMAIN;
      if (rootRedirect !== undefined && onDefault) {
        return withConsoleHeaders(reply)
          .header('cache-control', 'private, no-store')
          .redirect(rootRedirect, 302);
      }
      return sendPage(reply, 200, pageIn(ROOT_PAGES, request.headers['accept-language']));
    },
  );

  app.get(
    '/robots.txt',
    {
      schema: {
        summary: 'Robots exclusion rules (RFC 9309)',
        description:
          "Search engines may fetch only the domain's crawlable links (each allowed exactly, up to 1,000, newest first); link-preview agents of chat and social apps may fetch any link (ADR 0093, 0121).",
        tags: ['visitors'],
        response: { 200: { type: 'string' } },
      },
    },
    async (request, reply) => {
      const text = await robotsTxt(request);
      // Kept a minute here too: a link made crawlable opens within minutes (ADR 0121).
      return withConsoleHeaders(reply)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=60')
        .send(text);
    },
  );
}
