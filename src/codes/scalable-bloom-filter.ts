import { BloomFilter } from './bloom-filter.js';

/** Each new layer holds this many times more than the one before. */
const GROWTH = 4;

export interface ScalableBloomFilterOptions {
  /** Strings the first layer holds. */
  readonly initialCapacity: number;
  /** Target false-positive rate of each layer; the filter's is at most their sum. */
  readonly falsePositiveRate: number;
  readonly seed: number;
}

/**
 * A Bloom filter that never fills up: when its newest layer reaches capacity it adds one
 * four times larger (Almeida et al., "Scalable Bloom Filters"). So nobody has to know how
 * many codes a store holds before loading them, and ten million codes take three layers.
 */
export class ScalableBloomFilter {
  readonly #layers: BloomFilter[] = [];
  readonly #options: ScalableBloomFilterOptions;
  #newest: BloomFilter;

  constructor(options: ScalableBloomFilterOptions) {
    this.#options = options;
    this.#newest = this.#addLayer(options.initialCapacity);
  }

  get count(): number {
    return this.#layers.reduce((sum, layer) => sum + layer.count, 0);
  }

  get byteLength(): number {
    return this.#layers.reduce((sum, layer) => sum + layer.byteLength, 0);
  }

  get layerCount(): number {
    return this.#layers.length;
  }

  /**
   * Makes the first layer hold `expected` strings, if nothing was added yet and it holds
   * fewer: a filter told its size before a load keeps what layers would have held in one,
   * in about half the memory at ten million codes (ADR 0148), with one layer to probe.
   */
  reserve(expected: number): void {
    if (this.count > 0 || !(expected > this.#newest.capacity)) return;
    this.#layers.length = 0;
    this.#newest = this.#addLayer(Math.ceil(expected));
  }

  /** Adds `key`; returns false when it seemed present already. */
  add(key: string): boolean {
    if (this.mightContain(key)) return false;
    if (this.#newest.count >= this.#newest.capacity) {
      this.#newest = this.#addLayer(this.#newest.capacity * GROWTH);
    }
    return this.#newest.add(key);
  }

  mightContain(key: string): boolean {
    const layers = this.#layers;
    for (let i = layers.length - 1; i >= 0; i--) {
      if ((layers[i] as BloomFilter).mightContain(key)) return true;
    }
    return false;
  }

  #addLayer(capacity: number): BloomFilter {
    const layer = new BloomFilter(
      capacity,
      this.#options.falsePositiveRate,
      this.#options.seed + this.#layers.length,
    );
    this.#layers.push(layer);
    return layer;
  }
}
