import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { HashCodeGenerator } from '../../src/codes/hash-code-generator.js';

/** SPEC §2, strategy `hash`: SHA-256 of the destination → base64url → a window of 6 chars. */

/** SHA-256('') in base64url, 43 characters: the windows of the empty destination. */
const EMPTY_DIGEST = '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU';

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

describe('construction', () => {
  test('reports strategy, base64url, length 6 by default and no store round trips', () => {
    const generator = new HashCodeGenerator();
    assert.equal(generator.strategy, 'hash');
    assert.equal(generator.alphabetSize, 64);
    assert.equal(generator.alphabetSize, ALPHABETS.base64url.length);
    assert.equal(generator.length, 6);
    assert.equal(generator.storeRoundTrips, 0);
    assert.equal(new HashCodeGenerator({ length: 9 }).length, 9);
  });

  test('refuses a length outside 1..43 (what one digest holds) or not whole', () => {
    for (const length of [0, -1, 44, 1.5, Number.NaN]) {
      assert.throws(() => new HashCodeGenerator({ length }), /1 to 43 characters/, String(length));
    }
    assert.equal(new HashCodeGenerator({ length: 43 }).codeFor('', 0), EMPTY_DIGEST);
  });
});

describe('windows', () => {
  test('the empty destination still hashes: attempt k is window k of SHA-256("")', () => {
    const generator = new HashCodeGenerator();
    assert.equal(generator.codeFor('', 0), '47DEQp');
    assert.equal(generator.codeFor('', 1), 'j8HBSa');
    // Seven windows of 6 fit 43 characters; the last one is characters 36..41.
    assert.equal(generator.codeFor('', 6), 'G3hSuF');
    // Then salted: the first window of SHA-256('' + '\n' + 7).
    assert.equal(generator.codeFor('', 7), 'a5vW1Z');
  });

  test('attempt k < 7 is window k of the digest; k ≥ 7 the first window of a salted one', () => {
    const generator = new HashCodeGenerator();
    const destination = 'https://example.com/ünïcødé?q=1#frag';
    const full = digest(destination);
    for (let k = 0; k < 7; k++) {
      assert.equal(generator.codeFor(destination, k), full.slice(k * 6, k * 6 + 6), `k=${k}`);
    }
    for (const k of [7, 8, 100]) {
      assert.equal(generator.codeFor(destination, k), digest(`${destination}\n${k}`).slice(0, 6));
    }
  });

  test('generate() resolves to codeFor(destination, attempt)', async () => {
    const generator = new HashCodeGenerator();
    const destination = 'https://example.com/a';
    for (const attempt of [0, 3, 9]) {
      assert.equal(
        await generator.generate({ destination, attempt }),
        generator.codeFor(destination, attempt),
      );
    }
  });

  test('rejects an attempt that is negative or not whole', async () => {
    const generator = new HashCodeGenerator();
    for (const attempt of [-1, 1.5, Number.NaN]) {
      await assert.rejects(generator.generate({ destination: 'x', attempt }), RangeError);
    }
  });
});

describe('growTo', () => {
  test('grows to any length a digest holds; windows follow the new length', () => {
    const generator = new HashCodeGenerator();
    assert.equal(generator.growTo(7), true);
    assert.equal(generator.length, 7);
    assert.equal(generator.codeFor('', 0), '47DEQpj');
    assert.equal(generator.codeFor('', 5), EMPTY_DIGEST.slice(35, 42));
    assert.equal(generator.codeFor('', 6), digest('\n6').slice(0, 7));
    assert.equal(generator.growTo(22), true);
    assert.equal(generator.codeFor('', 0), EMPTY_DIGEST.slice(0, 22));
    assert.equal(generator.codeFor('', 1), digest('\n1').slice(0, 22));
  });

  test('refuses lengths beyond 43 (false, length unchanged) and throws on nonsense', () => {
    const generator = new HashCodeGenerator();
    assert.equal(generator.growTo(43), true);
    assert.equal(generator.growTo(44), false);
    assert.equal(generator.length, 43);
    assert.throws(() => generator.growTo(0), RangeError);
    assert.throws(() => generator.growTo(2.5), RangeError);
  });
});
