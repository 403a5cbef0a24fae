import type { CacheEntry, NearLinkCache } from '../../ports/near-link-cache.js';
// Not the global `performance`, an accessor: a getter call at each use (BENCHMARKS.md, 2026-12-07).
import { performance } from 'node:perf_hooks';

/** What L1 asks before it keeps a code it does not hold (src/codes/doorkeeper.ts). */
export interface Doorkeeper {
  /** True when `key` was asked for before, within its memory; remembers it if not. */
  admits(key: string): boolean;
  /** Remembers `key` as asked for. */
  remember(key: string): void;
}

export interface SecondChanceNearLinkCacheOptions {
  readonly maxEntries: number;
  /** Approximate bound on the memory held by entries, in bytes. */
  readonly maxBytes: number;
  readonly positiveTtlMs: number;
  readonly negativeTtlMs: number;
  /** Fraction of the positive TTL added or removed at random (SPEC §5: ±10%). */
  readonly jitter: number;
  /** A monotonic clock in ms; performance.now() unless a test drives time. */
  readonly now?: () => number;
  /**
   * W-TinyLFU's admission (SPEC §5, ADR 0150): a code the doorkeeper has not seen asked for
   * is kept only in a small first-in-first-out window (1% of `maxEntries` more, at least
   * one), and moves into the cache proper when asked for again while there, or when the
   * doorkeeper remembers it. Without it, every entry set goes into the cache proper.
   */
  readonly doorkeeper?: Doorkeeper;
}

/**
 * Per-entry bytes besides its code and destination (a byte a character: URLs are ASCII,
 * which V8 keeps a byte a character): the entry, its outcome, the slot, the map's entry,
 * the link id and the key. Measured (ADR 0150): 100,000 entries of 7-char codes and
 * 22-char destinations held 360 bytes each of V8's heap after a collection; the 160 this
 * was before made them 218.
 */
const ENTRY_OVERHEAD_BYTES = 300;

/** One held entry. `used`: read since the eviction scan last passed it (0 or 1, a Smi). */
interface Slot {
  readonly entry: CacheEntry;
  readonly expiresAt: number;
  readonly bytes: number;
  used: number;
}

/** A version an invalidation set, remembered until `expiresAt`. */
interface Floor {
  readonly version: number;
  readonly expiresAt: number;
}

/**
 * L1 (SPEC §5), bounded by count and approximate bytes, positive entries with a jittered
 * TTL so that entries filled together do not expire together, negative entries briefly.
 *
 * Evicted by second chance (CLOCK) rather than strict LRU: a hit is a `Map` lookup, an
 * expiry check and a flag set, nothing moved. Entries sit in the map's insertion order; to
 * make room, a hand walks from the oldest on, sends one read since it last passed to the
 * back with its flag cleared, and drops the first one that was not. lru-cache's `get` (options,
 * staleness, background fetches, diagnostics, the move to its list's tail) was 0.6 µs of a
 * redirect's ~30 in CPU profiles (ADR 0142).
 *
 * Version floors from invalidations outlive the entries they dropped for one positive TTL,
 * which is as long as any in-flight read could still be carrying an old version; they are
 * bounded by count like the entries, oldest first.
 */
export class SecondChanceNearLinkCache implements NearLinkCache {
  readonly #entries = new Map<string, Slot>();
  /** Codes first asked for, oldest first (only with a doorkeeper): see the options. */
  readonly #window = new Map<string, Slot>();
  readonly #windowEntries: number;
  /** The window's oldest key: every key before it was deleted (first in, first out). */
  readonly #windowHand = new KeyHand(this.#window);
  readonly #floors = new Map<string, Floor>();
  readonly #options: SecondChanceNearLinkCacheOptions;
  readonly #now: () => number;
  readonly #floorTtlMs: number;
  #bytes = 0;
  /** Where the eviction walk is: see #makeRoom. */
  readonly #hand = new KeyHand(this.#entries);

  constructor(options: SecondChanceNearLinkCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#floorTtlMs = Math.ceil(options.positiveTtlMs * (1 + options.jitter));
    this.#windowEntries = Math.max(1, Math.ceil(options.maxEntries / 100));
  }

  get size(): number {
    return this.#entries.size + this.#window.size;
  }

  get(code: string): CacheEntry | undefined {
    const slot = this.#entries.get(code);
    if (slot === undefined) return this.#window.size === 0 ? undefined : this.#fromWindow(code);
    if (slot.expiresAt <= this.#now()) {
      this.#remove(code, slot);
      // It was asked for while held: its next fill is kept at once.
      this.#options.doorkeeper?.remember(code);
      return undefined;
    }
    slot.used = 1;
    return slot.entry;
  }

