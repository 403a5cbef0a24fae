import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { bearerTokenCheck, METRICS_TOKEN_REQUIRED } from '../bearer-token.js';
import { problemResponse } from '../schemas.js';
import { sendProblem } from '../send-problem.js';

/** Liveness says the process answers; readiness says it can reach its store (SPEC §3). */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const status = {
    type: 'object',
    properties: { status: { type: 'string' } },
  } as const;

  app.get(
    '/healthz',
    { schema: { summary: 'Liveness', tags: ['operations'], response: { 200: status } } },
    async () => ({ status: 'ok' }),
  );

  const isMetricsAllowed = bearerTokenCheck(deps.metricsToken);
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics (with HOP_METRICS_TOKEN set: that bearer token only)',
        tags: ['operations'],
        response: { 401: problemResponse },
      },
    },
    async (request, reply) => {
      if (!isMetricsAllowed(request.headers.authorization)) {
        return sendProblem(request, reply, 'unauthorized', METRICS_TOKEN_REQUIRED);
      }
      const { contentType, body } = await deps.metrics.render();
      return reply.header('content-type', contentType).send(body);
    },
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: the store answers',
        tags: ['operations'],
        response: { 200: status },
      },
    },
    async (request, reply) => {
      try {
        await deps.pingStore();
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return sendProblem(request, reply, 'store-unavailable', 'The store does not answer.', {
          retryAfterSeconds: 1,
        });
      }
    },
  );
}
