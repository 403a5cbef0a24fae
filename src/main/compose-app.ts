import type { DomainRoutes } from '../services/redirect/domain-routes.js';
import { QrcodeRenderer } from '../adapters/qr/qrcode-renderer.js';
import type { Config } from '../config/config.js';
import type { AppDeps, ConsoleDeps, ProtectionDeps, SmartLinkDeps } from '../http/app-deps.js';
import { makeLinkPassCookies, type LinkPassCookies } from '../http/link-pass-cookie.js';
import { makePasswordGate } from '../http/password-gate.js';
import type { PasswordTries } from '../services/protection/password-tries.js';
import { makeClientAddressOf } from '../http/client-address.js';
import type { Logger } from '../observability/logger.js';
import type { GeoLookup } from '../ports/geo-lookup.js';
import type { Metrics } from '../observability/metrics.js';
import type { Clock } from '../ports/clock.js';
import { wallTimeAt } from './wall-time-at.js';
import type { Store } from '../ports/store.js';
import type { RedirectResolver } from '../services/redirect/redirect-resolver.js';
import type { ClickPipeline } from './click-pipeline.js';
import type { ServiceParts } from './compose-services.js';
import { RobotsRules } from '../services/links/robots-rules.js';
import type { WebhookServiceDeps } from '../services/webhooks/webhook-service-deps.js';
import type { EventStreams } from '../services/events/event-streams.js';

/** Links are small; anything bigger than this is not a link. */
const BODY_LIMIT_BYTES = 64 * 1024;
/** A bulk call's 1,000 creates: 4 KiB each on average, beyond most links (ADR 0120). */
const BULK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** What buildApp is given, and the renderer it leaves open. */
export function composeAppDeps(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  parts: {
    readonly services: ServiceParts;
    readonly resolver: RedirectResolver;
    readonly clicks: ClickPipeline | null;
    readonly metrics: Metrics;
    readonly console: ConsoleDeps;
    readonly protection: ProtectionDeps;
    readonly passwordTries: PasswordTries;
    /** The IP database (ADR 0109); null when an edge's header gives countries. */
    readonly geo: GeoLookup | null;
    readonly domainRoutes: DomainRoutes;
    readonly webhookService: WebhookServiceDeps;
    /** `GET /v1/events`: in-process, or `hop serve`'s integrations thread (ADR 0132). */
    readonly streams: EventStreams;
  },
): { appDeps: AppDeps; close: () => Promise<void> } {
  const { services, resolver, clicks, metrics, console, protection } = parts;
  const now = () => clock.now();
  const geo = parts.geo;
  const secureCookies = config.publicUrl.startsWith('https:');
  // Pass cookies are keyed by the console's secret, resolved on the first password given
  // (a CLI command never resolves it, so it never writes the secret's file).
  let passCookies: LinkPassCookies | undefined;
  const cookies = (): LinkPassCookies =>
    (passCookies ??= makeLinkPassCookies(console.sessions.secret()));
  const smartLinks: SmartLinkDeps = {
    timeAt: wallTimeAt(clock),
    gate: makePasswordGate({
      cookies: {
        passCookieFor: (link, nowMs, secure) => cookies().passCookieFor(link, nowMs, secure),
        hasValidPass: (rawHeaders, link, nowMs) => cookies().hasValidPass(rawHeaders, link, nowMs),
      },
      tries: parts.passwordTries,
      clientOf: protection.clientOf,
      secureCookies,
      now,
    }),
    allowance: store.redirectAllowance,
    blocks: (url) => resolver.blocks(url),
    random: Math.random,
    countryHeader: config.countryHeader,
    countryOfAddress: geo === null ? null : (address) => geo.lookup(address)?.country,
    clientAddressOf: makeClientAddressOf(config.trustProxy),
  };
  const qrRenderer = new QrcodeRenderer();
  const appDeps: AppDeps = {
    linkService: services.linkService,
    keyService: services.keyService,
    domainService: services.domainService,
    webhookService: parts.webhookService,
    tagService: { links: services.linkService, tags: store.tags },
    redirect: resolver,
    domainRoutes: parts.domainRoutes,
    analytics: {
      links: store.links,
      clicks: store.clicks,
      acrossLinks: store.clickAnalytics,
      domains: store.domains,
      visits: store.visits,
      clock,
      defaultHost: services.linkService.defaultHost,
    },
    clicks: clicks?.record ?? null,
    countryHeader: config.countryHeader,
    clickAddressOf: makeClientAddressOf(config.trustProxy, { keepMapped: true }),
    pingStore: () => store.ping(),
    publicUrl: config.publicUrl,
    rootRedirect: config.rootRedirect,
    qrCodes: { links: store.links, qr: qrRenderer, shortUrls: parts.domainRoutes },
    robots: new RobotsRules({ crawlable: store.crawlableLinks, clock }),
    logger,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    bulkBodyLimitBytes: BULK_BODY_LIMIT_BYTES,
    bulkCalls: { answers: store.bulkAnswers, clock },
    metrics,
    metricsToken: config.metricsToken,
    console,
    stats: services.stats,
    linkCounts: console.dashboard.linkCounts,
    protection,
    smartLinks,
    timeouts: {
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
    },
    events: { streams: parts.streams, heartbeatMs: config.eventHeartbeatMs },
  };
  return {
    appDeps,
    close: async () => {
      await qrRenderer.close();
    },
  };
}
