import type { FastifyInstance, FastifyReply } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from '../problems.js';
import { NOT_FOUND_BODY } from '../redirect-front.js';
import type { RedirectOutcome } from '../../domain/redirect-outcome.js';
import type { AppDeps } from '../app-deps.js';

/**
 * GET and HEAD /{code} as Fastify sees them: only the requests the node:http front leaves
 * to Fastify (codes that spell one of our routes in another case, e.g. /Healthz) arrive
 * here, and the route documents the redirect in /openapi.json. Same resolver, same answers.
 */
export function registerRedirectRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { code: string } }>(
    '/:code',
    {
      schema: {
        summary: 'Follow a short link',
        tags: ['redirect'],
        params: {
          type: 'object',
          properties: { code: { type: 'string', pattern: '^[A-Za-z0-9_-]{3,64}$' } },
        },
        response: {
          301: { type: 'null', description: 'Permanent redirect to the destination.' },
          302: { type: 'null', description: 'Temporary redirect (the default).' },
          307: { type: 'null', description: 'Temporary, method-preserving redirect.' },
          308: { type: 'null', description: 'Permanent, method-preserving redirect.' },
          404: { type: 'object', description: 'Unknown, disabled, expired or deleted.' },
        },
      },
      // The pattern is documentation: the service checks the format itself, without ajv.
      validatorCompiler: () => () => true,
    },
    (request, reply) => {
      const outcome = deps.redirect.resolve(request.params.code);
      if (outcome instanceof Promise) return outcome.then((o) => sendOutcome(reply, o.outcome));
      return sendOutcome(reply, outcome);
    },
  );
}

function sendOutcome(reply: FastifyReply, outcome: RedirectOutcome): FastifyReply {
  if (outcome.kind === 'redirect') {
    return reply
      .code(outcome.status)
      .header('location', outcome.location)
      .header('cache-control', outcome.cacheControl)
      .send();
  }
  return reply
    .code(404)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(NOT_FOUND_BODY);
}
