import { randomFillSync, randomInt } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import { LruNearLinkCache } from '../adapters/memory-cache/lru-near-link-cache.js';
import { RedisSharedLinkCache } from '../adapters/redis/redis-shared-link-cache.js';
import {
  connectRedis,
  reconnectBackoff,
  type RedisTarget,
} from '../adapters/redis/redis-connection.js';
import { RedisRateLimiter } from '../adapters/redis/redis-rate-limiter.js';
import { QrcodeRenderer } from '../adapters/qr/qrcode-renderer.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Cluster, Redis } from 'ioredis';
import { ALPHABETS } from '../codes/alphabets.js';
import { RandomCodeGenerator } from '../codes/random-code-generator.js';
import { ScalableBloomFilter } from '../codes/scalable-bloom-filter.js';
import type { Config } from '../config/config.js';
import { normaliseHostname } from '../domain/destination-policy.js';
import type { AppDeps } from '../http/app-deps.js';
import { openBlocklistFile } from './blocklist-file.js';
import { composeProtection } from './compose-protection.js';
import { loadConsoleAssets } from './console-assets.js';
import { resolveConsoleSecret } from './console-secret.js';
import type { Logger } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { KeyServiceDeps } from '../services/keys/key-service-deps.js';
import type { LinkServiceDeps } from '../services/links/link-service-deps.js';
import { KnownCodes } from '../services/redirect/known-codes.js';
import { RedirectResolver } from '../services/redirect/redirect-resolver.js';
import { ScannerThrottle } from '../services/protection/scanner-throttle.js';
import { composeClickPipeline, type ClickPipeline } from './click-pipeline.js';
import { openStore } from './open-store.js';
import { composeCodes, type CodeParts } from './compose-codes.js';
import { CreateCounters } from '../services/links/create-counters.js';
import { readServiceStats, type SweepTotals } from '../services/stats/service-stats.js';
import type { SweepDeps } from '../services/lifecycle/sweeper.js';
import type { LinkEvents } from '../ports/link-events.js';

/** Generated codes tried before a create gives up (SPEC §2: bounded retry, then 503). */
const MAX_CODE_ATTEMPTS = 8;
/** Links are small; anything bigger than this is not a link. */
const BODY_LIMIT_BYTES = 64 * 1024;
/** 32 base62 characters ≈ 190 bits: an API key nobody guesses. */
const API_KEY_RANDOM_LENGTH = 32;
/** SPEC §5: positive TTLs vary by ±10% so entries filled together expire apart. */
const L1_TTL_JITTER = 0.1;
/**
 * The known-codes filter: 1M codes in its first layer (1.4 MB); each further layer holds
 * four times more. 0.5% false positives a layer (0.501% measured on one full layer); the
 * whole filter's rate is at most the sum over its layers (three at ten million codes).
 */
const KNOWN_CODES_INITIAL_CAPACITY = 1 << 20;
const KNOWN_CODES_FALSE_POSITIVE_RATE = 0.005;
/** Codes per read while loading: a few milliseconds of the event loop each. */
const KNOWN_CODES_BATCH = 10_000;
/** Breaker states in the order the metric reports them. */
const BREAKER_STATES = ['closed', 'half-open', 'open'];

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly linkService: LinkServiceDeps;
  readonly keyService: KeyServiceDeps;
  readonly appDeps: AppDeps;
  /** L2, when Redis is configured. */
  readonly shared: RedisSharedLinkCache | null;
  /** Every code the store holds; `hop serve` loads it and keeps it current. */
  readonly knownCodes: KnownCodes;
  /** Null when HOP_ANALYTICS=off. `hop serve` starts it; a closing runtime flushes it. */
  readonly clicks: ClickPipeline | null;
  /** The code strategy, its guess bound and where reclaimed codes go. */
  readonly codes: CodeParts;
  /** What a sweep needs (SPEC §7): `hop serve`'s timer and `hop sweep` run it alike. */
  readonly sweepDeps: SweepDeps;
  /** The sweeper's totals, kept by whoever runs it (`hop serve`, `hop sweep`). */
  readonly sweeps: SweepTotals;
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
 * the HTTP app receive what they need from here, built once.
 */
