import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { fixedWidthCode, KeyedPermutation } from '../../src/codes/keyed-permutation.js';

const KEY = Buffer.from('0123456789abcdef0123456789abcdef');
const BASE62 = ALPHABETS.base62;

describe('KeyedPermutation', () => {
  test('is a bijection on [0, 62^2), checked exhaustively, and on a size that is no power of two', () => {
    for (const size of [62 ** 2, 1_000, 2]) {
      const permutation = new KeyedPermutation(KEY, size);
      const seen = new Uint8Array(size);
      for (let value = 0; value < size; value++) {
        const image = permutation.apply(value);
        assert.ok(Number.isInteger(image) && image >= 0 && image < size, `${image} in range`);
        assert.equal(seen[image], 0, `${image} reached twice (size ${size})`);
        seen[image] = 1;
      }
    }
  });

  test('is the same permutation for the same key, and another for another key', () => {
    const size = 62 ** 3;
    const one = new KeyedPermutation(KEY, size);
    const again = new KeyedPermutation(Buffer.from(KEY), size);
    const other = new KeyedPermutation(Buffer.from('fedcba9876543210fedcba9876543210'), size);
    let differ = 0;
    for (let value = 0; value < 200; value++) {
      assert.equal(one.apply(value), again.apply(value));
      if (one.apply(value) !== other.apply(value)) differ++;
    }
    assert.ok(differ > 190, `${differ} of 200 differ under another key`);
  });

  test('consecutive counters give unrelated codes', () => {
    const length = 7;
    const permutation = new KeyedPermutation(KEY, 62 ** length);
    const count = 2_000;
    const codes = Array.from({ length: count }, (_, counter) =>
      fixedWidthCode(permutation.apply(1_000_000 + counter), BASE62, length),
    );
    let differingPositions = 0;
    let neighbours = 0;
    for (let index = 1; index < count; index++) {
      const previous = codes[index - 1] ?? '';
      const current = codes[index] ?? '';
      for (let position = 0; position < length; position++) {
        if (previous[position] !== current[position]) differingPositions++;
      }
      const gap = Math.abs(
        permutation.apply(1_000_000 + index) - permutation.apply(1_000_000 + index - 1),
      );
      if (gap < 62 ** 4) neighbours++;
    }
    // Unrelated codes differ in 7 · 61/62 ≈ 6.89 positions on average; counters in order
    // would share their leading characters.
    const mean = differingPositions / (count - 1);
    assert.ok(mean > 6.7, `consecutive codes differ in ${mean.toFixed(2)} positions on average`);
    // Two random values land within 62^4 of each other with probability about 2/62^3.
    assert.ok(neighbours <= 2, `${neighbours} consecutive pairs landed close together`);
    assert.equal(new Set(codes).size, count);
  });

  test('refuses a short key, a domain too small or too large, and values outside it', () => {
    assert.throws(() => new KeyedPermutation(Buffer.from('short'), 100), /at least 16 bytes/);
    assert.throws(() => new KeyedPermutation(KEY, 1), /at least 2 values/);
    assert.throws(() => new KeyedPermutation(KEY, 2 ** 53 + 2), /whole number of values/);
    assert.throws(() => new KeyedPermutation(KEY, 2 ** 52 + 1), /at most 2\^52 values/);
    const permutation = new KeyedPermutation(KEY, 100);
    assert.throws(() => permutation.apply(100), /outside \[0, 100\)/);
    assert.throws(() => permutation.apply(-1), /outside/);
    assert.throws(() => permutation.apply(1.5), /outside/);
  });
});

describe('fixedWidthCode', () => {
  test('writes a value in the alphabet, padded with its zero to exactly the length', () => {
    assert.equal(fixedWidthCode(0, BASE62, 7), '0000000');
    assert.equal(fixedWidthCode(61, BASE62, 3), '00Z');
    assert.equal(fixedWidthCode(62, BASE62, 3), '010');
    assert.equal(fixedWidthCode(62 ** 7 - 1, BASE62, 7), 'ZZZZZZZ');
    assert.throws(() => fixedWidthCode(62 ** 3, BASE62, 3), /does not fit 3 characters/);
    assert.throws(() => fixedWidthCode(-1, BASE62, 3), /does not fit/);
  });
});
