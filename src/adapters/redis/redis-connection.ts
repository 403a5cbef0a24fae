import { Cluster, Redis } from 'ioredis';

/** A standalone Redis (HOP_REDIS_URL) or a cluster's seed nodes (HOP_REDIS_CLUSTER). */
export type RedisTarget = { readonly url: string } | { readonly clusterNodes: readonly string[] };

/** Reconnect after 50 ms, 100 ms, … at most a second apart: a restarted Redis is found soon. */
export function reconnectBackoff(attempt: number): number {
  return Math.min(50 * attempt, 1000);
}

/** The few connection settings hop uses (ioredis' own type trips exactOptionalPropertyTypes). */
export interface RedisConnectionOptions {
  readonly commandTimeout?: number;
  readonly enableOfflineQueue: boolean;
  readonly maxRetriesPerRequest: number | null;
  readonly retryStrategy: (attempt: number) => number;
}

/** A connection to a standalone Redis or a cluster, with the same options either way. */
export function connectRedis(
  target: RedisTarget,
  options: RedisConnectionOptions,
): Redis | Cluster {
  if ('url' in target) return new Redis(target.url, options);
  const nodes = target.clusterNodes.map((node) => {
    const [host, port] = node.split(':');
    return { host: host ?? '127.0.0.1', port: Number(port ?? 6379) };
  });
  // Cluster-wide PUBLISH reaches subscribers on every node, so one channel serves all.
  return new Cluster(nodes, {
    redisOptions: options,
    enableOfflineQueue: options.enableOfflineQueue,
    clusterRetryStrategy: options.retryStrategy,
  });
}