export async function composeRuntime(
  config: Config,
  logger: Logger,
  options: ComposeOptions = {},
): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const opened = await openStore(config, logger, options.serving === true);
  const store: Store = opened.store;
  let codes: CodeParts;
  try {
    codes = composeCodes(config, store, clock);
  } catch (error) {
    void store.close();
    throw error;
  }
  const clicks = config.analytics
    ? composeClickPipeline(
        config,
        {
          clicks: store.clicks,
          embeddedQueue: opened.kind === 'sqlite' ? opened.store.clickQueue : null,
        },
        clock,
        logger,
        options.serving === true,
      )
    : null;
  const newId = monotonicFactory(bufferedRandomFraction());
  const randomBytes = (buffer: Uint8Array) => {
    randomFillSync(buffer);
  };
  const secrets = new RandomCodeGenerator({
    alphabet: ALPHABETS.base62,
    length: API_KEY_RANDOM_LENGTH,
    randomBytes,
  });

  const redisTarget: RedisTarget | null =
    config.redisClusterNodes !== undefined
      ? { clusterNodes: config.redisClusterNodes }
      : config.redisUrl !== undefined
        ? { url: config.redisUrl }
        : null;
  const shared =
    redisTarget === null
      ? null
      : new RedisSharedLinkCache({
          target: redisTarget,
          prefix: config.redisPrefix,
          positiveTtlMs: config.l2TtlMs,
          negativeTtlMs: config.l2NegativeTtlMs,
          floorTtlMs: config.l1TtlMs * 2,
          jitter: L1_TTL_JITTER,
          timeoutMs: config.cacheTimeoutMs,
          logger,
        });
  const createLimiter = composeCreateLimiter(config, redisTarget, clock, logger);
  const knownCodes = new KnownCodes({
    codeScan: store.codeScan,
    batchSize: KNOWN_CODES_BATCH,
    filter: new ScalableBloomFilter({
      initialCapacity: KNOWN_CODES_INITIAL_CAPACITY,
      falsePositiveRate: KNOWN_CODES_FALSE_POSITIVE_RATE,
      // Unknown from outside, so nobody can craft codes that all pass the filter.
      seed: randomInt(2 ** 31),
    }),
  });
  const blocklistFile = openBlocklistFile(config.blocklistFile, logger);
  const resolver = new RedirectResolver({
    blocklist: blocklistFile.blocklist,
    redirects: store.redirects,
    clock,
    shared,
    knownCodes,
    cache: new LruNearLinkCache({
      maxEntries: config.l1MaxEntries,
      maxBytes: config.l1MaxBytes,
      positiveTtlMs: config.l1TtlMs,
      negativeTtlMs: config.l1NegativeTtlMs,
      jitter: L1_TTL_JITTER,
    }),
  });

  const linkService: LinkServiceDeps = {
    links: store.links,
    clock,
    codes: codes.generator,
    newId: () => newId(),
    destinationPolicy: {
      maxLength: config.maxUrlLength,
      ownHosts: [normaliseHostname(config.publicUrl)],
      blockedDomains: blocklistFile.blocklist,
    },
    expiryPolicy: { defaultTtlMs: config.defaultTtlMs, maxTtlMs: config.maxTtlMs },
    createLimiter: createLimiter?.limiter ?? null,
    maxCodeAttempts: MAX_CODE_ATTEMPTS,
    events: bothLinkEvents(resolver, codes.guessBound),
    createCounters: new CreateCounters(),
  };
  const keyService: KeyServiceDeps = {
    keys: store.keys,
    clock,
    newId: () => newId(),
    newSecret: () => `hop_${secrets.generateSync()}`,
  };
  const sweeps: SweepTotals = { runs: 0, failures: 0, expired: 0, reclaimed: 0, lastRunAt: null };
  const stats = () =>
    readServiceStats({
      generator: codes.generator,
      guessBound: codes.guessBound,
      createCounters: linkService.createCounters,
      poolRemaining: () => codes.pool?.remaining ?? null,
      sweeps,
    });
  // Made (or read, or warned about) by hop serve at start; other commands never ask, so
  // `hop links list` on a read-only data dir writes nothing.
  let secret: Buffer | null | undefined;
  const consoleSecret = () =>
    (secret = secret === undefined ? resolveConsoleSecret(config, logger) : secret);
  if (options.serving === true) consoleSecret();
  const protection = composeProtection(config, clock);
  const metrics = createMetrics(
    () => ({
      l1Hits: resolver.l1Hits,
      l1Misses: resolver.l1Misses,
      coalescedReads: resolver.coalescedReads,
      l1Size: resolver.cachedEntries,
      l2Hits: resolver.l2Hits,
      l2Misses: resolver.l2Misses,
      readsSkipped: resolver.readsSkipped,
      filterFalsePositives: resolver.filterFalsePositives,
      l2Stale: resolver.l2Stale,
      staleStoreReads: resolver.staleStoreReads,
      knownCodes: knownCodes.count,
      knownCodesBytes: knownCodes.byteLength,
      knownCodesReady: knownCodes.ready,
      breakerState: shared === null ? null : BREAKER_STATES.indexOf(shared.breakerState),
      blockedRedirects: resolver.blockedRedirects,
    }),
    clicks === null ? null : () => clicks.counters(),
    () => {
      const now = stats();
      return {
        guessProbability: now.guessProbability,
        codeLength: now.codeLength,
        poolRemaining: now.poolRemaining,
        poolExhaustions: codes.poolExhaustions(),
        linksCreated: now.linksCreated,
        createStoreRoundTrips: now.createStoreRoundTrips,
        sweeps: sweeps.runs,
        sweepFailures: sweeps.failures,
        sweptExpired: sweeps.expired,
        reclaimedCodes: sweeps.reclaimed,
      };
    },
    protection.counters,
  );
  const qrRenderer = new QrcodeRenderer();
  const appDeps: AppDeps = {
    linkService,
    keyService,
    redirect: resolver,
    analytics: { links: store.links, clicks: store.clicks, clock },
    clicks: clicks?.record ?? null,
    countryHeader: config.countryHeader,
    pingStore: () => store.ping(),
    publicUrl: config.publicUrl,
    qrCodes: { links: store.links, qr: qrRenderer, publicUrl: config.publicUrl },
    logger,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    metrics,
    console: {
      sessions: {
        keys: store.keys,
        clock,
        ttlMs: CONSOLE_SESSION_TTL_MS,
        secret: consoleSecret,
        signInThrottle: new ScannerThrottle({ ...CONSOLE_SIGN_IN_LIMIT, now: () => clock.now() }),
      },
      dashboard: {
        links: store.links,
        clicks: store.clicks,
        clock,
        linkCounts: () => ({
          all: codes.guessBound.allLinks,
          active: codes.guessBound.liveLinks,
        }),
        recentRedirects: () => metrics.recentRedirects(),
      },
      assets: loadConsoleAssets(CONSOLE_ASSETS_DIR),
      secureCookie: config.publicUrl.startsWith('https:'),
    },
    stats,
    protection: protection.deps,
    timeouts: {
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
    },
  };
  return {
    config,
    store,
    linkService,
    keyService,
    appDeps,
    shared,
    knownCodes,
    clicks,
    codes,
    sweepDeps: {
      sweep: store.sweep,
      events: linkService.events,
      recycler: codes.recycler,
      reclaimGraceMs: config.reclaimGraceMs,
    },
    sweeps,
    close: async () => {
      metrics.stop();
      protection.stop();
      blocklistFile.close();
      // Buffered clicks go to the sink before the store they may be queued in closes.
      await clicks?.stop();
      await codes.close();
      await shared?.close();
      createLimiter?.client?.disconnect();
      await qrRenderer.close();
      await store.close();
    },
  };
}

