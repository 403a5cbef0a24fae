import type { FastifyInstance, FastifyReply } from 'fastify';
import { problemBody, PROBLEM_CONTENT_TYPE } from '../problems.js';
import type { RedirectOutcome } from '../../domain/redirect-outcome.js';
import type { AppDeps } from '../app-deps.js';

/**
 * One body for every kind of miss, made once: unknown, disabled, expired, deleted and
 * impossible codes are indistinguishable from outside (SPEC §3), down to the byte.
 */
const NOT_FOUND_BODY = JSON.stringify(
  problemBody('not-found', 'There is no link with this code.', undefined),
);

/**
 * GET and HEAD /{code}. Registered outside the /v1 scope, so no auth, body parsing or
 * idempotency hook ever runs here; expected outcomes are values, not exceptions.
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
      if (outcome instanceof Promise) return outcome.then((o) => sendOutcome(reply, o));
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
