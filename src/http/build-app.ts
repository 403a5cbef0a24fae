import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { registerConsoleRoutes } from './console/console-routes.js';
import { principalOfRequest } from './console/principal-of-request.js';
import { installErrorHandling } from './error-handling.js';
import { installJsonBodyParsing } from './json-body.js';
import { sendProblem } from './send-problem.js';
import { writeRawProblem } from './write-raw-problem.js';
import { makeRedirectFront, OVERLOADED_BODY, OVERLOADED_HEADERS } from './redirect-front.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerRedirectRoute } from './routes/redirect-route.js';
import { registerVisitorRoutes } from './routes/visitor-routes.js';
import { registerDomainRoutes } from './routes/v1/domains-routes.js';
import { registerKeyRoutes } from './routes/v1/keys-routes.js';
import { registerLinkRoutes } from './routes/v1/links-routes.js';
import { registerBulkLinkRoutes } from './routes/v1/bulk-links-routes.js';
import { registerAllLinksAnalyticsRoute } from './routes/v1/all-links-analytics-route.js';
import { registerAnalyticsRoutes } from './routes/v1/analytics-routes.js';
import { registerVisitRoutes } from './routes/v1/visit-routes.js';
import { registerStatsRoutes } from './routes/v1/stats-routes.js';
import { assertRouteScope, requireRouteScopes } from './route-scope.js';
import { registerTagRoutes } from './routes/v1/tags-routes.js';
import { registerWebhookRoutes } from './routes/v1/webhooks-routes.js';
import { registerEventRoutes } from './routes/v1/events-routes.js';
import { makeValidatorCompiler } from './validator-compiler.js';
import { registerShlinkApi } from './peers/shlink/register-shlink-api.js';
import { registerKuttApi } from './peers/kutt/register-kutt-api.js';
import { registerYourlsApi } from './peers/yourls/register-yourls-api.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Operations must see an overloaded instance: health and metrics are never shed. */
const NEVER_SHED = /^\/(healthz|readyz|metrics)(\?|$)/;

/** Every answer Fastify gives (API, docs, console) is never sniffed, framed or referred. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** The HTTP application, without listening: `hop serve` listens, tests may too. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const metrics = deps.metrics;
  const { shedder } = deps.protection;
  const redirectFront = makeRedirectFront({
    resolver: deps.redirect,
    observe: (outcome, startedAt) => {
      metrics.observeRedirect(outcome, startedAt);
    },
    clicks: deps.clicks,
    countryHeader: deps.countryHeader,
    clickAddressOf: deps.clickAddressOf,
    scanners: deps.protection.scanners,
    clientOf: deps.protection.clientOf,
    shedder,
    smart: deps.smartLinks,
    linkPages: {
      links: deps.qrCodes.links,
      qr: deps.qrCodes.qr,
      shortUrlOf: (link) => deps.domainRoutes.shortUrlOf(link.domain, link.code),
      now: () => deps.linkService.clock.now(),
    },
    domains: deps.domainRoutes,
  });
  const securityHeaders = deps.publicUrl.startsWith('https:')
    ? { ...SECURITY_HEADERS, 'strict-transport-security': 'max-age=31536000' }
    : SECURITY_HEADERS;
  const { headersTimeoutMs, requestTimeoutMs } = deps.timeouts;
  const app = Fastify({
    // The redirect is answered by plain node:http before Fastify sees the request.
    serverFactory: (fastifyHandler) =>
      createServer(
        {
          // Slow clients (SPEC §7): headers and whole requests have deadlines, checked
          // often enough that a short one is kept.
          headersTimeout: headersTimeoutMs,
          requestTimeout: requestTimeoutMs,
          connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
        },
        (request, response) => {
          if (redirectFront.handle(request, response)) return;
          // Everything else waits behind redirects when the instance is overloaded.
          if (shedder.level() > 0 && !NEVER_SHED.test(request.url ?? '')) {
            shedder.shedRequests++;
            response.writeHead(503, OVERLOADED_HEADERS);
            response.end(OVERLOADED_BODY);
            return;
          }
          shedder.enter();
          response.once('close', shedder.leave);
          fastifyHandler(request, response);
        },
      ),
    loggerInstance: deps.logger,
    // SPEC §8: no per-request log lines; metrics by outcome instead.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'request_id',
    }),
    bodyLimit: deps.bodyLimitBytes,
    // A caller's request id is kept if it is sane, so logs can be followed across services.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests the router cannot even decode (bad percent-encoding) get a problem too.
    frameworkErrors: (_error, request, reply) => {
      void sendProblem(
        request,
        reply,
        'malformed-request',
        'The request URL could not be decoded.',
      );
    },
    // Requests Node's parser refuses (bad header bytes, oversized headers) get a problem
    // written straight to the socket: there is no request object to reply through.
    clientErrorHandler: (error, socket) => {
      writeRawProblem(socket, error);
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Long enough for any path segment Node accepts: an over-long code is a plain 404.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 16_384 },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  app.addHook('onListen', (done) => {
    deps.protection.startLoadSampling();
    done();
  });
  // Open event streams end first, so that closing never waits on one (ADR 0129).
  app.addHook('preClose', async () => {
    await deps.events.streams.close();
  });
  app.setValidatorCompiler(makeValidatorCompiler());
  installJsonBodyParsing(app);
  installErrorHandling(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'hop',
        version: '1',
        description: 'Short links that redirect fast. Errors are RFC 9457 problem details.',
      },
      servers: [{ url: deps.publicUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'hop_… key' } },
      },
    },
  });
  // staticCSP: the docs page gets a Content-Security-Policy with hashes of its own scripts.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerHealthRoutes(app, deps);
  registerRedirectRoute(app, redirectFront);
  registerVisitorRoutes(app, deps.rootRedirect, deps.domainRoutes, (request) =>
    deps.robots.robotsTxt(deps.domainRoutes.routeOf(request.raw.rawHeaders).domain),
  );
  registerConsoleRoutes(app, deps);

  // The authenticated API lives in its own scope: its hooks never run on the redirect.
  await app.register(async (v1) => {
    v1.decorateRequest('principal', null);
    v1.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      request.principal = await principalOfRequest(deps.keyService, deps.console.sessions, request);
      // A browser's answers stay out of every cache (routes may say otherwise, e.g. QR).
      if (request.headers.authorization === undefined) reply.header('cache-control', 'no-store');
      assertRouteScope(request);
    });
    requireRouteScopes(v1);
    registerLinkRoutes(v1, deps);
    registerBulkLinkRoutes(v1, deps);
    registerAnalyticsRoutes(v1, deps);
    registerAllLinksAnalyticsRoute(v1, deps);
    registerVisitRoutes(v1, deps);
    registerKeyRoutes(v1, deps);
    registerDomainRoutes(v1, deps);
    registerStatsRoutes(v1, deps);
    registerTagRoutes(v1, deps);
    registerWebhookRoutes(v1, deps);
    registerEventRoutes(v1, deps);
  });

  // The peers' APIs (issue 24), each in a scope of its own: its own authentication, body
  // parsing and error shape, over the same services as /v1.
  await app.register(async (shlink) => registerShlinkApi(shlink, deps));
  await app.register(async (kutt) => registerKuttApi(kutt, deps));
  await app.register(async (yourls) => registerYourlsApi(yourls, deps));

  return app;
}