/** Refused console sign-ins an address may make in 10 minutes before it waits 10 minutes. */
const CONSOLE_SIGN_IN_LIMIT = { threshold: 10, windowMs: 600_000, coolDownMs: 600_000 };
/** A console sign-in lasts a working day; signing in again is one paste of the key. */
const CONSOLE_SESSION_TTL_MS = 12 * 3_600_000;
/** Built by `npm run build:console` (scripts/build-console.ts); src/main and dist/main sit alike. */
const CONSOLE_ASSETS_DIR = new URL('../../console/dist/', import.meta.url);

/** Longest a create waits for the shared rate limit before asking this process's instead. */
const RATE_LIMIT_TIMEOUT_MS = 50;

/**
 * HOP_CREATE_RATE per API key: shared by every instance through Redis when configured
 * (one bucket per key, whichever instance the request reaches), else in this process.
 */
function composeCreateLimiter(
  config: Config,
  redisTarget: RedisTarget | null,
  clock: Clock,
  logger: Logger,
): { limiter: RateLimiter; client: Redis | Cluster | null } | null {
  if (config.createRate === null) return null;
  const local = new MemoryRateLimiter(config.createRate, clock);
  if (redisTarget === null) return { limiter: local, client: null };
  const client = connectRedis(redisTarget, {
    commandTimeout: RATE_LIMIT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectBackoff,
  });
  client.on('error', (error: Error) => {
    logger.debug({ err: error }, 'redis error (rate limits)');
  });
  const limiter = new RedisRateLimiter({
    client,
    keyPrefix: `${config.redisPrefix}ratelimit:create:`,
    rule: config.createRate,
    clock,
    fallback: local,
  });
  return { limiter, client };
}

/**
 * ulid's PRNG, as ulid's own (a CSPRNG byte / 256) but drawn 4 KiB at a time: ulid asks for
 * one byte per character, and a getRandomValues call per byte was 5% of a create's CPU.
 */
function bufferedRandomFraction(): () => number {
  const bytes = new Uint8Array(4096);
  let next = bytes.length;
  return () => {
    if (next === bytes.length) {
      randomFillSync(bytes);
      next = 0;
    }
    return (bytes[next++] as number) / 256;
  };
}

/** Caches hear of every change first; the guess bound counts creates. */
function bothLinkEvents(first: LinkEvents, second: LinkEvents): LinkEvents {
  return {
    linkCreated: (link) => {
      first.linkCreated(link);
      second.linkCreated(link);
    },
    linkChanged: (link) => {
      first.linkChanged(link);
      second.linkChanged(link);
    },
  };
}
