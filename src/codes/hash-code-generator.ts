import { createHash } from 'node:crypto';
import type { CodeGenerator, CodeRequest } from '../ports/code-generator.js';
import { ALPHABETS } from './alphabets.js';

/** Characters of a SHA-256 digest in unpadded base64url: ⌈256 / 6⌉. */
export const DIGEST_CHARACTERS = 43;
const DEFAULT_LENGTH = 6;

export interface HashCodeOptions {
  /** Characters per code, 1..43; 6 by default (SPEC §2). */
  readonly length?: number;
}

/**
 * The `hash` strategy (SPEC §2, seed 000): SHA-256 of the destination (UTF-8), written in
 * base64url (Buffer's 'base64url', the order of ALPHABETS.base64url), cut into windows of
 * `length` characters. Attempt k takes window k, characters [k·length, (k+1)·length), while
 * it fits the 43-character digest; after that it takes the first window of
 * SHA-256(destination + '\n' + k). Destinations are URLs, which hold no raw newline, so a
 * salted input is never another destination's plain one.
 *
 * The same destination always gives the same first code, so a second link to a destination
 * that already has one costs an extra insert round trip: its first candidate is taken and the
 * create must try window 1. That is the measured cost of this strategy (the create counts
 * its inserts; the generator itself never touches the store). The codes reveal nothing of
 * the destination to whoever lacks it, but anyone who knows a destination can compute its
 * code.
 */
export class HashCodeGenerator implements CodeGenerator {
  readonly strategy = 'hash';
  readonly alphabetSize = ALPHABETS.base64url.length;
  /** Hash codes never touch the store before their insert. */
  readonly storeRoundTrips = 0;
  #length: number;

  constructor(options: HashCodeOptions = {}) {
    const length = options.length ?? DEFAULT_LENGTH;
    if (!fitsDigest(length)) {
      throw new RangeError(`A hash code has 1 to ${DIGEST_CHARACTERS} characters.`);
    }
    this.#length = length;
  }

  get length(): number {
    return this.#length;
  }

  /** Any length a digest can fill, 1..43; longer ones are refused (false). */
  growTo(length: number): boolean {
    if (!Number.isInteger(length) || length < 1)
      throw new RangeError('A code has at least one character.');
    if (!fitsDigest(length)) return false;
    this.#length = length;
    return true;
  }

  generate(request: CodeRequest): Promise<string> {
    try {
      return Promise.resolve(this.codeFor(request.destination, request.attempt));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The candidate for `destination` at insert attempt `attempt` (0, 1, 2, ...). */
  codeFor(destination: string, attempt: number): string {
    if (!Number.isSafeInteger(attempt) || attempt < 0) {
      throw new RangeError(`An attempt is a whole number from 0, not ${attempt}.`);
    }
    const length = this.#length;
    const windows = Math.floor(DIGEST_CHARACTERS / length);
    if (attempt < windows) {
      return sha256(destination).slice(attempt * length, (attempt + 1) * length);
    }
    return sha256(`${destination}\n${attempt}`).slice(0, length);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

function fitsDigest(length: number): boolean {
  return Number.isInteger(length) && length >= 1 && length <= DIGEST_CHARACTERS;
}
