import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BloomFilter } from '../../src/codes/bloom-filter.js';
import { ScalableBloomFilter } from '../../src/codes/scalable-bloom-filter.js';

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `count` 7-character base62 codes from a seeded xorshift: the same every run. */
function seededCodes(seed: number, count: number): string[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 62;
  };
  return Array.from({ length: count }, () => {
    let code = '';
    for (let i = 0; i < 7; i++) code += BASE62.charAt(next());
    return code;
  });
}

function falsePositiveRate(contains: (code: string) => boolean, probes: string[]): number {
  return probes.filter(contains).length / probes.length;
}

describe('BloomFilter', () => {
  test('never forgets a code it was given', () => {
    const filter = new BloomFilter(50_000, 0.005, 7);
    const codes = seededCodes(1, 50_000);
    for (const code of codes) filter.add(code);
    assert.ok(codes.every((code) => filter.mightContain(code)));
  });

  test('at capacity, false positives stay near the target rate', () => {
    const filter = new BloomFilter(50_000, 0.005, 7);
    for (const code of seededCodes(1, 50_000)) filter.add(code);
    const rate = falsePositiveRate((code) => filter.mightContain(code), seededCodes(2, 50_000));
    // Far above means the hashes are not independent; far below, the sizing is wrong.
    assert.ok(rate > 0.001 && rate < 0.01, `false-positive rate ${rate}`);
  });

  test('a code added twice counts once', () => {
    const filter = new BloomFilter(100, 0.01, 1);
    assert.equal(filter.add('Abc1234'), true);
    assert.equal(filter.add('Abc1234'), false);
    assert.equal(filter.count, 1);
    assert.equal(filter.mightContain('Abc1235'), false);
  });

  test('the seed changes which bits a code sets', () => {
    const one = new BloomFilter(1000, 0.01, 1);
    const other = new BloomFilter(1000, 0.01, 2);
    const codes = seededCodes(3, 500);
    for (const code of codes) one.add(code);
    for (const code of codes) other.add(code);
    const probes = seededCodes(4, 20_000);
    const passOne = probes.filter((code) => one.mightContain(code));
    const passBoth = passOne.filter((code) => other.mightContain(code));
    assert.ok(passOne.length > 0);
    assert.ok(passBoth.length < passOne.length / 4, 'false positives differ by seed');
  });

  test('is sized by the textbook formula: ~9.6 bits a code at 1%', () => {
    const filter = new BloomFilter(1_000_000, 0.01, 0);
    assert.ok(Math.abs(filter.byteLength - 1_198_132) < 64, `${filter.byteLength} bytes`);
  });

  test('refuses a capacity below one or a rate outside (0, 1)', () => {
    assert.throws(() => new BloomFilter(0, 0.01, 0), RangeError);
    assert.throws(() => new BloomFilter(10, 0, 0), RangeError);
    assert.throws(() => new BloomFilter(10, 1, 0), RangeError);
    assert.throws(() => new BloomFilter(Number.NaN, 0.01, 0), RangeError);
  });
});

describe('ScalableBloomFilter', () => {
  test('grows by layers four times larger and forgets nothing', () => {
    const filter = new ScalableBloomFilter({
      initialCapacity: 1000,
      falsePositiveRate: 0.005,
      seed: 9,
    });
    const codes = seededCodes(5, 20_000);
    for (const code of codes) filter.add(code);
    assert.equal(filter.layerCount, 3, '1,000 + 4,000 + 16,000 hold 20,000');
    assert.ok(codes.every((code) => filter.mightContain(code)));
    // A code the filter already (falsely) reports is not added again, so count may lag.
    assert.ok(filter.count > 19_800 && filter.count <= 20_000, `count ${filter.count}`);
  });

  test('its false-positive rate stays within the sum of its layers', () => {
    const filter = new ScalableBloomFilter({
      initialCapacity: 1000,
      falsePositiveRate: 0.005,
      seed: 9,
    });
    for (const code of seededCodes(5, 20_000)) filter.add(code);
    const rate = falsePositiveRate((code) => filter.mightContain(code), seededCodes(6, 50_000));
    assert.ok(rate < 0.015, `false-positive rate ${rate}`);
  });

  test('reserved before the first add, it holds that many in one layer', () => {
    const filter = new ScalableBloomFilter({
      initialCapacity: 1000,
      falsePositiveRate: 0.005,
      seed: 9,
    });
    filter.reserve(20_000);
    assert.equal(filter.byteLength, new BloomFilter(20_000, 0.005, 9).byteLength);
    const codes = seededCodes(5, 20_000);
    for (const code of codes) filter.add(code);
    assert.equal(filter.layerCount, 1, 'grown by layers, it took three (the test above)');
    assert.ok(codes.every((code) => filter.mightContain(code)));
    const rate = falsePositiveRate((code) => filter.mightContain(code), seededCodes(6, 50_000));
    assert.ok(rate < 0.0075, `false-positive rate ${rate}: one layer's, about 0.5%`);
    // A code the filter already (falsely) reports is not added, so the layer may not be
    // quite full yet: a hundred more fill it.
    const beyond = seededCodes(7, 100);
    for (const code of beyond) filter.add(code);
    assert.equal(filter.layerCount, 2, 'past the reserve it grows as before');
    assert.ok(beyond.every((code) => filter.mightContain(code)));
  });

  test('a reserve changes nothing once a code is in, or when the first layer is large enough', () => {
    const filled = new ScalableBloomFilter({
      initialCapacity: 10,
      falsePositiveRate: 0.01,
      seed: 0,
    });
    filled.add('Abc1234');
    const before = filled.byteLength;
    filled.reserve(1000);
    assert.equal(filled.byteLength, before);
    assert.ok(filled.mightContain('Abc1234'), 'nothing added is forgotten');
    const large = new ScalableBloomFilter({
      initialCapacity: 1000,
      falsePositiveRate: 0.01,
      seed: 0,
    });
    const largeBytes = large.byteLength;
    large.reserve(500);
    large.reserve(Number.NaN);
    assert.equal(large.byteLength, largeBytes);
  });

  test('a fresh filter contains nothing and holds one layer', () => {
    const filter = new ScalableBloomFilter({
      initialCapacity: 10,
      falsePositiveRate: 0.01,
      seed: 0,
    });
    assert.equal(filter.layerCount, 1);
    assert.equal(filter.count, 0);
    assert.equal(filter.mightContain('Abc1234'), false);
  });
});
