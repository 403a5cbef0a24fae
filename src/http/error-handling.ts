import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHopError, type FieldProblem } from '../domain/errors.js';
import { INVALID_JSON } from './json-body.js';
import { sendPage } from './pages/send-page.js';
import { missPageFor } from './pages/visitor-pages.js';
import type { ProblemKind } from './problems.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { sendProblem } from './send-problem.js';

export interface AjvIssue {
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
  const { detail, fields } = describeValidation(
    error.validationContext ?? 'body',
    error.validation as unknown as AjvIssue[],
  );
  return sendProblem(request, reply, 'invalid-request', detail, { fields });
}

/** ajv's issues with a request part (`body`, `querystring`), as a problem's detail and fields. */
export function describeValidation(
  context: string,
  issues: readonly AjvIssue[],
): { detail: string; fields: FieldProblem[] } {
  const fields = issues.map((issue) => fieldProblem(context, issue));
  const sentences = fields.map((problem) =>
    problem.field === context
      ? `The request ${context} ${problem.detail}`
      : `${problem.field}: ${problem.detail}`,
  );
  const detail =
    sentences.length === 1
      ? `${sentences[0] ?? ''}.`
      : `The request ${context} has ${fields.length} problems: ${sentences.join('; ')}.`;
  return { detail, fields };
}

function fieldProblem(context: string, issue: AjvIssue): FieldProblem {
  const path = fieldPathOf(issue.instancePath);
  const extra =
    typeof issue.params['additionalProperty'] === 'string'
      ? issue.params['additionalProperty']
      : typeof issue.params['missingProperty'] === 'string'
        ? issue.params['missingProperty']
        : '';
  const field = [path, extra].filter((part) => part !== '').join('.') || context;
  return { field, detail: issueInWords(issue) };
}

/**
 * A JSON pointer as the field names of our problems read (the domain's too): array items
 * in brackets, `/rules/2/when/country/0` → `rules[2].when.country[0]` (issue 21).
 */
export function fieldPathOf(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}

/** JSON Schema types as a sentence says them. */
const TYPE_WORDS: Record<string, string> = {
  object: 'a JSON object',
  array: 'a JSON array',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

/** Formats as a person would name them (ajv says `must match format "date-time"`). */
const FORMAT_WORDS: Record<string, string> = {
  'date-time': 'an RFC 3339 timestamp such as 2030-01-31T12:00:00Z',
  uri: 'an absolute URL',
};

/** What ajv reports, in words: the allowed values named, types said as a person says them. */
function issueInWords(issue: AjvIssue): string {
  const { params } = issue;
  switch (issue.keyword) {
    case 'additionalProperties':
      return 'is not a known field';
    case 'required':
      return 'is required';
    case 'type': {
      const types = Array.isArray(params['type'])
        ? params['type']
        : String(params['type']).split(',');
      return `must be ${types.map((type) => TYPE_WORDS[String(type)] ?? String(type)).join(' or ')}`;
    }
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      return `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
    }
    case 'format': {
      const format = String(params['format']);
      return `must be ${FORMAT_WORDS[format] ?? `in the ${format} format`}`;
    }
    case 'maxLength':
      return `must have at most ${String(params['limit'])} characters`;
    case 'minLength':
      return `must have at least ${String(params['limit'])} characters`;
    case 'maxItems':
      return `must have at most ${String(params['limit'])} items`;
    case 'minItems':
      return `must have at least ${String(params['limit'])} items`;
    case 'maximum':
      return `must be at most ${String(params['limit'])}`;
    case 'minimum':
      return `must be at least ${String(params['limit'])}`;
    default:
      return issue.message ?? 'is invalid';
  }
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
