import { randomInt } from 'node:crypto';
import { Doorkeeper } from '../codes/doorkeeper.js';
import { SecondChanceNearLinkCache } from '../adapters/memory-cache/second-chance-near-link-cache.js';
import type { RedisTarget } from '../adapters/redis/redis-connection.js';
import type { RedisSharedLinkCache } from '../adapters/redis/redis-shared-link-cache.js';
import { ScalableBloomFilter } from '../codes/scalable-bloom-filter.js';
import type { Config } from '../config/config.js';
import type { DomainBlocklist } from '../domain/domain-blocklist.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { SharedLinkCache } from '../ports/shared-link-cache.js';
import type { Store } from '../ports/store.js';
import { KnownCodes } from '../services/redirect/known-codes.js';
import { RedirectResolver } from '../services/redirect/redirect-resolver.js';

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

export interface CacheParts {
  /** Where Redis is, when configured (L2, broadcasts, shared rate limits). */
  readonly redisTarget: RedisTarget | null;
  /** L2, when Redis is configured (its breaker state is a metric). */
  readonly shared: RedisSharedLinkCache | null;
  /**
   * What the redirect path uses as L2: `shared`, or with HOP_REGION that and the channel to
   * the other regions (issue 25); closing it closes both.
   */
  readonly regional: SharedLinkCache | null;
  readonly knownCodes: KnownCodes;
  /** The redirect path: L1, the known codes, L2, the store (SPEC §5). */
  readonly resolver: RedirectResolver;
}

/**
 * The redirect path's tiers: L1 in process, L2 in Redis when configured, the known codes.
 * The Redis adapter (and ioredis) is loaded only when configured: a CLI command on the
 * embedded store never loads it.
 */
export async function composeCaches(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  blocklist: DomainBlocklist,
): Promise<CacheParts> {
  const redisTarget = redisTargetOf(config);
  const shared =
    redisTarget === null
      ? null
      : new (await import('../adapters/redis/redis-shared-link-cache.js')).RedisSharedLinkCache({
          target: redisTarget,
          prefix: config.redisPrefix,
          positiveTtlMs: config.l2TtlMs,
          negativeTtlMs: config.l2NegativeTtlMs,
          floorTtlMs: config.l1TtlMs * 2,
          jitter: L1_TTL_JITTER,
          timeoutMs: config.cacheTimeoutMs,
          logger,
        });
  // With HOP_REGION (which requires Redis and NATS: load-config), changes also reach the
  // other regions.
  const regional =
    config.region === undefined || config.natsServers === undefined || shared === null
      ? shared
      : await acrossRegions(shared, config.region, config.natsServers, config, logger);
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
  const resolver = new RedirectResolver({
    blocklist,
    redirects: store.redirects,
    clock,
    shared: regional,
    knownCodes,
    cache: new SecondChanceNearLinkCache({
      maxEntries: config.l1MaxEntries,
      maxBytes: config.l1MaxBytes,
      positiveTtlMs: config.l1TtlMs,
      negativeTtlMs: config.l1NegativeTtlMs,
      jitter: L1_TTL_JITTER,
      // A code is kept once asked for twice within about L1's size of other codes (ADR 0150).
      doorkeeper: new Doorkeeper(config.l1MaxEntries, randomInt(2 ** 31)),
    }),
  });
  return { redisTarget, shared, regional, knownCodes, resolver };
}

/** The region's L2 that also tells the other regions (ADR 0141); loaded only with HOP_REGION. */
async function acrossRegions(
  shared: SharedLinkCache,
  region: string,
  servers: readonly string[],
  config: Config,
  logger: Logger,
): Promise<SharedLinkCache> {
  const { NatsRegionChannel } = await import('../adapters/nats/nats-region-channel.js');
  const { CrossRegionSharedLinkCache } =
    await import('../services/redirect/cross-region-shared-cache.js');
  const channel = new NatsRegionChannel({
    servers,
    subject: config.natsChangesSubject,
    region,
    onStatus: (status) => {
      logger.info({ region }, status);
    },
  });
  return new CrossRegionSharedLinkCache(shared, channel, region);
}

function redisTargetOf(config: Config): RedisTarget | null {
  if (config.redisClusterNodes !== undefined) return { clusterNodes: config.redisClusterNodes };
  if (config.redisUrl !== undefined) return { url: config.redisUrl };
  return null;
}
