import { splitLinkKey } from '../../domain/link-domain.js';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from '../../observability/logger.js';
import type { CacheEntry } from '../../ports/near-link-cache.js';
import type { SharedLinkCache } from '../../ports/shared-link-cache.js';
import { decodeEntry, encodeEntry } from './cache-entry-codec.js';
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';
import { KeyGeneration } from './key-generation.js';
import { PendingVersions } from './pending-versions.js';
import {
  connectRedis,
  reconnectBackoff,
  type RedisConnectionOptions,
  type RedisTarget,
} from './redis-connection.js';
import { TIMED_OUT, withinTimeout } from './within-timeout.js';

export interface RedisSharedLinkCacheOptions {
  /** A standalone server (`redis://…`), or Redis Cluster seed nodes. */
  readonly target: RedisTarget;
  /** Prepended to every key and to the channel, so deployments and test runs never meet. */
  readonly prefix: string;
  readonly positiveTtlMs: number;
  readonly negativeTtlMs: number;
  /** How long a floor (an invalidation) refuses older fills. */
  readonly floorTtlMs: number;
  readonly jitter: number;
  /** SPEC §5: 8 ms. A slower answer counts as a miss and a failure. */
  readonly timeoutMs: number;
  /**
   * Codes kept, per kind (changes, creates), whose invalidation or announcement could not
   * reach Redis; default DEFAULT_MAX_PENDING. Past it a change makes the recovery flush L2.
   */
  readonly maxPending?: number;
  readonly logger: Logger;
}

const DEFAULT_MAX_PENDING = 10_000;
/** The floor of the connection's command timeout (writes, the generation, replays). */
const MIN_COMMAND_TIMEOUT_MS = 50;
/** How often the key generation is re-read and what Redis missed is retried. */
const TEND_MS = 1000;
/** Invalidations replayed at once: small enough to answer within the command timeout. */
const REPLAY_BATCH = 100;

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

/**
 * L2 on Redis (ioredis): timeouts and a circuit breaker make any failure a plain miss.
 *
 * An invalidation or a create announcement that cannot reach Redis (breaker open, error,
 * timeout) is kept, one slot per code, and replayed once Redis answers again: otherwise a
 * Redis that comes back with its data (frozen, cut off, restarted from its AOF, failed over)
 * would serve the version before an edit or a disable until the L2 TTL. More changes than
 * the bound make the recovery flush L2 instead: every key carries a generation, and a flush
 * moves every instance to a new one, leaving the old keys to their TTLs.
 */
export class RedisSharedLinkCache implements SharedLinkCache {
  readonly #redis: Redis | Cluster;
  readonly #subscriber: Redis | Cluster;
  readonly #options: RedisSharedLinkCacheOptions;
  readonly #breaker: CircuitBreaker;
  readonly #channel: string;
  /** No key is read or written before Redis has said which generation is in use. */
  readonly #generation: KeyGeneration;
  readonly #listeners: ((code: string, version: number) => void)[] = [];
  /** Edits, disables, deletes, expiries Redis missed: each must reach it, or L2 be flushed. */
  readonly #changes: PendingVersions;
  /**
   * Creates whose announcement missed the other instances. One only matters while a negative
   * entry may hide the code (SPEC §5: 10 s), so past the bound they are dropped, not flushed.
   */
  readonly #creates: PendingVersions;
  readonly #tendTimer: NodeJS.Timeout;
  #flushNeeded = false;
  #tending = false;

