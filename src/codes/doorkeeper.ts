import { BloomFilter } from './bloom-filter.js';

/** How often a key never seen passes for seen, in a full generation: it gets in early. */
const FALSE_ADMISSION_RATE = 0.01;

/**
 * TinyLFU's doorkeeper (Einziger, Friedman and Manes, "TinyLFU: A Highly Efficient Cache
 * Admission Policy", 2017; SPEC §5 names W-TinyLFU): L1 keeps a code only the second time
 * it is asked for within a window, so codes asked for once (most of them, when reads
 * spread over millions of links) neither push out the ones asked for again nor fill L1
 * with entries nobody reads twice (ADR 0150).
 *
 * Two generations of Bloom filters, each holding up to `window` keys: a key was seen when
 * either holds it. When the newer is full, the older is dropped and a new one begun, so a
 * key is remembered for between one and two windows of other first sightings.
 */
export class Doorkeeper {
  readonly #window: number;
  readonly #seed: number;
  #newer: BloomFilter;
  #older: BloomFilter | null = null;

  /** `seed`: unknown outside, so that nobody can craft keys that pass for seen. */
  constructor(window: number, seed: number) {
    this.#window = window;
    this.#seed = seed;
    this.#newer = new BloomFilter(window, FALSE_ADMISSION_RATE, seed);
  }

  /** True when `key` was seen in this window or the one before; remembers it if not. */
  admits(key: string): boolean {
    const newer = this.#newerWithRoom();
    if (this.#older !== null && this.#older.mightContain(key)) return true;
    return !newer.add(key);
  }

  /** Remembers `key`, so that it is admitted when next asked for within the window. */
  remember(key: string): void {
    this.#newerWithRoom().add(key);
  }

  #newerWithRoom(): BloomFilter {
    if (this.#newer.count >= this.#window) {
      this.#older = this.#newer;
      this.#newer = new BloomFilter(this.#window, FALSE_ADMISSION_RATE, this.#seed);
    }
    return this.#newer;
  }
}
