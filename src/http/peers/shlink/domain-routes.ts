import type { FastifyInstance } from 'fastify';
import { listDomains } from '../../../services/domains/list-domains.js';
import type { DomainView } from '../../../services/domains/domain-view.js';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../principal-of.js';
import { versioned } from './shlink-paths.js';

/**
 * A domain's redirects as Shlink names them: hop's root redirect is Shlink's base URL
 * redirect; hop sends every path that is no link to one not-found redirect, which is
 * Shlink's redirect for an invalid short URL and for any other 404 alike.
 */
function redirectsOf(domain: DomainView | undefined) {
  const notFound = domain?.notFoundRedirect ?? null;
  return {
    baseUrlRedirect: domain?.rootRedirect ?? null,
    regular404Redirect: notFound,
    invalidShortUrlRedirect: notFound,
  };
}

/** `GET /domains`: the domains the key may use, from hop's domain service (issue 22). */
export function registerDomainRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of versioned('/domains')) {
    app.get(path, { config: { scope: 'links:read' } }, async (request) => {
      const domains = await listDomains(deps.domainService, principalOf(request));
      return {
        domains: {
          data: domains.map((domain) => ({
            domain: domain.host,
            isDefault: domain.isDefault,
            redirects: redirectsOf(domain),
          })),
          defaultRedirects: redirectsOf(domains.find((domain) => domain.isDefault)),
        },
      };
    });
  }
}
