import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { expandShortUrl } from './expand-action.js';
import { shortenUrl } from './shorturl-action.js';
import { sendYourlsResult, type YourlsOutput } from './send-yourls-result.js';
import { dbStats, linkStats } from './stats-actions.js';
import { urlStats } from './url-stats-action.js';
import { version } from './version-action.js';
import { authenticateYourlsCall } from './yourls-auth.js';
import { installYourlsBodyParsing } from './yourls-body-parsing.js';
import type { YourlsCall } from './yourls-call.js';
import { INTERNAL_ERROR_MESSAGE, yourlsErrorResult } from './yourls-error-result.js';
import { readYourlsParams, type YourlsParams } from './yourls-params.js';
import { plainError, type YourlsResult } from './yourls-result.js';

/** YOURLS's standard actions (`yourls-api.php`'s `$api_actions`). */
const ACTIONS: ReadonlyMap<string, (call: YourlsCall) => Promise<YourlsResult>> = new Map([
  ['shorturl', shortenUrl],
  ['stats', linkStats],
  ['db-stats', dbStats],
  ['url-stats', urlStats],
  ['expand', expandShortUrl],
  ['version', version],
]);

const UNKNOWN_ACTION = 'Unknown or missing "action" parameter';

/**
 * Requests whose handler has started. An error thrown before that came from reading the
 * request (a multipart body cut short or without its boundary: busboy's errors carry no
 * status), so it is the caller's 400, never a 500.
 */
const answering = new WeakSet<FastifyRequest>();

/**
 * YOURLS at `/yourls-api.php` (issue 24, ADR 0135): GET or form POST, the key as
 * `signature`, answers in YOURLS's shapes and formats. A thin translation over the
 * services /v1 uses, in its own Fastify scope: its own bodies and its own error shape.
 */
export async function registerYourlsApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await installYourlsBodyParsing(app);
  app.setErrorHandler((error, request, reply) => {
    const result =
      yourlsErrorResult(error) ?? (answering.has(request) ? undefined : unreadableRequest(error));
    if (result === undefined) request.log.error({ err: error }, 'unhandled error');
    const params = readYourlsParams(request.query, request.body);
    return sendYourlsResult(
      reply,
      outputOf(params),
      result ?? plainError(500, INTERNAL_ERROR_MESSAGE),
    );
  });
  app.route({
    method: ['GET', 'POST'],
    url: '/yourls-api.php',
    schema: { hide: true },
    handler: (request, reply) => {
      answering.add(request);
      return answer(deps, request, reply);
    },
  });
  // PHP runs the script for any method; YOURLS then finds no action it knows in the query.
  app.route({
    method: ['PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/yourls-api.php',
    schema: { hide: true },
    handler: (request, reply) => {
      answering.add(request);
      const params = readYourlsParams(request.query, undefined);
      return sendYourlsResult(reply, outputOf(params), plainError(400, UNKNOWN_ACTION));
    },
  });
}

/** A request that could not be read, in YOURLS's plain error shape. */
function unreadableRequest(error: unknown): YourlsResult {
  const message = error instanceof Error ? error.message : 'malformed';
  return plainError(400, `The request could not be read: ${message}`);
}

/** Authentication first, as YOURLS does (`yourls_maybe_require_auth`), then the action. */
async function answer(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const params = readYourlsParams(request.query, request.body);
  const auth = await authenticateYourlsCall(deps.keyService, params);
  if (!auth.ok) {
    // auth.php echoes `callback` (never `jsonp`) in every refusal, '' when none was sent.
    const output = { format: params.get('format'), callback: params.get('callback') ?? '' };
    return sendYourlsResult(reply, output, auth.refusal);
  }
  const action = ACTIONS.get(params.get('action') ?? '');
  if (action === undefined) {
    return sendYourlsResult(reply, outputOf(params), plainError(400, UNKNOWN_ACTION));
  }
  const routes = deps.domainRoutes;
  const call: YourlsCall = {
    deps,
    principal: auth.principal,
    params,
    host: routes.hostOf(routes.routeOf(request.raw.rawHeaders).domain),
    client: deps.protection.clientOf(request.raw),
  };
  return sendYourlsResult(reply, outputOf(params), await action(call));
}

function outputOf(params: YourlsParams): YourlsOutput {
  return { format: params.get('format'), callback: params.get('callback') ?? params.get('jsonp') };
}
