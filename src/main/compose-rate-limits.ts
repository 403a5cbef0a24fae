import type { Cluster, Redis } from 'ioredis';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import type { RedisTarget } from '../adapters/redis/redis-connection.js';
import type { Config } from '../config/config.js';
import type { TokenBucketRule } from '../domain/token-bucket.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { RateLimiter } from '../ports/rate-limiter.js';

/** Longest a create waits for the shared rate limit before asking this process's instead. */
const RATE_LIMIT_TIMEOUT_MS = 50;
/** Ends commands a dead connection would hold forever; the create gave up long before. */
const RATE_LIMIT_COMMAND_TIMEOUT_MS = 1000;
/** How long start-up waits for a limiter's connection, so the first takes share the limit. */
const RATE_LIMIT_CONNECT_WAIT_MS = 2000;

export interface SharedLimiterParts {
  readonly limiter: RateLimiter;
  /** The limiter's own Redis connection, when shared. */
  readonly client: Redis | Cluster | null;
}

/**
 * HOP_CREATE_RATE per API key: shared by every instance through Redis when configured
 * (one bucket per key, whichever instance the request reaches), else in this process.
 * Null when creates are not rate limited. The Redis adapters load only when configured.
 */
export async function composeCreateLimiter(
  config: Config,
  redisTarget: RedisTarget | null,
  clock: Clock,
  logger: Logger,
  serving: boolean,
): Promise<SharedLimiterParts | null> {
  if (config.createRate === null) return null;
  return composeSharedLimiter(config.createRate, 'create', {
    config,
    redisTarget,
    clock,
    logger,
    serving,
  });
}

/** What a limiter shared through Redis is made with. */
export interface SharedLimiterContext {
  readonly config: Config;
  readonly redisTarget: RedisTarget | null;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly serving: boolean;
}

/**
 * A token bucket per subject for `rule`, named `purpose` in its Redis keys: shared by every
 * instance through Redis when configured, else (and while Redis fails) in this process.
 */
export async function composeSharedLimiter(
  rule: TokenBucketRule,
  purpose: string,
  context: SharedLimiterContext,
): Promise<SharedLimiterParts> {
  const { config, redisTarget, clock, logger, serving } = context;
  const local = new MemoryRateLimiter(rule, clock);
  if (redisTarget === null) return { limiter: local, client: null };
  const [{ connectRedis, reconnectBackoff }, { RedisRateLimiter }] = await Promise.all([
    import('../adapters/redis/redis-connection.js'),
    import('../adapters/redis/redis-rate-limiter.js'),
  ]);
  const client = connectRedis(redisTarget, {
    commandTimeout: RATE_LIMIT_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectBackoff,
  });
  client.on('error', (error: Error) => {
    logger.debug({ err: error }, 'redis error (rate limits)');
  });
  const limiter = new RedisRateLimiter({
    client,
    keyPrefix: `${config.redisPrefix}ratelimit:${purpose}:`,
    rule,
    clock,
    fallback: local,
    timeoutMs: RATE_LIMIT_TIMEOUT_MS,
  });
  // A server's first takes share the limit; a CLI command does not wait on Redis.
  if (serving) await connectedOrWaited(client, RATE_LIMIT_CONNECT_WAIT_MS);
  return { limiter, client };
}

/**
 * Resolves once the connection is ready, or after waitMs: a Redis that is down never stops
 * start-up (creates then use this process's limit), but one that is merely still connecting
 * is waited for, since commands sent before it is ready fail at once (no offline queue).
 */
function connectedOrWaited(client: Redis | Cluster, waitMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    client.once('ready', done);
  });
}
