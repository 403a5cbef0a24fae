import { HopError } from '../domain/errors.js';
import type { CodeGenerator } from '../ports/code-generator.js';
import { ALPHABETS } from './alphabets.js';

/** The custom epoch: ids count milliseconds from 2026-01-01T00:00:00Z. */
export const SNOWFLAKE_EPOCH_MS = Date.UTC(2026, 0, 1);
/** Bits of the id: 41 of milliseconds, 10 of worker id, 12 of sequence (63 in all). */
export const SNOWFLAKE_WORKER_BITS = 10;
export const SNOWFLAKE_SEQUENCE_BITS = 12;
export const SNOWFLAKE_TIME_BITS = 41;
/** Worker ids are 0..1023. */
export const MAX_WORKER_ID = 2 ** SNOWFLAKE_WORKER_BITS - 1;
/** Codes within one millisecond: 0..4095. */
const MAX_SEQUENCE = 2 ** SNOWFLAKE_SEQUENCE_BITS - 1;
/** 2^41 ms after the epoch (September 2095) the time field is full. */
const TIME_LIMIT = 2 ** SNOWFLAKE_TIME_BITS;
/** The worker id and sequence together: the low 22 bits of the id. */
const LOW = 2 ** (SNOWFLAKE_WORKER_BITS + SNOWFLAKE_SEQUENCE_BITS);
/**
 * Every code has 11 characters. A 63-bit id needs up to 11 base62 digits (62^10 < 2^63 <
 * 62^11), but an id written without padding would have 10 until about 2032 (62^10 / 2^22 ms
 * after the epoch) and 11 after: padding keeps `length` true for every code this strategy
 * will ever give, so the guess probability and code-shape checks need no special case.
 */
const CODE_LENGTH = 11;

export interface SnowflakeCodeOptions {
  /** This instance's worker id, 0..1023; instances that share a store need distinct ones. */
  readonly workerId: number;
  /** The clock, in epoch milliseconds (Date.now in production; a fake one in tests). */
  readonly now: () => number;
}

/**
 * The `snowflake` strategy (SPEC §2, seeds 000/001): a 64-bit id of 41 bits of milliseconds
 * since 2026-01-01Z, a 10-bit worker id and a 12-bit sequence, written in base62 (most
 * significant digit first) and padded with the alphabet's zero to 11 characters.
 *
 * Snowflake codes are GUESSABLE, as SPEC §2 documents: the creation time and the worker id
 * can be read back from a code, and codes made close together are close together (the next
 * code of a worker is usually the previous one plus one). It is the one strategy exempt from
 * "no ordering, no relation to creation time"; do not use it where links must stay private.
 *
 * Codes of one generator never repeat, by construction:
 * - More than 4,096 codes in one millisecond: the generator moves on to the next millisecond
 *   logically, without waiting for the clock (no spinning). Its logical time then runs ahead
 *   of the clock until the clock catches up.
 * - The clock going backwards (an NTP step, a VM migration): the generator keeps a logical
 *   last timestamp = max(last, now) and continues its sequence from it, so an earlier
 *   (millisecond, sequence) pair is never issued again; codes carry the later time until the
 *   clock passes it. A clock before the epoch counts as the epoch itself.
 * The logical time lives in memory: a restart with the clock set back, or two instances with
 * the same worker id, can propose a taken code, which the store's conditional insert refuses
 * and the create asks again (the next sequence number).
 */
export class SnowflakeCodeGenerator implements CodeGenerator {
  readonly strategy = 'snowflake';
  readonly alphabetSize = ALPHABETS.base62.length;
  readonly length = CODE_LENGTH;
  /** Snowflake codes never touch the store before their insert. */
  readonly storeRoundTrips = 0;
  readonly #workerId: number;
  readonly #now: () => number;
  /** The logical time of the last code, in ms since the epoch; -1 before the first. */
  #lastMs = -1;
  #sequence = 0;

  constructor(options: SnowflakeCodeOptions) {
    const { workerId } = options;
    if (!Number.isInteger(workerId) || workerId < 0 || workerId > MAX_WORKER_ID) {
      throw new RangeError(`A snowflake worker id is a whole number in 0..${MAX_WORKER_ID}.`);
    }
    this.#workerId = workerId;
    this.#now = options.now;
  }

  /** The id space grows with time, not with length: the codes stay 11 characters (false). */
  growTo(length: number): boolean {
    if (!Number.isInteger(length) || length < 1)
      throw new RangeError('A code has at least one character.');
    return false;
  }

  generate(): Promise<string> {
    try {
      return Promise.resolve(this.generateSync());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  generateSync(): string {
    const now = this.#now();
    if (!Number.isFinite(now)) throw new RangeError(`The clock read ${now}.`);
    const ms = Math.max(0, Math.floor(now - SNOWFLAKE_EPOCH_MS));
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      this.#sequence = 0;
    } else if (this.#sequence < MAX_SEQUENCE) {
      // The same millisecond, or a clock behind the logical time: continue from the last.
      this.#sequence++;
    } else {
      // The millisecond's 4,096 codes are spent: take the next one without waiting for it.
      this.#lastMs++;
      this.#sequence = 0;
    }
    if (this.#lastMs >= TIME_LIMIT) {
      throw new HopError(
        'code-space-exhausted',
        'The snowflake time field is full (2^41 ms after 2026-01-01).',
      );
    }
    return encode(this.#lastMs, this.#workerId * (MAX_SEQUENCE + 1) + this.#sequence);
  }
}

/**
 * The id `high · 2^22 + low` in base62, 11 digits. The id has 63 bits, beyond a double's
 * 53, so it is kept as two numbers and divided by 62 limb by limb: with high = 62q + r,
 * the id is 62 · (q · 2^22 + ⌊(r · 2^22 + low) / 62⌋) + (r · 2^22 + low) mod 62, and
 * r · 2^22 + low < 62 · 2^22 keeps every step exact (and the new low below 2^22).
 */
function encode(high: number, low: number): string {
  const alphabet = ALPHABETS.base62;
  const digits = new Array<string>(CODE_LENGTH);
  let h = high;
  let l = low;
  for (let position = CODE_LENGTH - 1; position >= 0; position--) {
    const r = h % 62;
    h = Math.floor(h / 62);
    const t = r * LOW + l;
    l = Math.floor(t / 62);
    digits[position] = alphabet.charAt(t % 62);
  }
  return digits.join('');
}
