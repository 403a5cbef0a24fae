import { DomainRoutes } from '../services/redirect/domain-routes.js';
import type { Config } from '../config/config.js';
import type { AppDeps } from '../http/app-deps.js';
import { JobScheduler } from '../jobs/job-scheduler.js';
import type { Logger } from '../observability/logger.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { DomainServiceDeps } from '../services/domains/domain-service-deps.js';
import type { KeyServiceDeps } from '../services/keys/key-service-deps.js';
import type { SweepDeps } from '../services/lifecycle/sweeper.js';
import type { LinkServiceDeps } from '../services/links/link-service-deps.js';
import type { KnownCodes } from '../services/redirect/known-codes.js';
import type { SweepTotals } from '../services/stats/service-stats.js';
import type { RedisSharedLinkCache } from '../adapters/redis/redis-shared-link-cache.js';
import { openBlocklistFile } from './blocklist-file.js';
import { composeClickPipeline, type ClickPipeline } from './click-pipeline.js';
import { composeAppDeps } from './compose-app.js';
import { composeCaches } from './compose-caches.js';
import { composeCodes, type CodeParts } from './compose-codes.js';
import { composeConsole } from './compose-console.js';
import { composeMetrics } from './compose-metrics.js';
import { openGeoDatabase, openGeoDatabaseWhenUsed } from './geo-database.js';
import { composePasswordTries } from './compose-password-tries.js';
import { composeProtection } from './compose-protection.js';
import { composeCreateLimiter } from './compose-rate-limits.js';
import { composeServices } from './compose-services.js';
import { composeIntegrations, type Integrations } from './compose-integrations.js';
import { composeWebhookService } from './compose-webhooks.js';
import { openStore } from './open-store.js';

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly linkService: LinkServiceDeps;
  readonly keyService: KeyServiceDeps;
  /** Short domains (issue 22): the API's and `hop domains`. */
  readonly domainService: DomainServiceDeps;
  readonly appDeps: AppDeps;
  /** L2, when Redis is configured. */
  readonly shared: RedisSharedLinkCache | null;
  /** Every code the store holds; `hop serve` loads it and keeps it current. */
  readonly knownCodes: KnownCodes;
  /** The short domains (issue 22): routing by Host, short URLs; `hop serve` rereads them. */
  readonly domainRoutes: DomainRoutes;
  /** Null when HOP_ANALYTICS=off. `hop serve` starts it; a closing runtime flushes it. */
  readonly clicks: ClickPipeline | null;
  /** The code strategy, its guess bound and where reclaimed codes go. */
  readonly codes: CodeParts;
  /** What a sweep needs (SPEC §7): `hop serve`'s job and `hop sweep` run it alike. */
  readonly sweepDeps: SweepDeps;
  /** The sweeper's totals, kept by whoever runs it (`hop serve`, `hop sweep`). */
  readonly sweeps: SweepTotals;
  /**
   * The background jobs: the blocklist reload from the start, `hop serve`'s own once it
   * listens (src/main/start-serving-jobs.ts). Closing the runtime stops them first.
   */
  readonly jobs: JobScheduler;
  /**
   * Webhook deliveries and event streams (issue 23): `hop serve` starts their jobs; serving,
   * they run in a thread of their own (ADR 0132).
   */
  readonly integrations: Integrations;
  close(): Promise<void>;
}

export interface ComposeOptions {
  readonly clock?: Clock;
  /**
   * For `hop serve`: background work a long-running server wants (WAL checkpoints in a
   * worker thread). CLI commands and tests leave it off.
   */
  readonly serving?: boolean;
}

/**
 * The composition root: the only place that picks adapters from config. Every service and
 * the HTTP app receive what they need from here, built once; each concern is composed in
 * its own compose-* file, in this order.
 */
