import type { Cluster, Redis } from 'ioredis';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import type { RedisTarget } from '../adapters/redis/redis-connection.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { RateLimiter } from '../ports/rate-limiter.js';

/** Longest a create waits for the shared rate limit before asking this process's instead. */
const RATE_LIMIT_TIMEOUT_MS = 50;

export interface CreateLimiterParts {
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
): Promise<CreateLimiterParts | null> {
  if (config.createRate === null) return null;
  const local = new MemoryRateLimiter(config.createRate, clock);
  if (redisTarget === null) return { limiter: local, client: null };
  const [{ connectRedis, reconnectBackoff }, { RedisRateLimiter }] = await Promise.all([
    import('../adapters/redis/redis-connection.js'),
    import('../adapters/redis/redis-rate-limiter.js'),
  ]);
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
