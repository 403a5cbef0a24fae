import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import {
  SNOWFLAKE_EPOCH_MS,
  SnowflakeCodeGenerator,
} from '../../src/codes/snowflake-code-generator.js';
import { HopError } from '../../src/domain/errors.js';

/** SPEC §2, strategy `snowflake`: 41 bits of ms since 2026-01-01Z, 10 of worker, 12 of sequence. */

const BASE62 = ALPHABETS.base62;

/** The fields of a code, read back with BigInt (independently of the generator's arithmetic). */
function decode(code: string): { ms: number; workerId: number; sequence: number } {
  let id = 0n;
  for (const ch of code) {
    const digit = BASE62.indexOf(ch);
    assert.ok(digit >= 0, `${ch} in ${code}`);
    id = id * 62n + BigInt(digit);
  }
  return {
    ms: Number(id >> 22n),
    workerId: Number((id >> 12n) & 1023n),
    sequence: Number(id & 4095n),
  };
}

/** A clock that stays where it is set. */
function fixedClock(ms: number): { now: () => number; set: (to: number) => void } {
  let at = ms;
  return {
    now: () => at,
    set: (to) => {
      at = to;
    },
  };
}

describe('construction', () => {
  test('refuses a worker id outside 0..1023 or not whole', () => {
    for (const workerId of [-1, 1024, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(
        () => new SnowflakeCodeGenerator({ workerId, now: Date.now }),
        /worker id is a whole number in 0\.\.1023/,
        String(workerId),
      );
    }
    for (const workerId of [0, 1023]) {
      assert.doesNotThrow(() => new SnowflakeCodeGenerator({ workerId, now: Date.now }));
    }
  });

  test('reports strategy, base62, 11 characters and no store round trips', () => {
    const generator = new SnowflakeCodeGenerator({ workerId: 1, now: Date.now });
    assert.equal(generator.strategy, 'snowflake');
    assert.equal(generator.alphabetSize, 62);
    assert.equal(generator.length, 11);
    assert.equal(generator.storeRoundTrips, 0);
  });

  test('growTo refuses every length: the codes stay 11 characters', () => {
    const generator = new SnowflakeCodeGenerator({ workerId: 1, now: Date.now });
    for (const length of [8, 11, 12, 20]) assert.equal(generator.growTo(length), false);
    assert.throws(() => generator.growTo(0), RangeError);
    assert.equal(generator.length, 11);
    assert.equal(generator.generateSync().length, 11);
  });
});

describe('encoding', () => {
  test('writes time, worker and sequence most significant first, padded to 11', () => {
    const clock = fixedClock(SNOWFLAKE_EPOCH_MS);
    assert.equal(
      new SnowflakeCodeGenerator({ workerId: 0, now: clock.now }).generateSync(),
      '0'.repeat(11),
    );
    // Worker 1, sequence 0: the id is 2^12 = 4096 = 1·62² + 4·62 + 4.
    assert.equal(
      new SnowflakeCodeGenerator({ workerId: 1, now: clock.now }).generateSync(),
      '00000000144',
    );
    // The largest id, 2^63 − 1: the last millisecond of the time field, worker 1023, sequence 4095.
    clock.set(SNOWFLAKE_EPOCH_MS + 2 ** 41 - 1);
    const last = new SnowflakeCodeGenerator({ workerId: 1023, now: clock.now });
    for (let i = 0; i < 4095; i++) last.generateSync();
    assert.equal(last.generateSync(), 'aZl8N0y58M7');
  });

  test('a code read back gives its millisecond, worker id and sequence', () => {
    const at = Date.UTC(2026, 6, 14, 12, 30, 15, 123);
    const generator = new SnowflakeCodeGenerator({ workerId: 5, now: () => at });
    for (let sequence = 0; sequence < 8; sequence++) {
      assert.deepEqual(decode(generator.generateSync()), {
        ms: at - SNOWFLAKE_EPOCH_MS,
        workerId: 5,
        sequence,
      });
    }
  });

  test('generate() resolves to the next code', async () => {
    const at = SNOWFLAKE_EPOCH_MS + 1_000;
    const a = new SnowflakeCodeGenerator({ workerId: 9, now: () => at });
    const b = new SnowflakeCodeGenerator({ workerId: 9, now: () => at });
    assert.equal(await a.generate(), b.generateSync());
    assert.equal(await a.generate(), b.generateSync());
  });
});

describe('sequence and clock', () => {
  test('4,096 codes fill a millisecond; the next one moves on to the next ms without waiting', () => {
    const ms = 86_400_000;
    const clock = fixedClock(SNOWFLAKE_EPOCH_MS + ms);
    const generator = new SnowflakeCodeGenerator({ workerId: 3, now: clock.now });
    for (let sequence = 0; sequence < 4096; sequence++) {
      assert.equal(decode(generator.generateSync()).sequence, sequence);
    }
    // The clock has not moved (a spinning generator would hang here).
    assert.deepEqual(decode(generator.generateSync()), { ms: ms + 1, workerId: 3, sequence: 0 });
    // The clock reaching the logical millisecond continues its sequence, not from 0.
    clock.set(SNOWFLAKE_EPOCH_MS + ms + 1);
    assert.deepEqual(decode(generator.generateSync()), { ms: ms + 1, workerId: 3, sequence: 1 });
    // The clock passing it starts a fresh millisecond.
    clock.set(SNOWFLAKE_EPOCH_MS + ms + 2);
    assert.deepEqual(decode(generator.generateSync()), { ms: ms + 2, workerId: 3, sequence: 0 });
  });

  test('a clock going backwards keeps the last time and continues its sequence', () => {
    const ms = 10_000_000;
    const clock = fixedClock(SNOWFLAKE_EPOCH_MS + ms);
    const generator = new SnowflakeCodeGenerator({ workerId: 7, now: clock.now });
    generator.generateSync();
    generator.generateSync();
    clock.set(SNOWFLAKE_EPOCH_MS + ms - 5_000);
    assert.deepEqual(decode(generator.generateSync()), { ms, workerId: 7, sequence: 2 });
    clock.set(SNOWFLAKE_EPOCH_MS + ms - 1);
    assert.deepEqual(decode(generator.generateSync()), { ms, workerId: 7, sequence: 3 });
    clock.set(SNOWFLAKE_EPOCH_MS + ms + 1);
    assert.deepEqual(decode(generator.generateSync()), { ms: ms + 1, workerId: 7, sequence: 0 });
  });

  test('a fractional clock is floored; a clock before the epoch counts as the epoch', () => {
    const generator = new SnowflakeCodeGenerator({
      workerId: 2,
      now: () => SNOWFLAKE_EPOCH_MS + 41.9,
    });
    assert.equal(decode(generator.generateSync()).ms, 41);
    const early = new SnowflakeCodeGenerator({ workerId: 2, now: () => Date.UTC(2020, 0, 1) });
    assert.deepEqual(decode(early.generateSync()), { ms: 0, workerId: 2, sequence: 0 });
    assert.deepEqual(decode(early.generateSync()), { ms: 0, workerId: 2, sequence: 1 });
  });

  test('rejects with code-space-exhausted once the 41-bit time field is full', async () => {
    const clock = fixedClock(SNOWFLAKE_EPOCH_MS + 2 ** 41 - 1);
    const generator = new SnowflakeCodeGenerator({ workerId: 0, now: clock.now });
    for (let i = 0; i < 4096; i++) await generator.generate();
    await assert.rejects(
      generator.generate(),
      (error) => error instanceof HopError && error.kind === 'code-space-exhausted',
    );
    clock.set(SNOWFLAKE_EPOCH_MS + 2 ** 41);
    const later = new SnowflakeCodeGenerator({ workerId: 0, now: clock.now });
    await assert.rejects(later.generate(), HopError);
  });

  test('rejects a clock that reads no number', async () => {
    const generator = new SnowflakeCodeGenerator({ workerId: 0, now: () => Number.NaN });
    await assert.rejects(generator.generate(), RangeError);
  });
});
