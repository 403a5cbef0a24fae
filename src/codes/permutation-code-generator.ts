import { HopError } from '../domain/errors.js';
import type { CodeGenerator } from '../ports/code-generator.js';
import type { SequenceStore } from '../ports/sequence-store.js';
import { fixedWidthCode, KeyedPermutation } from './keyed-permutation.js';

/** The store counter behind every permutation code, shared by every instance. */
export const PERMUTATION_SEQUENCE = 'permutation';
/** A domain above 2^52 does not fit the permutation (62^9 and 64^9 are above it). */
const MAX_DOMAIN = 2 ** 52;

export interface PermutationCodeOptions {
  /** At least 16 bytes; never change it once codes exist (SPEC §2: from config). */
  readonly key: Uint8Array;
  readonly alphabet: string;
  readonly length: number;
  readonly sequences: SequenceStore;
  /** Counter values leased at once: one store round trip per this many creates. */
  readonly blockSize: number;
}

/**
 * The `permutation` strategy (SPEC §2, seed 002): a counter from the store, leased in
 * blocks, passed through a keyed permutation of `[0, alphabet^length)` and written in
 * exactly `length` characters. Distinct counters give distinct codes by construction, and
 * without the key neither the order nor the next code can be told from a code.
 *
 * The counter is one for every length: when the guess bound adds a character, counters
 * go on from where they were into the larger domain, and codes of different lengths never
 * equal each other. Values left in a block when a process stops are never used.
 */
export class PermutationCodeGenerator implements CodeGenerator {
  readonly strategy = 'permutation';
  readonly #key: Uint8Array;
  readonly #alphabet: string;
  readonly #sequences: SequenceStore;
  readonly #blockSize: number;
  #permutation: KeyedPermutation;
  #length: number;
  #next = 0;
  #end = 0;
  /** The lease in flight, shared by every create that finds the block empty meanwhile. */
  #leasing: Promise<void> | null = null;
  #roundTrips = 0;

  constructor(options: PermutationCodeOptions) {
    this.#key = options.key;
    this.#alphabet = options.alphabet;
    this.#sequences = options.sequences;
    this.#blockSize = options.blockSize;
    this.#length = options.length;
    this.#permutation = this.#permutationFor(options.length);
  }

  get alphabetSize(): number {
    return this.#alphabet.length;
  }

  get length(): number {
    return this.#length;
  }

  get storeRoundTrips(): number {
    return this.#roundTrips;
  }

  growTo(length: number): boolean {
    if (this.#alphabet.length ** length > MAX_DOMAIN) return false;
    this.#permutation = this.#permutationFor(length);
    this.#length = length;
    return true;
  }

  async generate(): Promise<string> {
    while (this.#next >= this.#end) await this.#lease();
    const counter = this.#next++;
    if (counter >= this.#permutation.size) {
      throw new HopError(
        'code-space-exhausted',
        `Every ${this.#length}-character code has been issued.`,
        { retryable: false },
      );
    }
    return fixedWidthCode(this.#permutation.apply(counter), this.#alphabet, this.#length);
  }

  #lease(): Promise<void> {
    this.#leasing ??= this.#sequences
      .lease(PERMUTATION_SEQUENCE, this.#blockSize)
      .then((block) => {
        this.#roundTrips++;
        this.#next = block.first;
        this.#end = block.end;
      })
      .finally(() => {
        this.#leasing = null;
      });
    return this.#leasing;
  }

  #permutationFor(length: number): KeyedPermutation {
    return new KeyedPermutation(this.#key, this.#alphabet.length ** length);
  }
}