  constructor(options: RedisSharedLinkCacheOptions) {
    this.#options = options;
    this.#channel = `${options.prefix}invalidations`;
    this.#generation = new KeyGeneration(options.prefix);
    this.#changes = new PendingVersions(options.maxPending ?? DEFAULT_MAX_PENDING);
    this.#creates = new PendingVersions(options.maxPending ?? DEFAULT_MAX_PENDING);
    this.#breaker = new CircuitBreaker({
      failureThreshold: 5,
      openMs: 2000,
      now: () => Date.now(),
    });
    const retryStrategy = reconnectBackoff;
    const commands: RedisConnectionOptions = {
      // A lookup's own timeout is `timeoutMs` (see get); this bound only ends commands a
      // dead connection would hold forever, and decides when a write counts as missed.
      commandTimeout: Math.max(options.timeoutMs * 4, MIN_COMMAND_TIMEOUT_MS),
      // Fail fast while disconnected instead of queueing behind a dead connection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy,
    };
    const subscriptions: RedisConnectionOptions = {
      retryStrategy,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
    };
    this.#redis = connectRedis(options.target, commands);
    this.#subscriber = connectRedis(options.target, subscriptions);
    for (const client of [this.#redis, this.#subscriber]) {
      client.on('error', (error: Error) => {
        options.logger.debug({ err: error }, 'redis error');
      });
    }
    this.#redis.on('ready', () => void this.#tend());
    // Also without traffic: a frozen Redis that thaws never reconnects, so no 'ready' says so.
    this.#tendTimer = setInterval(() => void this.#tend(), TEND_MS);
    this.#tendTimer.unref();
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

  /** Resolves once Redis has answered with the key generation (for start-up and tests). */
  ready(): Promise<void> {
    return this.#generation.known();
  }

  get(code: string): Promise<CacheEntry | undefined> {
    if (!this.#breaker.allows()) return Promise.resolve(undefined);
    const keyPrefix = this.#generation.keyPrefix;
    const value =
      keyPrefix === null
        ? this.#generation.read(this.#redis).then((read) => this.#redis.get(read + code))
        : this.#redis.get(keyPrefix + code);
    return withinTimeout(value, this.#options.timeoutMs).then(
      (held) => {
        if (held === TIMED_OUT) {
          this.#breaker.failed();
          return undefined;
        }
        this.#succeeded();
        // `code` is a link key (ADR 0115): the entry holds the code alone.
        return decodeEntry(held, splitLinkKey(code).code);
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
    // A fill that misses Redis is only a later miss: nothing to keep.
    this.#send((keyPrefix) =>
      this.#setIfNotOlder(keyPrefix + code, encodeEntry(entry), entry.version, ttl),
    );
  }

  invalidate(code: string, version: number): void {
    this.#send(
      (keyPrefix) => this.#invalidateIn(keyPrefix, code, version),
      () => {
        this.#keepChange(code, version);
      },
    );
  }

  broadcast(code: string, version: number): void {
    // Every instance, this one included, drops its L1 entry.
    this.#send(
      () => this.#publish(code, version),
      () => {
        this.#creates.add(code, version);
      },
    );
  }

  onInvalidation(listener: (code: string, version: number) => void): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.#tendTimer);
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }

  /** Runs `command` if the breaker allows; `keep` if it did not, or if the command failed. */
  #send(command: (keyPrefix: string) => Promise<unknown>, keep?: () => void): void {
    if (!this.#breaker.allows()) {
      keep?.();
      return;
    }
    const keyPrefix = this.#generation.keyPrefix;
    const sent =
      keyPrefix === null ? this.#generation.read(this.#redis).then(command) : command(keyPrefix);
    sent.then(
      () => {
        this.#succeeded();
      },
      () => {
        this.#breaker.failed();
        keep?.();
      },
    );
  }

  #succeeded(): void {
    this.#breaker.succeeded();
    // Redis answers again: tell it what it missed now rather than at the next tick.
    if (this.#flushNeeded || this.#changes.size > 0 || this.#creates.size > 0) void this.#tend();
  }

  #keepChange(code: string, version: number): void {
    if (this.#changes.add(code, version)) return;
    // Forgetting one would let Redis serve its old version for a day: flush L2 instead,
    // which covers every change kept so far.
    this.#changes.clear();
    this.#flushNeeded = true;
  }

  /**
   * Re-reads the key generation (flushing, if changes were lost), then replays what Redis
   * missed. Every TEND_MS, when the connection is ready, and when Redis answers again with
   * something pending; one at a time, through the breaker like any other call.
   */
  async #tend(): Promise<void> {
    if (this.#tending || !this.#breaker.allows()) return;
    this.#tending = true;
    let flush = this.#flushNeeded;
    this.#flushNeeded = false;
    try {
      const keyPrefix = await this.#generation.raise(this.#redis, flush ? 1 : 0);
      if (flush) {
        flush = false;
        this.#options.logger.warn(
          { generation: this.#generation.number },
          'more changes missed Redis than hop keeps: L2 flushed to a new key generation',
        );
      }
      const replayed =
        (await this.#replay(this.#changes, (code, version) =>
          this.#invalidateIn(keyPrefix, code, version),
        )) + (await this.#replay(this.#creates, (code, version) => this.#publish(code, version)));
      this.#breaker.succeeded();
      if (replayed > 0)
        this.#options.logger.info({ replayed }, 'replayed invalidations Redis missed');
    } catch (error) {
      if (flush) this.#flushNeeded = true;
      this.#breaker.failed();
      this.#options.logger.debug({ err: error }, 'redis tend failed; retrying');
    } finally {
      this.#tending = false;
    }
  }

  /** Delivers every pending code, a batch at a time, and says how many; rejects on a failure. */
  async #replay(
    pending: PendingVersions,
    deliver: (code: string, version: number) => Promise<unknown>,
  ): Promise<number> {
    let delivered = 0;
    while (pending.size > 0) {
      const batch = pending.oldest(REPLAY_BATCH);
      await Promise.all(
        batch.map(async ([code, version]) => {
          await deliver(code, version);
          pending.delivered(code, version);
        }),
      );
      delivered += batch.length;
    }
    return delivered;
  }

  /** Leaves a floor that refuses older fills, and drops the code from every L1. */
  #invalidateIn(keyPrefix: string, code: string, version: number): Promise<unknown> {
    return Promise.all([
      this.#setIfNotOlder(keyPrefix + code, `~${version}`, version, this.#options.floorTtlMs),
      this.#publish(code, version),
    ]);
  }

  #publish(code: string, version: number): Promise<unknown> {
    return this.#redis.publish(this.#channel, `${code} ${version}`);
  }

  #setIfNotOlder(key: string, value: string, version: number, ttlMs: number): Promise<unknown> {
    return this.#redis.eval(SET_IF_NOT_OLDER, 1, key, value, String(version), String(ttlMs));
  }

  #jittered(ttlMs: number): number {
    const spread = ttlMs * this.#options.jitter;
    return Math.max(1, Math.round(ttlMs - spread + Math.random() * 2 * spread));
  }
}
