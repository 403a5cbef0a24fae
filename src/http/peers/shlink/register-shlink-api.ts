import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { registerDomainRoutes } from './domain-routes.js';
import { registerHealthRoutes } from './health-routes.js';
import { registerRedirectRuleRoutes } from './redirect-rule-routes.js';
import { registerShortUrlRoutes } from './short-url-routes.js';
import { answerPreflight, installShlinkPlumbing } from './shlink-plumbing.js';
import { versioned } from './shlink-paths.js';
import { mercureNotConfigured, routeNotFound, sendShlinkProblem } from './shlink-problem.js';
import { registerTagRoutes } from './tag-routes.js';
import { registerVisitRoutes } from './visit-routes.js';

/**
 * Shlink REST v3 (and its v2, v1 aliases) under `/rest` (issue 24, ADR 0133): a thin
 * translation over hop's services, in its own Fastify scope with its own key header, CORS
 * and problem shapes.
 */
export async function registerShlinkApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  installShlinkPlumbing(app, deps);
  registerHealthRoutes(app, deps);
  registerShortUrlRoutes(app, deps);
  registerVisitRoutes(app, deps);
  registerTagRoutes(app, deps);
  registerDomainRoutes(app, deps);
  registerRedirectRuleRoutes(app, deps);

  // Shlink's UI asks for its real-time hub first and carries on without one.
  for (const path of versioned('/mercure-info')) {
    app.get(path, { config: { scope: 'links:read' } }, async () => {
      throw mercureNotConfigured();
    });
  }

  // Every other path under /rest, and every preflight: Shlink's clients parse each body
  // as JSON, so a path of no route is Shlink's `not-found` problem, never hop's HTML page.
  for (const path of ['/rest', '/rest/*']) {
    app.all(path, async (request, reply) => {
      if (request.method === 'OPTIONS') return answerPreflight(request, reply);
      return sendShlinkProblem(
        reply,
        routeNotFound(request.method, request.url.split('?')[0] ?? ''),
      );
    });
  }
  await Promise.resolve();
}
