import { NO_CLICKS } from '../../domain/click-fold.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HopError } from '../../domain/errors.js';
import { assertScope } from '../../domain/principal.js';
import { linkClickTotals } from '../../services/analytics/link-click-totals.js';
import { readDashboard } from '../../services/console/dashboard.js';
import { toLinkCountsJson } from '../link-counts-json.js';
import { signIn, signOut, type ConsoleSession } from '../../services/console/console-sessions.js';
import type { AppDeps } from '../app-deps.js';
import { toLinkJson } from '../link-json.js';
import { problemResponse } from '../schemas.js';
import { sendProblem } from '../send-problem.js';
import { withConsoleHeaders } from './console-headers.js';
import { carriesCsrfHeader, principalOfRequest, sessionOfRequest } from './principal-of-request.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';

const sessionJson = {
  type: 'object',
  required: ['owner', 'admin', 'scopes', 'key_id', 'expires_at', 'csrf_token'],
  properties: {
    owner: { type: 'string' },
    admin: {
      type: 'boolean',
      description: "False for an owner's key: the console shows that owner's links only.",
    },
    scopes: {
      type: 'array',
      items: { type: 'string' },
      description: "The key's scopes (issue 22): the console offers only what they allow.",
    },
    key_id: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time' },
    csrf_token: {
      type: 'string',
      description: 'Send it as X-CSRF-Token with every request that changes something.',
    },
  },
} as const;

const ASSET = /^[a-z0-9-]+\.(?:js|css|svg)$/;

/**
 * The admin console (SPEC §8): its page and assets, sign-in and sign-out, and the
 * dashboard's one read. Everything else the console does goes through the v1 API with the
 * session cookie (src/http/console/principal-of-request.ts).
 */
export function registerConsoleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { sessions, assets, secureCookie } = deps.console;
  const sessionReply = (reply: FastifyReply, session: ConsoleSession) =>
    reply.header('cache-control', 'no-store').send({
      owner: session.principal.owner,
      admin: session.principal.admin,
      scopes: [...session.principal.scopes],
      key_id: session.principal.keyId,
      expires_at: new Date(session.expiresAt).toISOString(),
      csrf_token: session.csrfToken,
    });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = assets?.get('index.html');
    if (index === undefined) {
      return sendProblem(
        request,
        reply,
        'not-found',
        'The console is not built: run "npm run build:console" (npm start does it).',
      );
    }
    return withConsoleHeaders(reply)
      .header('content-type', index.contentType)
      .header('cache-control', 'no-cache')
      .send(index.body);
  };
  app.get('/admin', { schema: { hide: true } }, page);
  app.get('/admin/', { schema: { hide: true } }, page);

  app.get<{ Params: { file: string } }>(
    '/admin/assets/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const file = request.params.file;
      const asset = ASSET.test(file) ? assets?.get(file) : undefined;
      if (asset === undefined) {
        return sendProblem(request, reply, 'not-found', 'There is no such console asset.');
      }
      if (request.headers['if-none-match'] === asset.etag) {
        return reply.code(304).header('etag', asset.etag).send();
      }
      return withConsoleHeaders(reply)
        .header('content-type', asset.contentType)
        .header('etag', asset.etag)
        .header('cache-control', 'no-cache')
        .send(asset.body);
    },
  );

  app.post<{ Body: { key: string } }>(
    '/admin/session',
    {
      schema: {
        summary:
          "Sign in to the console with an API key (sets an HttpOnly session cookie); an owner's key sees that owner's links only",
        tags: ['console'],
        body: {
          type: 'object',
          required: ['key'],
          additionalProperties: false,
          properties: { key: { type: 'string', maxLength: 512 } },
        },
        response: {
          200: sessionJson,
          401: problemResponse,
          403: problemResponse,
          429: problemResponse,
        },
      },
    },
    async (request, reply) => {
      const client = deps.protection.clientOf(request.raw);
      const { token, session } = await signIn(sessions, request.body.key, client).catch(
        (error: unknown) => {
          // Who tried, never what: the key is not logged.
          request.log.warn({ client }, 'console sign-in refused');
          throw error;
        },
      );
      reply.header(
        'set-cookie',
        sessionCookie(token, Math.floor(sessions.ttlMs / 1000), secureCookie),
      );
      return sessionReply(reply, session);
    },
  );

  app.get(
    '/admin/session',
    {
      schema: {
        summary: 'The console session of this cookie, with its CSRF token',
        tags: ['console'],
        response: { 200: sessionJson, 401: problemResponse },
      },
    },
    async (request, reply) => {
      const session = await sessionOfRequest(sessions, request);
      if (session === null) throw new HopError('unauthorized', 'Not signed in to the console.');
      return sessionReply(reply, session);
    },
  );

  app.delete(
    '/admin/session',
    {
      schema: {
        summary: 'Sign out of the console (needs X-CSRF-Token)',
        tags: ['console'],
        response: { 204: { type: 'null' }, 403: problemResponse },
      },
    },
    async (request, reply) => {
      const session = await sessionOfRequest(sessions, request);
      // An ended session has nothing left to protect: its cookie is simply cleared.
      if (session !== null && !carriesCsrfHeader(session, request)) {
        throw new HopError('forbidden', "Signing out needs the session's X-CSRF-Token header.");
      }
      if (session !== null) await signOut(sessions, session);
      return reply
        .header('set-cookie', clearedSessionCookie(secureCookie))
        .header('cache-control', 'no-store')
        .code(204)
        .send();
    },
  );

  app.get(
    '/admin/api/dashboard',
    {
      schema: {
        summary:
          "The console dashboard: links, clicks, busiest links, live redirects (admin only: its figures are the whole service's, so an owner's session is refused)",
        tags: ['console'],
        response: { 401: problemResponse, 403: problemResponse },
      },
    },
    async (request, reply) => {
      const principal = await principalOfRequest(deps.keyService, sessions, request);
      assertScope(principal, 'analytics:read');
      // Every figure here is the whole service's (ADR 0096): an owner's console has no
      // dashboard and opens on its links instead; nor has an admin key limited to domains,
      // whose busiest links would show other domains' (ADR 0118).
      if (!principal.admin || principal.domains !== null) {
        throw new HopError(
          'forbidden',
          "The dashboard shows the whole service's figures: only the session of an admin key for every domain reads it.",
        );
      }
      const dashboard = await readDashboard(deps.console.dashboard);
      const now = deps.linkService.clock.now();
      const totals = await linkClickTotals(
        deps.analytics,
        dashboard.busiest.map(({ link }) => link.id),
      );
      return reply.header('cache-control', 'no-store').send({
        links: { all: dashboard.links.total, ...toLinkCountsJson(dashboard.links) },
        clicks: {
          today: dashboard.clicksToday,
          week: dashboard.clicksWeek,
          freshness:
            dashboard.freshness === null ? null : new Date(dashboard.freshness).toISOString(),
        },
        busiest_ranked_at:
          dashboard.rankedAt === null ? null : new Date(dashboard.rankedAt).toISOString(),
        busiest: dashboard.busiest.map(({ link, clicks }) => ({
          clicks,
          link: toLinkJson(link, deps.domainRoutes, now, totals.get(link.id) ?? NO_CLICKS),
        })),
        redirects: {
          per_second: dashboard.redirects.perSecond,
          p99_ms: dashboard.redirects.p99Ms,
          window_seconds: dashboard.redirects.windowSeconds,
        },
      });
    },
  );
}
