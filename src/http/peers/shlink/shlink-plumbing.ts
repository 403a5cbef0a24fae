import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseJsonText } from '../../json-body.js';
import { isHopError } from '../../../domain/errors.js';
import { assertScope, type Scope } from '../../../domain/principal.js';
import { authenticateKey } from '../../../services/keys/authenticate.js';
import type { AppDeps } from '../../app-deps.js';
import {
  invalidApiKey,
  invalidData,
  malformedBody,
  missingAuthentication,
  problemOf,
  sendShlinkProblem,
  ShlinkProblem,
} from './shlink-problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A Shlink route taking its key as `?apiKey=` too (`GET /short-urls/shorten`). */
    shlinkKeyInQuery?: boolean;
  }
}

/** Shlink's CORS (`CrossDomainMiddleware`): any origin; preflights cached for an hour. */
const ALLOWED_METHODS = 'GET,POST,PUT,PATCH,DELETE';
const PREFLIGHT_MAX_AGE = '3600';

/**
 * What every Shlink route shares, in the adapter's own Fastify scope: JSON bodies read
 * whatever their media type (a bad one is `malformed-request-body`), CORS as Shlink sends
 * it, the key from `X-Api-Key`, the route's scope checked as /v1 checks it, and every
 * error answered as a Shlink problem.
 */
export function installShlinkPlumbing(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('principal', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonText(typeof body === 'string' ? body : body.toString()));
    } catch {
      done(malformedBody(), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin !== undefined) reply.header('access-control-allow-origin', '*');
    const scope = request.routeOptions.config.scope;
    if (scope === undefined || request.method === 'OPTIONS') return;
    request.principal = await principalOfShlinkRequest(deps, request);
    assertScope(request.principal, scope);
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = problemOf(error) ?? fastifyProblemOf(error);
    if (problem !== null) return sendShlinkProblem(reply, forTagsRoute(problem, request));
    request.log.error({ err: error }, 'unhandled error in the Shlink API');
    return sendShlinkProblem(
      reply,
      new ShlinkProblem(
        'internal-server-error',
        500,
        'Internal Server Error',
        'Something went wrong on our side.',
      ),
    );
  });
}

/** A preflight: 204 with the methods and the headers asked for (Shlink echoes them). */
export function answerPreflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const asked = request.headers['access-control-request-headers'];
  reply
    .code(204)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', ALLOWED_METHODS)
    .header('access-control-max-age', PREFLIGHT_MAX_AGE);
  if (typeof asked === 'string') reply.header('access-control-allow-headers', asked);
  return reply.send();
}

async function principalOfShlinkRequest(deps: AppDeps, request: FastifyRequest) {
  const header = request.headers['x-api-key'];
  const inQuery =
    request.routeOptions.config.shlinkKeyInQuery === true
      ? (request.query as Record<string, unknown>)['apiKey']
      : undefined;
  const key =
    typeof header === 'string' && header !== ''
      ? header
      : typeof inQuery === 'string' && inQuery !== ''
        ? inQuery
        : undefined;
  if (key === undefined) {
    throw missingAuthentication(
      request.routeOptions.config.shlinkKeyInQuery === true ? 'param' : 'header',
    );
  }
  try {
    return await authenticateKey(deps.keyService, key);
  } catch (error) {
    if (isHopError(error) && error.kind === 'unauthorized') throw invalidApiKey();
    throw error;
  }
}

/** Shlink's one 403 is about tags; elsewhere a key's missing scope keeps hop's words. */
function forTagsRoute(problem: ShlinkProblem, request: FastifyRequest): ShlinkProblem {
  if (problem.code !== 'forbidden-operation' || !/\/tags(\/|\?|$)/.test(request.url))
    return problem;
  return new ShlinkProblem(
    'forbidden-tag-operation',
    403,
    'Forbidden tag operation',
    problem.detail,
    problem.extra,
  );
}

/** Fastify's own refusals (a body too large, one that could not be read) as Shlink words them. */
function fastifyProblemOf(error: unknown): ShlinkProblem | null {
  if (!(error instanceof Error)) return null;
  const status = (error as { statusCode?: unknown }).statusCode;
  if (status === 413) return malformedBody('The request body is too large.');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return invalidData([], error.message);
  }
  return null;
}

export type { Scope };
