import type { CodeGenerator } from '../ports/code-generator.js';

/** Fills a buffer with cryptographically secure random bytes (crypto.randomFillSync). */
export type RandomBytes = (buffer: Uint8Array) => void;

export interface RandomCodeOptions {
  readonly alphabet: string;
  readonly length: number;
  readonly randomBytes: RandomBytes;
}

/**
 * The `random` strategy (SPEC §2, seeds 001/004): each character is drawn from CSPRNG
 * bytes by rejection sampling, so every character of the alphabet is equally likely.
 * A plain `byte % 62` would favour the first 8 characters (256 = 4·62 + 8).
 */
export class RandomCodeGenerator implements CodeGenerator {
  readonly strategy = 'random';
  /** Random codes never touch the store before their insert. */
  readonly storeRoundTrips = 0;
  readonly #alphabet: string;
  #length: number;
  readonly #randomBytes: RandomBytes;
  /** Bytes at or above this bound are rejected: it is the largest multiple of the size. */
  readonly #acceptBelow: number;
  readonly #buffer: Uint8Array;
  #offset: number;

  constructor(options: RandomCodeOptions) {
    const size = options.alphabet.length;
    if (size < 2 || size > 256) throw new RangeError('An alphabet has 2 to 256 characters.');
    if (!Number.isInteger(options.length) || options.length < 1) {
      throw new RangeError('A code has at least one character.');
    }
    this.#alphabet = options.alphabet;
    this.#length = options.length;
    this.#randomBytes = options.randomBytes;
    this.#acceptBelow = 256 - (256 % size);
    // Random bytes are drawn 4 KiB at a time: one CSPRNG call per code was the largest cost
    // of generating codes in bulk (5.5 s per million).
    this.#buffer = new Uint8Array(4096);
    this.#offset = this.#buffer.length;
  }

  get length(): number {
    return this.#length;
  }

  get alphabetSize(): number {
    return this.#alphabet.length;
  }

  growTo(length: number): boolean {
    if (!Number.isInteger(length) || length < 1)
      throw new RangeError('A code has at least one character.');
    this.#length = length;
    return true;
  }

  generate(): Promise<string> {
    return Promise.resolve(this.generateSync());
  }

  generateSync(): string {
    const size = this.#alphabet.length;
    let code = '';
    while (code.length < this.#length) {
      if (this.#offset >= this.#buffer.length) {
        this.#randomBytes(this.#buffer);
        this.#offset = 0;
      }
      const byte = this.#buffer[this.#offset++] as number;
      if (byte < this.#acceptBelow) code += this.#alphabet.charAt(byte % size);
    }
    return code;
  }
}
