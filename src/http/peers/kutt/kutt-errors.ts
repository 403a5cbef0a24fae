import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHopError, type HopError } from '../../../domain/errors.js';
import { INVALID_JSON } from '../../json-body.js';
import { PROBLEMS } from '../../problems.js';
import { rateLimitHeaders } from '../../rate-limit-headers.js';

/**
 * A refusal the Kutt adapter makes itself, before any service runs: Kutt's own words
 * (`server/handlers/validators.handler.js`) and the status the meaning calls for.
 */
export class KuttRefusal extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'KuttRefusal';
    this.status = status;
  }
}

/** Kutt's answer to a missing or unknown key (`passport` falls through to 401). */
export const UNAUTHORIZED = 'Unauthorized.';

/** What a route says when the link it names is not the caller's to see (Kutt's words). */
export interface NotFoundWords {
  readonly notFound: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The Kutt route's words for "no such link" (ADR 0134: 404, never Kutt's 500). */
    kuttNotFound?: string;
  }
}

const DEFAULT_NOT_FOUND = 'Link was not found.';

/**
 * Kutt answers every error as `{"error": "<message>"}` (helpers.handler.js `error`). hop
 * keeps that body and picks the status the meaning calls for: Kutt's 500s for "not found"
 * and "already in use" become 404 and 409 (ADR 0134).
 */
export function installKuttErrors(api: FastifyInstance): void {
  api.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof KuttRefusal) return sendKuttError(reply, error.status, error.message);
    if (isHopError(error)) return sendHopError(request, reply, error);
    const known = fastifyRefusal(error);
    if (known !== null) return sendKuttError(reply, known.status, known.message);
    request.log.error({ err: error }, 'unhandled error in the Kutt API');
    return sendKuttError(reply, 500, 'An error occurred. Please try again later.');
  });

  // Kutt's API has no route here (its client's `stats` sends DELETE …/stats: issue 24).
  api.setNotFoundHandler((request, reply) =>
    sendKuttError(reply, 404, notFoundMessage(request.method, request.url)),
  );
}

/** The one renderer of Kutt errors: JSON always, whatever `Accept` asks (ADR 0134). */
export function sendKuttError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify({ error: message }));
}

function sendHopError(request: FastifyRequest, reply: FastifyReply, error: HopError): FastifyReply {
  if (error.kind === 'store-unavailable') {
    request.log.warn({ err: error.cause ?? error }, 'store unavailable');
  }
  reply.headers(rateLimitHeaders(error.quotas));
  if (error.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(error.retryAfterSeconds));
  }
  const notFound = request.routeOptions.config.kuttNotFound ?? DEFAULT_NOT_FOUND;
  const { status, message } = kuttErrorOf(error, notFound);
  return sendKuttError(reply, status, message);
}

/**
 * A service's refusal in Kutt's words where Kutt refuses the same thing, else in hop's:
 * the status from hop's one table, with 422 said as Kutt says it (400).
 */
export function kuttErrorOf(
  error: HopError,
  notFound: string,
): { status: number; message: string } {
  const field = error.fields[0]?.field;
  switch (error.kind) {
    case 'unauthorized':
      return { status: 401, message: UNAUTHORIZED };
    case 'not-found':
      return { status: 404, message: notFound };
    case 'alias-taken':
      return { status: 409, message: 'Custom URL is already in use.' };
    case 'invalid-alias':
      return { status: 400, message: `Custom URL is not valid. ${error.detail}` };
    case 'invalid-destination':
      return { status: 400, message: `URL is not valid. ${error.detail}` };
    case 'invalid-expiry':
      // hop's words name its own field; the Kutt client sent `expire_in`.
      return { status: 400, message: error.detail.replace(/^expires_at:/, 'expire_in:') };
    case 'invalid-request':
      if (field === 'domain') return { status: 400, message: "You can't use this domain." };
      if (field === 'title') return { status: 400, message: `Description: ${error.detail}` };
      if (field === 'password') return { status: 400, message: `Password: ${error.detail}` };
      return { status: 400, message: error.detail };
    default: {
      const status = PROBLEMS[error.kind].status;
      return { status: status === 422 ? 400 : status, message: error.detail };
    }
  }
}

/** Fastify's own refusals of a request (body type, JSON, size) as Kutt-shaped 4xx. */
function fastifyRefusal(error: FastifyError): { status: number; message: string } | null {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, message: 'Send the request body as application/json.' };
  }
  if (error.code === INVALID_JSON) {
    return { status: 400, message: 'The request body is not valid JSON.' };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, message: 'The request body is too large.' };
  if (status >= 400 && status < 500) return { status, message: 'The request could not be read.' };
  return null;
}

/** Kutt-shaped words for a path hop's Kutt API does not serve. */
function notFoundMessage(method: string, url: string): string {
  const path = url.split('?')[0] ?? url;
  if (/^\/api\/v2\/links\/[^/]+\/stats$/.test(path)) {
    return `No ${method} route for a link's stats: GET /api/v2/links/{id}/stats reads them, and nothing deletes them.`;
  }
  if (/^\/api\/v2\/domains(\/|$)/.test(path)) {
    return "hop's Kutt API does not add or remove domains: an admin manages them through /v1/domains.";
  }
  if (/^\/api\/v2\/(links|users)\/admin(\/|$)/.test(path) || /^\/api\/v2\/admin/.test(path)) {
    return "hop's Kutt API has no admin routes: an admin key lists every owner's links with GET /api/v2/links?all=true.";
  }
  return `Not found: hop's Kutt API has no route ${method} ${path}.`;
}
