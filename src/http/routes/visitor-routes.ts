import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import type { DomainRoutes } from '../../services/redirect/domain-routes.js';
import type { FastifyInstance } from 'fastify';
import { withConsoleHeaders } from '../console/console-headers.js';
import { sendPage } from '../pages/send-page.js';
import { pageIn, ROOT_PAGES } from '../pages/visitor-pages.js';

/**
 * ADR 0093: search engines are kept off everything (short links are someone else's page,
 * and the API and console are nobody's search result); the link-preview agents of chat and
 * social apps may fetch short links, so a shared link still unfolds into a preview. Their
 * fetches are redirected and counted as bot clicks (ADR 0094). RFC 9309: the longest
 * matching rule wins, so the service's own paths stay closed to them too.
 */
const ROBOTS_TXT = [
  '# hop: short links redirect to other sites; there is nothing here to index.',
  'User-agent: *',
  'Disallow: /',
  '',
  '# Link previews in chat and social apps.',
  ...[
    'Twitterbot',
    'facebookexternalhit',
    'Facebot',
    'LinkedInBot',
    'Slackbot-LinkExpanding',
    'Discordbot',
    'TelegramBot',
    'WhatsApp',
    'SkypeUriPreview',
  ].map((agent) => `User-agent: ${agent}`),
  'Allow: /',
  ...['/v1/', '/admin', '/docs', '/openapi.json', '/metrics', '/healthz', '/readyz'].map(
    (path) => `Disallow: ${path}`,
  ),
  '',
].join('\n');

/** `GET /` and `GET /robots.txt`: what a visitor or a crawler finds at the root (ADR 0093). */
export function registerVisitorRoutes(
  app: FastifyInstance,
  rootRedirect: string | undefined,
  domains: Pick<DomainRoutes, 'routeOf'>,
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
        tags: ['visitors'],
        response: { 200: { type: 'string' } },
      },
    },
    (_request, reply) =>
      withConsoleHeaders(reply)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(ROBOTS_TXT),
  );
}