export async function composeRuntime(
  config: Config,
  logger: Logger,
  options: ComposeOptions = {},
): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const serving = options.serving === true;
  // 1. The store, and the code strategy (a strategy that cannot start closes the store).
  const opened = await openStore(config, logger, serving);
  const store: Store = opened.store;
  let codes: CodeParts;
  try {
    codes = composeCodes(config, store, clock);
  } catch (error) {
    void store.close();
    throw error;
  }
  // Without an edge's country header, visitors are placed by their address in a database
  // read into memory (issue 21, ADR 0109): clicks at each flush, rules when they ask.
  const geo =
    config.countryHeader !== undefined
      ? null
      : serving
        ? openGeoDatabase(config.geoipDatabase)
        : openGeoDatabaseWhenUsed(config.geoipDatabase);
  // 2. Clicks (SPEC §6): a buffer, a sink, and where they are folded.
  const clicks = config.analytics
    ? await composeClickPipeline(
        config,
        {
          clicks: store.clicks,
          embeddedQueue: opened.kind === 'sqlite' ? opened.store.clickQueue : null,
        },
        clock,
        logger,
        serving,
        geo,
      )
    : null;
  // 3. Background jobs, the blocklist's reload first.
  const jobs = new JobScheduler(logger);
  const blocklistFile = openBlocklistFile(config.blocklistFile, logger);
  if (blocklistFile.reload !== null) jobs.start(blocklistFile.reload);
  // 4. The redirect path's caches (SPEC §5), then create limits and the use cases.
  const caches = await composeCaches(config, store, clock, logger, blocklistFile.blocklist);
  const createLimiter = await composeCreateLimiter(
    config,
    caches.redisTarget,
    clock,
    logger,
    serving,
  );
  // The short domains (issue 22): read once here, then kept current by `hop serve`.
  const domainRoutes = new DomainRoutes(store.domains, config.publicUrl);
  await domainRoutes.reload();
  const services = composeServices(config, store, clock, {
    codes,
    cacheEvents: caches.resolver,
    blocklist: blocklistFile.blocklist,
    createLimiter: createLimiter?.limiter ?? null,
    onKeyUseError: (error) => {
      logger.warn({ err: error }, "could not record an API key's last use");
    },
    domainRoutes,
    // A change made through this process routes at once (ADR 0117); one made elsewhere
    // within the reload job's period. A failed reload leaves that job to catch up.
    domainEvents: {
      domainsChanged: () =>
        domainRoutes.reload().catch((error: unknown) => {
          logger.warn({ err: error }, 'domains could not be reloaded after a change');
        }),
    },
  });
  // 5. What the HTTP app adds: the console, abuse resistance (SPEC §7), metrics (SPEC §8).
  const consoleDeps = composeConsole(config, store, clock, logger, {
    serving,
    codes,
    recentRedirects: () => metrics.recentRedirects(),
    keyUses: services.keyService.uses,
  });
  const protection = composeProtection(config, clock);
  // Wrong link passwords (issue 21): shared through Redis by servers; a CLI never asks.
  const passwordTries = await composePasswordTries({
    config,
    redisTarget: serving ? caches.redisTarget : null,
    clock,
    logger,
    serving,
  });
  const metrics = composeMetrics({
    caches,
    clicks,
    codes,
    services,
    protection: protection.counters,
  });
  const clicksWanted = () => {
    clicks?.clickEvents?.touch();
  };
  const integrations = composeIntegrations(config, store, clock, logger, {
    serving,
    domainRoutes,
    clicksWanted,
    spoolWrites: () => clicks?.spoolWrites() ?? null,
  });
  const app = composeAppDeps(config, store, clock, logger, {
    webhookService: composeWebhookService(config, store, clock, clicksWanted),
    streams: integrations.streams,
    services,
    resolver: caches.resolver,
    clicks,
    metrics,
    console: consoleDeps,
    protection: protection.deps,
    passwordTries: passwordTries.tries,
    geo,
    domainRoutes,
  });
  return {
    config,
    store,
    linkService: services.linkService,
    keyService: services.keyService,
    domainService: services.domainService,
    appDeps: app.appDeps,
    shared: caches.shared,
    knownCodes: caches.knownCodes,
    domainRoutes,
    clicks,
    codes,
    sweepDeps: services.sweepDeps,
    sweeps: services.sweeps,
    jobs,
    integrations,
    close: async () => {
      await jobs.stop();
      // Streams end; attempts in flight end (each within HOP_WEBHOOK_TIMEOUT) and are recorded.
      await integrations.stop();
      metrics.stop();
      protection.stop();
      // Buffered clicks go to the sink before the store they may be queued in closes.
      await clicks?.stop();
      await codes.close();
      await caches.regional?.close();
      createLimiter?.client?.disconnect();
      passwordTries.client?.disconnect();
      await app.close();
      // Keys' last uses still being written land before their store closes.
      await services.keyService.uses.settled();
      await store.close();
    },
  };
}
