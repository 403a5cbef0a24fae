import { Cluster, Redis } from 'ioredis';
import type { Logger } from '../../observability/logger.js';
import type { CacheEntry } from '../../ports/near-link-cache.js';
import type { SharedLinkCache } from '../../ports/shared-link-cache.js';
import { decodeEntry, encodeEntry } from './cache-entry-codec.js';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';

export interface RedisSharedLinkCacheOptions {
  /** A standalone server (`redis://…`), or Redis Cluster seed nodes. */
  readonly target: { readonly url: string } | { readonly clusterNodes: readonly string[] };
  /** Prepended to every key and to the channel, so deployments and test runs never meet. */
  readonly prefix: string;
  readonly positiveTtlMs: number;
  readonly negativeTtlMs: number;
  /** How long a floor (an invalidation) refuses older fills. */
  readonly floorTtlMs: number;
  readonly jitter: number;
  /** SPEC §5: 8 ms. A slower answer counts as a miss and a failure. */
  readonly timeoutMs: number;
  readonly logger: Logger;
}

// Stores ARGV[1] unless the held value (an entry or a ~floor) has a newer version than
// ARGV[2]: an older version never overwrites a newer one (SPEC §5).
const SET_IF_NOT_OLDER = `
local held = redis.call('GET', KEYS[1])
if held then
  local version = tonumber(string.match(held, '^~?(%d+)'))
  if version and version > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

/** The few connection settings hop uses (ioredis' own type trips exactOptionalPropertyTypes). */
interface ConnectionOptions {
  readonly commandTimeout?: number;
  readonly enableOfflineQueue: boolean;
  readonly maxRetriesPerRequest: number | null;
  readonly retryStrategy: (attempt: number) => number;
}

function connect(
  target: RedisSharedLinkCacheOptions['target'],
  options: ConnectionOptions,
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

/** L2 on Redis (ioredis): timeouts and a circuit breaker make any failure a plain miss. */
export class RedisSharedLinkCache implements SharedLinkCache {
  readonly #redis: Redis | Cluster;
  readonly #subscriber: Redis | Cluster;
  readonly #options: RedisSharedLinkCacheOptions;
  readonly #breaker: CircuitBreaker;
  readonly #channel: string;
  readonly #listeners: ((code: string, version: number) => void)[] = [];

  constructor(options: RedisSharedLinkCacheOptions) {
    this.#options = options;
    this.#channel = `${options.prefix}invalidations`;
    this.#breaker = new CircuitBreaker({
      failureThreshold: 5,
      openMs: 2000,
      now: () => Date.now(),
    });
    const retryStrategy = (attempt: number) => Math.min(50 * attempt, 1000);
    const commands: ConnectionOptions = {
      commandTimeout: options.timeoutMs,
      // Fail fast while disconnected instead of queueing behind a dead connection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy,
    };
    const subscriptions: ConnectionOptions = {
      retryStrategy,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    };
    this.#redis = connect(options.target, commands);
    this.#subscriber = connect(options.target, subscriptions);
    for (const client of [this.#redis, this.#subscriber]) {
      client.on('error', (error: Error) => {
        options.logger.debug({ err: error }, 'redis error');
      });
    }
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      const [code, version] = message.split(' ');
      if (code === undefined || version === undefined) return;
      for (const listener of this.#listeners) listener(code, Number(version));
    });
    void this.#subscriber.subscribe(this.#channel).catch((error: unknown) => {
      options.logger.warn({ err: error }, 'redis subscribe failed; invalidations rely on L1 TTL');
    });
  }

  get breakerState(): BreakerState {
    return this.#breaker.state;
  }

  /** Resolves once the command connection is ready (for start-up and tests). */
  async ready(): Promise<void> {
    if (this.#redis.status === 'ready') return;
    await new Promise<void>((resolve) =>
      this.#redis.once('ready', () => {
        resolve();
      }),
    );
  }

  get(code: string): Promise<CacheEntry | undefined> {
    if (!this.#breaker.allows()) return Promise.resolve(undefined);
    return this.#redis.get(this.#options.prefix + code).then(
      (value) => {
        this.#breaker.succeeded();
        return decodeEntry(value, code);
      },
      () => {
        this.#breaker.failed();
        return undefined;
      },
    );
  }

  set(code: string, entry: CacheEntry): void {
    const ttl = entry.found
      ? this.#jittered(this.#options.positiveTtlMs)
      : this.#options.negativeTtlMs;
    this.#write(code, encodeEntry(entry), entry.version, ttl);
  }

  invalidate(code: string, version: number): void {
    this.#write(code, `~${version}`, version, this.#options.floorTtlMs);
    this.broadcast(code, version);
  }

  broadcast(code: string, version: number): void {
    // Every instance, this one included, drops its L1 entry.
    if (this.#breaker.allows()) {
      this.#redis.publish(this.#channel, `${code} ${version}`).then(
        () => {
          this.#breaker.succeeded();
        },
        () => {
          this.#breaker.failed();
        },
      );
    }
  }

  onInvalidation(listener: (code: string, version: number) => void): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }

  #write(code: string, value: string, version: number, ttlMs: number): void {
    if (!this.#breaker.allows()) return;
    this.#redis
      .eval(SET_IF_NOT_OLDER, 1, this.#options.prefix + code, value, String(version), String(ttlMs))
      .then(
        () => {
          this.#breaker.succeeded();
        },
        () => {
          this.#breaker.failed();
        },
      );
  }

  #jittered(ttlMs: number): number {
    const spread = ttlMs * this.#options.jitter;
    return Math.max(1, Math.round(ttlMs - spread + Math.random() * 2 * spread));
  }
}
