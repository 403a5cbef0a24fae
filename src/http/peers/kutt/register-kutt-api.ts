import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { requireRouteScopes } from '../../route-scope.js';
import { requireKuttKey } from './kutt-auth.js';
import { outsideOpenApi } from './outside-openapi.js';
import { installKuttErrors } from './kutt-errors.js';
import { registerKuttLinkRoutes } from './kutt-links-routes.js';
import { registerKuttUserRoutes } from './kutt-user-routes.js';

/** Where Kutt v3 serves its API for v2 clients (the kutt npm client, ShareX, kutt-extension). */
export const KUTT_API_PREFIX = '/api/v2';

/**
 * Kutt v2 under `/api/v2` (issue 24, ADR 0134): a thin translation over hop's services, in
 * its own Fastify scope. Every answer is JSON, errors `{"error": "…"}`; `health` needs no
 * key, every other route an `X-API-KEY` and the scope it names.
 */
export async function registerKuttApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(
    async (api) => {
      installKuttErrors(api);
      // Kutt's health answer: `res.send("OK")`, which Express sends as text/html.
      api.get('/health', { schema: outsideOpenApi() }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send('OK'),
      );
      await api.register(async (keyed) => {
        requireRouteScopes(keyed);
        requireKuttKey(keyed, deps.keyService);
        registerKuttLinkRoutes(keyed, deps);
        registerKuttUserRoutes(keyed, deps);
      });
    },
    { prefix: KUTT_API_PREFIX },
  );
}
