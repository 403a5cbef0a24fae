import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldProblem } from '../domain/errors.js';
import { PROBLEM_CONTENT_TYPE, problemBody, type ProblemKind } from './problems.js';

/** The one renderer of RFC 9457 problem responses, used by every error path. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ProblemKind,
  detail: string,
  options: { fields?: readonly FieldProblem[]; retryAfterSeconds?: number | undefined } = {},
): FastifyReply {
  const body = problemBody(kind, detail, request.id, options.fields);
  if (options.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(options.retryAfterSeconds));
  }
  if (body.status === 401) reply.header('www-authenticate', 'Bearer realm="hop"');
  return reply
    .code(body.status)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}
