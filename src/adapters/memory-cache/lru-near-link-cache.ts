import { LRUCache } from 'lru-cache';
import type { CacheEntry, NearLinkCache } from '../../ports/near-link-cache.js';

export interface LruNearLinkCacheOptions {
  readonly maxEntries: number;
  /** Approximate bound on the memory held by entries, in bytes. */
  readonly maxBytes: number;
  readonly positiveTtlMs: number;
  readonly negativeTtlMs: number;
  /** Fraction of the positive TTL added or removed at random (SPEC §5: ±10%). */
  readonly jitter: number;
}

/** Per-entry overhead beyond its strings: the object, the LRU node, the key slot. */
const ENTRY_OVERHEAD_BYTES = 160;

/**
 * L1 (SPEC §5) on lru-cache: bounded by count and approximate bytes, positive entries
 * with a jittered TTL so that entries filled together do not expire together, negative
 * entries briefly. Version floors from invalidations outlive the entries they dropped for
 * one positive TTL, which is as long as any in-flight read could still be carrying an old
 * version.
 */
export class LruNearLinkCache implements NearLinkCache {
  readonly #entries: LRUCache<string, CacheEntry>;
  readonly #floors: LRUCache<string, number>;
  readonly #options: LruNearLinkCacheOptions;

  constructor(options: LruNearLinkCacheOptions) {
    this.#options = options;
    this.#entries = new LRUCache<string, CacheEntry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (entry, code) =>
        ENTRY_OVERHEAD_BYTES + 2 * (code.length + entry.location.length),
      ttl: options.positiveTtlMs,
      updateAgeOnGet: false,
    });
    this.#floors = new LRUCache<string, number>({
      max: options.maxEntries,
      ttl: Math.ceil(options.positiveTtlMs * (1 + options.jitter)),
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  get(code: string): CacheEntry | undefined {
    return this.#entries.get(code);
  }

  set(code: string, entry: CacheEntry): boolean {
    const floor = this.#floors.get(code);
    if (floor !== undefined && entry.version < floor) return false;
    const held = this.#entries.get(code);
    if (held !== undefined && held.version > entry.version) return false;
    const ttl = entry.found
      ? this.#jittered(this.#options.positiveTtlMs)
      : this.#options.negativeTtlMs;
    this.#entries.set(code, entry, { ttl });
    return true;
  }

  invalidate(code: string, version: number): void {
    const held = this.#entries.peek(code);
    if (held !== undefined && held.version < version) this.#entries.delete(code);
    const floor = this.#floors.get(code);
    if (floor === undefined || floor < version) this.#floors.set(code, version);
  }

  #jittered(ttlMs: number): number {
    const spread = ttlMs * this.#options.jitter;
    return Math.max(1, Math.round(ttlMs - spread + Math.random() * 2 * spread));
  }
}
