import assert from 'node:assert/strict';
import { createHash, randomFillSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, test, type TestContext } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { HashCodeGenerator } from '../../src/codes/hash-code-generator.js';
import { fixedWidthCode, KeyedPermutation } from '../../src/codes/keyed-permutation.js';
import { RandomCodeGenerator } from '../../src/codes/random-code-generator.js';
import {
  SNOWFLAKE_EPOCH_MS,
  SnowflakeCodeGenerator,
} from '../../src/codes/snowflake-code-generator.js';
import { volume } from '../support/volume.js';

/**
 * Property tests of the code strategies (SPEC §2) at many codes each: no duplicates, fixed
 * length, only the alphabet's characters. `npm test` draws 200,000 of each and
 * `npm run test:scale` a million; the times are reported as diagnostics, never asserted.
 */

const MANY = volume(200_000, 1_000_000);
const MANY_TEXT = MANY.toLocaleString('en');
const BASE62 = ALPHABETS.base62;
const BASE62_CODE = /^[0-9a-zA-Z]+$/;
const BASE64URL_CODE = /^[A-Za-z0-9_-]+$/;

/** Runs `body`, reports its wall time as a diagnostic, returns its result. */
function timed<T>(t: TestContext, label: string, body: () => T): T {
  const started = performance.now();
  const result = body();
  t.diagnostic(`${label}: ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return result;
}

/** Pearson's statistic of observed counts against a uniform distribution. */
function chiSquare(counts: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  const expected = total / counts.length;
  let sum = 0;
  for (let i = 0; i < counts.length; i++) sum += (counts[i]! - expected) ** 2 / expected;
  return sum;
}

/**
 * The 0.9999 quantile of the chi-square distribution with 61 degrees of freedom (base62:
 * 62 characters − 1), from scipy.stats.chi2.ppf(0.9999, 61) = 110.84 (the Wilson–Hilferty
 * approximation gives 111.0). A uniform generator exceeds it once in 10,000 runs: with a real
 * CSPRNG this test is not deterministic, and that is its false-alarm rate.
 */
const CHI2_0_9999_DF61 = 110.84;

describe('random (CSPRNG, rejection sampling)', () => {
  const randomBytes = (buffer: Uint8Array): void => {
    randomFillSync(buffer);
  };

  test(`${MANY_TEXT} codes of length 10: no duplicate, all 10 characters of base62`, (t) => {
    // Length 10, not the default 7: at 7 a million random codes collide with probability
    // ≈ n²/2N = 1e12 / (2 · 62^7) ≈ 0.14 (birthday bound), so this test would fail one run
    // in seven. At 7, uniqueness is the store's conditional insert's job (tested with the
    // store); at 10 the bound is 1e12 / (2 · 62^10) ≈ 6e-7.
    const generator = new RandomCodeGenerator({ alphabet: BASE62, length: 10, randomBytes });
    const seen = timed(t, `${MANY_TEXT} random codes`, () => {
      const codes = new Set<string>();
      for (let i = 0; i < MANY; i++) {
        const code = generator.generateSync();
        assert.ok(code.length === 10 && BASE62_CODE.test(code), code);
        codes.add(code);
      }
      return codes;
    });
    assert.equal(seen.size, MANY);
  });

  const CODES = 200_000;
  const LENGTH = 7;

  test(`chi-square of ${CODES} codes × ${LENGTH} characters is below the 0.9999 quantile (df 61)`, (t) => {
    const generator = new RandomCodeGenerator({ alphabet: BASE62, length: LENGTH, randomBytes });
    const index = new Int32Array(128).fill(-1);
    for (let i = 0; i < BASE62.length; i++) index[BASE62.charCodeAt(i)] = i;
    const counts = new Float64Array(BASE62.length);
    for (let i = 0; i < CODES; i++) {
      const code = generator.generateSync();
      for (let position = 0; position < LENGTH; position++) {
        counts[index[code.charCodeAt(position)]!]!++;
      }
    }
    const statistic = chiSquare(counts);
    t.diagnostic(`chi-square ${statistic.toFixed(1)} (bound ${CHI2_0_9999_DF61}, mean 61)`);
    assert.ok(statistic < CHI2_0_9999_DF61, `chi-square ${statistic.toFixed(1)}`);
  });

  test('the statistic can fail: byte % 62 on the same number of CSPRNG bytes is far above it', (t) => {
    const bytes = randomFillSync(new Uint8Array(CODES * LENGTH));
    const counts = new Float64Array(BASE62.length);
    for (const byte of bytes) counts[byte % 62]!++;
    const statistic = chiSquare(counts);
    // Characters 0..7 get 5/256 of the bytes instead of 4/256: N · 62 · Σ(p − 1/62)² ≈ 9,200.
    t.diagnostic(`biased chi-square ${statistic.toFixed(1)}`);
    assert.ok(statistic > 10 * CHI2_0_9999_DF61, `biased chi-square only ${statistic.toFixed(1)}`);
  });
});

describe('snowflake', () => {
  /** Reads a code back into its fields, with BigInt: the guessability SPEC §2 documents. */
  function decode(code: string): { ms: number; workerId: number; sequence: number } {
    let id = 0n;
    for (const ch of code) id = id * 62n + BigInt(BASE62.indexOf(ch));
    return {
      ms: Number(id >> 22n),
      workerId: Number((id >> 12n) & 1023n),
      sequence: Number(id & 4095n),
    };
  }

  const START_MS = Date.UTC(2026, 2, 1);

  test(`${MANY_TEXT} codes under a slow fake clock: no duplicate, all 11 characters of base62`, (t) => {
    // Ten phases. The clock advances 1 ms every 10,000 codes in odd phases (more than the
    // 4,096 codes a millisecond holds: the sequence overflows and the logical time runs ahead
    // of the clock) and every 1,000 codes in even phases (the clock catches up again: a fast
    // phase of P codes leaves the logical time P/4,096 − P/10,000 ms ahead — 14 ms at a
    // million codes, 3 ms at 200,000 — and at 1,000 codes a millisecond the clock gains about
    // 0.76 ms per ms on it, level well within a phase). The clock stands still while a
    // millisecond overflows, so a generator that waited for it would hang.
    const PHASE = MANY / 10;
    let issued = 0;
    let clockMs = START_MS;
    let stepCounter = 0;
    const generator = new SnowflakeCodeGenerator({ workerId: 17, now: () => clockMs });
    let ranAhead = 0;
    let caughtUp = 0;
    const seen = timed(t, `${MANY_TEXT} snowflake codes`, () => {
      const codes = new Set<string>();
      while (issued < MANY) {
        const perMs = Math.floor(issued / PHASE) % 2 === 1 ? 10_000 : 1_000;
        if (++stepCounter >= perMs) {
          clockMs++;
          stepCounter = 0;
        }
        const code = generator.generateSync();
        assert.ok(code.length === 11 && BASE62_CODE.test(code), code);
        codes.add(code);
        issued++;
        if (issued % PHASE === 0) {
          // At the end of a phase: where is the logical time against the clock?
          const lead = decode(code).ms - (clockMs - SNOWFLAKE_EPOCH_MS);
          if (lead > 0) ranAhead++;
          if (lead === 0) caughtUp++;
        }
      }
      return codes;
    });
    assert.equal(seen.size, MANY);
    assert.equal(ranAhead, 5, 'every fast phase overflowed its milliseconds');
    assert.equal(caughtUp, 5, 'every slow phase let the clock catch up');
  });

  test('a clock jumping back 5 s mid-stream gives no duplicate', () => {
    let clockMs = START_MS;
    const generator = new SnowflakeCodeGenerator({ workerId: 3, now: () => clockMs });
    const codes = new Set<string>();
    const emit = (count: number): string => {
      let code = '';
      for (let i = 0; i < count; i++) {
        if (i % 3_000 === 2_999) clockMs++;
        code = generator.generateSync();
        codes.add(code);
      }
      return code;
    };
    const beforeJump = decode(emit(150_000));
    clockMs -= 5_000;
    const first = generator.generateSync();
    codes.add(first);
    const afterJump = decode(first);
    // The first code after the jump carries the last time, not the earlier clock.
    assert.equal(afterJump.ms, beforeJump.ms);
    assert.equal(afterJump.sequence, beforeJump.sequence + 1);
    emit(150_000);
    // Then the clock passes the logical time again, and codes follow it.
    clockMs += 10_000;
    emit(50_000);
    assert.equal(codes.size, 350_001);
  });

  test('two workers at the same instant give different codes, each with its worker id inside', () => {
    const at = () => START_MS + 123;
    const a = new SnowflakeCodeGenerator({ workerId: 1, now: at });
    const b = new SnowflakeCodeGenerator({ workerId: 2, now: at });
    const codeA = a.generateSync();
    const codeB = b.generateSync();
    assert.notEqual(codeA, codeB);
    // Anyone can read the worker id and the creation time back out of a code.
    assert.deepEqual(decode(codeA), {
      ms: START_MS + 123 - SNOWFLAKE_EPOCH_MS,
      workerId: 1,
      sequence: 0,
    });
    assert.deepEqual(decode(codeB), {
      ms: START_MS + 123 - SNOWFLAKE_EPOCH_MS,
      workerId: 2,
      sequence: 0,
    });
    assert.equal(
      new Date(SNOWFLAKE_EPOCH_MS + decode(codeA).ms).toISOString(),
      '2026-03-01T00:00:00.123Z',
    );
  });
});

describe('hash', () => {
  test('the same destination gives the same first code, from any generator', () => {
    const destination = 'https://example.com/some/page?x=1';
    assert.equal(
      new HashCodeGenerator().codeFor(destination, 0),
      new HashCodeGenerator().codeFor(destination, 0),
    );
  });

  test('attempts 0..20 give 21 distinct codes (7 windows, then salted digests)', () => {
    const generator = new HashCodeGenerator();
    for (const destination of ['', 'https://example.com/', 'https://example.org/a?b=c']) {
      const codes = Array.from({ length: 21 }, (_, k) => generator.codeFor(destination, k));
      assert.equal(new Set(codes).size, 21, destination);
    }
  });

  test(`${MANY_TEXT} distinct destinations against a Set standing in for the conditional insert`, (t) => {
    const MAX_ATTEMPTS = 8;
    const generator = new HashCodeGenerator();
    let extraAttempts = 0;
    const taken = timed(t, `${MANY_TEXT} hash codes`, () => {
      const store = new Set<string>();
      for (let i = 0; i < MANY; i++) {
        const destination = `https://example.com/articles/${i}`;
        let attempt = 0;
        for (;;) {
          const code = generator.codeFor(destination, attempt);
          assert.ok(code.length === 6 && BASE64URL_CODE.test(code), code);
          if (!store.has(code)) {
            store.add(code);
            break;
          }
          attempt++;
          assert.ok(attempt < MAX_ATTEMPTS, `${destination}: ${MAX_ATTEMPTS} codes taken`);
        }
        extraAttempts += attempt;
      }
      return store;
    });
    // Expected ≈ n²/2N: 1e12 / (2 · 64^6) ≈ 7 first windows already taken at a million.
    t.diagnostic(`extra insert attempts over ${MANY_TEXT} destinations: ${extraAttempts}`);
    assert.equal(taken.size, MANY);
  });
});

describe('permutation', () => {
  test(`counters 0..${(MANY - 1).toLocaleString('en')} through a keyed permutation of [0, 62^7): ${MANY_TEXT} distinct codes`, (t) => {
    const key = createHash('sha256').update('hop code-strategies test key').digest();
    assert.equal(key.length, 32);
    const permutation = new KeyedPermutation(key, 62 ** 7);
    const seen = timed(t, `${MANY_TEXT} permutation codes`, () => {
      const codes = new Set<string>();
      for (let counter = 0; counter < MANY; counter++) {
        const code = fixedWidthCode(permutation.apply(counter), BASE62, 7);
        assert.ok(code.length === 7 && BASE62_CODE.test(code), code);
        codes.add(code);
      }
      return codes;
    });
    assert.equal(seen.size, MANY);
  });
});
