import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.js';
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

  app.get(
    '/metrics',
    { schema: { summary: 'Prometheus metrics', tags: ['operations'] } },
    async (_request, reply) => {
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
