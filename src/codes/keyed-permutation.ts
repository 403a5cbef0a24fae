import { createCipheriv, createHash, type Cipher } from 'node:crypto';

/** Rounds of the Feistel network: four make a pseudorandom permutation (Luby–Rackoff). */
const ROUNDS = 4;
/** Halves of more than 26 bits would not fit the 52-bit domains this is made for. */
const MAX_HALF_BITS = 26;

/**
 * A keyed permutation of `[0, size)` (SPEC §2's `permutation` strategy): a balanced Feistel
 * network over the smallest even power of two that holds `size`, with AES-128 under a key
 * derived from the given one as its round function, and cycle-walking (applying it again while the result falls
 * outside `[0, size)`) to land in the domain. Consecutive counters give unrelated values,
 * and without the key the order cannot be told from the values. Each value maps to exactly
 * one other, so a counter that never repeats gives codes that never repeat.
 */
export class KeyedPermutation {
  readonly size: number;
  /**
   * One AES-128-ECB cipher for the life of the permutation: each round encrypts one block.
   * HMAC-SHA256 as the round function made a new HMAC object per round (4.6 µs); the
   * cipher is made once and a block costs about a microsecond.
   */
  readonly #cipher: Cipher;
  readonly #block = Buffer.alloc(16);
  readonly #halfBits: number;
  readonly #halfMask: number;

  constructor(key: Uint8Array, size: number) {
    if (key.length < 16) throw new RangeError('A permutation key has at least 16 bytes.');
    if (!Number.isSafeInteger(size)) {
      throw new RangeError('A permutation domain is a whole number of values below 2^53.');
    }
    if (size < 2) throw new RangeError('A permutation domain has at least 2 values.');
    let halfBits = 1;
    while (2 ** (2 * halfBits) < size) halfBits++;
    if (halfBits > MAX_HALF_BITS) {
      throw new RangeError(`A permutation domain has at most 2^${2 * MAX_HALF_BITS} values.`);
    }
    this.size = size;
    // ECB without padding: every update of one whole block returns its 16 bytes at once.
    const aesKey = createHash('sha256').update(key).digest().subarray(0, 16);
    this.#cipher = createCipheriv('aes-128-ecb', aesKey, null).setAutoPadding(false);
    this.#halfBits = halfBits;
    this.#halfMask = 2 ** halfBits - 1;
  }

  /** The image of `value`, in `[0, size)`. */
  apply(value: number): number {
    if (!Number.isSafeInteger(value) || value < 0 || value >= this.size) {
      throw new RangeError(`${value} is outside [0, ${this.size}).`);
    }
    // Cycle-walking: the network permutes [0, 4^halfBits), which holds the domain and is
    // less than four times its size, so a handful of walks at most, on average fewer than 4.
    let walked = this.#network(value);
    while (walked >= this.size) walked = this.#network(walked);
    return walked;
  }

  #network(value: number): number {
    const half = 2 ** this.#halfBits;
    let left = Math.floor(value / half);
    let right = value % half;
    for (let round = 0; round < ROUNDS; round++) {
      const next = (left ^ this.#round(round, right)) & this.#halfMask;
      left = right;
      right = next;
    }
    return left * half + right;
  }

  /** AES(key, round ‖ half ‖ zeros), its first four bytes: a PRF on distinct inputs. */
  #round(round: number, half: number): number {
    this.#block.writeUInt8(round, 0);
    this.#block.writeUInt32BE(half, 1);
    return this.#cipher.update(this.#block).readUInt32BE(0);
  }
}

/** `value` in base `alphabet.length`, left-padded with the alphabet's zero to `length`. */
export function fixedWidthCode(value: number, alphabet: string, length: number): string {
  const base = alphabet.length;
  if (!Number.isSafeInteger(value) || value < 0 || value >= base ** length) {
    throw new RangeError(`${value} does not fit ${length} characters of base ${base}.`);
  }
  let code = '';
  let rest = value;
  for (let position = 0; position < length; position++) {
    code = (alphabet[rest % base] ?? '') + code;
    rest = Math.floor(rest / base);
  }
  return code;
}
