import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHopError, type FieldProblem } from '../domain/errors.js';
import { INVALID_JSON } from './json-body.js';
import { sendPage } from './pages/send-page.js';
import { missPageFor } from './pages/visitor-pages.js';
import type { ProblemKind } from './problems.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { sendProblem } from './send-problem.js';

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * Every failure becomes a problem response: domain errors by their kind, Fastify's own
 * request errors (bad JSON, wrong media type, too large, schema) as 4xx, anything else
 * as a generic 500 logged once with its stack, never with a driver's message.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isHopError(error)) {
      if (error.kind === 'store-unavailable') {
        request.log.warn({ err: error.cause ?? error }, 'store unavailable');
      }
      reply.headers(rateLimitHeaders(error.quotas));
      return sendProblem(request, reply, error.kind, error.detail, {
        fields: error.fields,
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
    if (error.validation !== undefined) {
      return sendValidationProblem(request, reply, error);
    }
    const known = fastifyRequestProblem(error);
    if (known !== null) return sendProblem(request, reply, known.kind, known.detail);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, 'internal-error', 'Something went wrong on our side.');
  });

  // A browser that follows a path of no route gets the miss page, as for a code (ADR 0092).
  app.setNotFoundHandler((request, reply) => {
    const page =
      request.method === 'GET' || request.method === 'HEAD'
        ? missPageFor(request.raw.rawHeaders)
        : null;
    if (page !== null) return sendPage(reply, 404, page);
    return sendProblem(request, reply, 'not-found', 'Nothing lives at this path.');
  });
}

function sendValidationProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: FastifyError,
): FastifyReply {
  const context = error.validationContext ?? 'body';
  const fields = (error.validation as unknown as AjvIssue[]).map((issue) =>
    fieldProblem(context, issue),
  );
  const detail =
    fields.length === 1 && fields[0] !== undefined
      ? `${fields[0].field}: ${fields[0].detail}`
      : `The request ${context} has ${fields.length} problems.`;
  return sendProblem(request, reply, 'invalid-request', detail, { fields });
}

function fieldProblem(context: string, issue: AjvIssue): FieldProblem {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra =
    typeof issue.params['additionalProperty'] === 'string'
      ? issue.params['additionalProperty']
      : typeof issue.params['missingProperty'] === 'string'
        ? issue.params['missingProperty']
        : '';
  const field = [path, extra].filter((part) => part !== '').join('.') || context;
  const detail =
    issue.keyword === 'additionalProperties'
      ? 'is not a known field'
      : issue.keyword === 'required'
        ? 'is required'
        : (issue.message ?? 'is invalid');
  return { field, detail };
}

function fastifyRequestProblem(error: FastifyError): { kind: ProblemKind; detail: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { kind: 'payload-too-large', detail: 'The request body is too large.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        kind: 'unsupported-media-type',
        detail: 'Send the request body as application/json.',
      };
    case INVALID_JSON:
      return { kind: 'malformed-request', detail: 'The request body is not valid JSON.' };
    default:
      break;
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { kind: 'payload-too-large', detail: 'The request is too large.' };
  if (status >= 400 && status < 500) {
    return { kind: 'malformed-request', detail: 'The request could not be read.' };
  }
  return null;
}