  set(code: string, entry: CacheEntry): boolean {
    const now = this.#now();
    const floor = this.#floorOf(code, now);
    if (floor !== undefined && entry.version < floor) return false;
    const held = this.#entries.get(code) ?? this.#window.get(code);
    if (held !== undefined) {
      if (held.expiresAt > now && held.entry.version > entry.version) return false;
      this.#remove(code, held);
    }
    const ttl = entry.found
      ? this.#jittered(this.#options.positiveTtlMs)
      : this.#options.negativeTtlMs;
    const bytes = ENTRY_OVERHEAD_BYTES + code.length + entry.location.length;
    // Larger than the whole bound: not kept, and nothing else dropped for it (lru-cache's way).
    if (bytes > this.#options.maxBytes) return true;
    const slot: Slot = { entry, expiresAt: now + ttl, bytes, used: 0 };
    // A replaced entry was asked for before; a new one only if the doorkeeper says so.
    if (held === undefined && this.#options.doorkeeper?.admits(code) === false) {
      this.#intoWindow(code, slot);
    } else {
      this.#intoCache(code, slot, now);
    }
    return true;
  }

  /** Room first, then the slot at the back of the cache proper. */
  #intoCache(code: string, slot: Slot, now: number): void {
    // Made after the slot, the walk could reach it (once every older one was sent behind
    // it) and drop it before it was ever read.
    this.#makeRoom(slot.bytes, now);
    this.#entries.set(code, slot);
    this.#bytes += slot.bytes;
  }

  #intoWindow(code: string, slot: Slot): void {
    if (this.#window.size >= this.#windowEntries) {
      const oldest = this.#windowHand.next();
      if (oldest !== undefined) this.#dropFromWindow(oldest, this.#window.get(oldest) as Slot);
    }
    this.#window.set(code, slot);
    this.#bytes += slot.bytes;
  }

  /** A code in the window asked for again: into the cache proper, while live. */
  #fromWindow(code: string): CacheEntry | undefined {
    const slot = this.#window.get(code);
    if (slot === undefined) return undefined;
    this.#dropFromWindow(code, slot);
    const now = this.#now();
    if (slot.expiresAt <= now) return undefined;
    this.#intoCache(code, slot, now);
    return slot.entry;
  }

  invalidate(code: string, version: number): void {
    const held = this.#entries.get(code) ?? this.#window.get(code);
    if (held !== undefined && held.entry.version < version) this.#remove(code, held);
    const now = this.#now();
    const floor = this.#floorOf(code, now);
    if (floor !== undefined && floor >= version) return;
    // Re-inserted, so the map's order stays oldest first for the bound below.
    this.#floors.delete(code);
    this.#floors.set(code, { version, expiresAt: now + this.#floorTtlMs });
    if (this.#floors.size > this.#options.maxEntries) {
      const oldest = this.#floors.keys().next();
      if (oldest.done !== true) this.#floors.delete(oldest.value);
    }
  }

  #floorOf(code: string, now: number): number | undefined {
    const floor = this.#floors.get(code);
    if (floor === undefined) return undefined;
    if (floor.expiresAt > now) return floor.version;
    this.#floors.delete(code);
    return undefined;
  }

  /**
   * Drops entries, oldest first, until one more of `bytes` fits, giving each one read since
   * the hand last passed it a second chance.
   *
   * The hand (`KeyHand`) is kept from call to call. A first version walked from the map's
   * start at every call, and with most reads missing L1 (`uniform`) hop served 69.5% of
   * what it did with lru-cache; with the hand, 104.3% (ADR 0142).
   */
  #makeRoom(bytes: number, now: number): void {
    const { maxEntries, maxBytes } = this.#options;
    while (this.#entries.size >= maxEntries || this.#bytes + bytes > maxBytes) {
      const code = this.#hand.next();
      if (code === undefined) return;
      const slot = this.#entries.get(code) as Slot;
      if (slot.used === 1 && slot.expiresAt > now) {
        // Sent to the back: the hand reaches it again only after every other entry.
        slot.used = 0;
        this.#entries.delete(code);
        this.#entries.set(code, slot);
      } else {
        this.#remove(code, slot);
      }
    }
  }

  /** Drops `code`'s slot, from the cache proper or the window (never in both). */
  #remove(code: string, slot: Slot): void {
    if (this.#entries.delete(code)) this.#bytes -= slot.bytes;
    else this.#dropFromWindow(code, slot);
  }

  #dropFromWindow(code: string, slot: Slot): void {
    this.#window.delete(code);
    this.#bytes -= slot.bytes;
  }

  #jittered(ttlMs: number): number {
    const spread = ttlMs * this.#options.jitter;
    return Math.max(1, Math.round(ttlMs - spread + Math.random() * 2 * spread));
  }
}

/**
 * One live iterator of a map's keys, kept from call to call: a map's iterator skips what
 * was deleted behind it and reaches what was added since, so `next` is the oldest key not
 * yet passed, and after the newest the oldest again. An iterator made at each call would
 * first cross every slot deleted since V8 last compacted the map's table: for L1's window,
 * 1,150 against 620 ns a miss and fill, 2M codes through a 100,000-entry L1 (ADR 0150).
 */
class KeyHand {
  readonly #map: ReadonlyMap<string, unknown>;
  #keys: MapIterator<string>;

  constructor(map: ReadonlyMap<string, unknown>) {
    this.#map = map;
    this.#keys = map.keys();
  }

  /** The key under the hand, which then moves on; undefined when the map is empty. */
  next(): string | undefined {
    let next = this.#keys.next();
    if (next.done === true) {
      this.#keys = this.#map.keys();
      next = this.#keys.next();
    }
    return next.done === true ? undefined : next.value;
  }
}
