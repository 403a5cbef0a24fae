import type { FastifyInstance } from 'fastify';
import { CODE_PATTERN } from '../../domain/code-format.js';
import { sendPage } from '../pages/send-page.js';
import { missAnswer, type RedirectFront } from '../redirect-front.js';

/**
 * GET and HEAD /{code} as Fastify's router sees them. The node:http front answers
 * `/{code}` before Fastify; what reaches this route is what it handed on, the reserved
 * words in spellings that are no route of ours (/Healthz, /v1, /favicon.ico), and targets
 * only the router reads as /{code} (absolute-form, `http://host/{code}`: RFC 9112 §3.2.2).
 * All of them go back to the front, so that every redirect counts its click and its
 * metrics; it leaves only the reserved words, which no link holds, to this route: the one
 * 404 (SPEC §3), or the one miss page to a browser (ADR 0092). The route also documents the redirect in /openapi.json.
 */
export function registerRedirectRoute(app: FastifyInstance, front: RedirectFront): void {
  app.get<{ Params: { code: string } }>(
    '/:code',
    {
      schema: {
        summary: 'Follow a short link',
        tags: ['redirect'],
        params: {
          type: 'object',
          properties: { code: { type: 'string', pattern: CODE_PATTERN } },
        },
        response: {
          301: { type: 'null', description: 'Permanent redirect to the destination.' },
          302: { type: 'null', description: 'Temporary redirect (the default).' },
          307: { type: 'null', description: 'Temporary, method-preserving redirect.' },
          308: { type: 'null', description: 'Permanent, method-preserving redirect.' },
          404: {
            type: 'object',
            description:
              'Unknown, disabled, expired or deleted: problem+json, or one HTML page to a client whose Accept prefers text/html.',
          },
        },
      },
      // The pattern is documentation: the service checks the format itself, without ajv.
      validatorCompiler: () => () => true,
    },
    (request, reply) => {
      // The headers every Fastify answer carries (build-app.ts) go out with the front's too.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      if (front.answer(request.raw, reply.raw, request.params.code)) {
        reply.hijack();
        return;
      }
      return sendPage(reply, 404, missAnswer(request.raw.rawHeaders));
    },
  );
}
