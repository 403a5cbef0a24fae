import type { Cluster, Redis } from 'ioredis';

// Raises the generation to at least ARGV[1] (a Redis that lost the key, restarted empty or
// evicted it, must not send anyone back to older keys), then by ARGV[2] for a flush.
const RAISE_GENERATION = `
local held = tonumber(redis.call('GET', KEYS[1])) or 0
local generation = math.max(held, tonumber(ARGV[1])) + tonumber(ARGV[2])
if generation ~= held then redis.call('SET', KEYS[1], generation) end
return generation`;

/**
 * The generation every L2 key carries: a flush moves every instance to a new one and leaves
 * the old keys to their TTLs, one command however many keys, on a server or a cluster.
 * Redis holds the highest generation in one key, which only ever grows; each instance reads
 * it before its first key and then every tick.
 */
export class KeyGeneration {
  readonly #prefix: string;
  readonly #key: string;
  #number: number | null = null;
  #keyPrefix: string | null = null;
  #reading: Promise<string> | null = null;
  readonly #known: Promise<void>;
  #markKnown: () => void = () => {};

  constructor(prefix: string) {
    this.#prefix = prefix;
    // Codes never hold ':', so no code's key can be this one.
    this.#key = `${prefix}meta:generation`;
    this.#known = new Promise((resolve) => {
      this.#markKnown = resolve;
    });
  }

  /** What every key of this generation starts with; null until read from Redis. */
  get keyPrefix(): string | null {
    return this.#keyPrefix;
  }

  get number(): number | null {
    return this.#number;
  }

  /** Resolves once the generation has been read. */
  known(): Promise<void> {
    return this.#known;
  }

  /** The key prefix: known, or read from Redis now (once, however many ask). */
  read(redis: Redis | Cluster): Promise<string> {
    if (this.#keyPrefix !== null) return Promise.resolve(this.#keyPrefix);
    this.#reading ??= this.raise(redis, 0).finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  /** Raises Redis' generation to at least this one (one more to flush), then moves to it. */
  raise(redis: Redis | Cluster, by: 0 | 1): Promise<string> {
    const known = String(this.#number ?? 0);
    return redis
      .eval(RAISE_GENERATION, 1, this.#key, known, String(by))
      .then((held) => this.#adopt(Number(held)));
  }

  #adopt(number: number): string {
    if (this.#keyPrefix === null || this.#number === null || number > this.#number) {
      this.#number = number;
      // Generation 0 keeps the keys of before generations, so a rolling upgrade shares them.
      this.#keyPrefix = number === 0 ? this.#prefix : `${this.#prefix}g${number}:`;
      this.#markKnown();
    }
    return this.#keyPrefix;
  }
}
