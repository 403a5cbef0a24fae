import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { RandomCodeGenerator, type RandomBytes } from '../../src/codes/random-code-generator.js';
import { mulberry32 } from '../support/seeded-random.js';

/**
 * SPEC §2, strategy `random`: CSPRNG bytes, rejection sampling (no modulo bias). The tests
 * drive the generator with deterministic byte sources, so every run sees the same bytes.
 */

const BASE62 = ALPHABETS.base62;
const BASE64URL = ALPHABETS.base64url;

/** Fills buffers with the top byte of successive mulberry32 outputs. */
function seededBytes(seed: number): RandomBytes {
  const next = mulberry32(seed);
  return (buffer) => {
    for (let i = 0; i < buffer.length; i++) buffer[i] = next() >>> 24;
  };
}

/** Replays `script` byte by byte, from the start again when it runs out. */
function scriptedBytes(script: readonly number[]): RandomBytes {
  let position = 0;
  return (buffer) => {
    for (let i = 0; i < buffer.length; i++) {
      buffer[i] = script[position % script.length]!;
      position++;
    }
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** Pearson's statistic of observed counts against a uniform distribution. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
}

function countCharacters(text: string, alphabet: string): number[] {
  const counts = new Array<number>(alphabet.length).fill(0);
  for (const ch of text) {
    const index = alphabet.indexOf(ch);
    assert.ok(index >= 0, `unexpected character ${JSON.stringify(ch)}`);
    counts[index] = counts[index]! + 1;
  }
  return counts;
}

// Upper 0.001 quantiles of the chi-square distribution (df = alphabet size − 1).
const CHI2_CRITICAL_0_001 = { 61: 100.9, 63: 103.4 } as const;
const SAMPLE_CHARACTERS = 200_000;

describe('construction', () => {
  test('refuses alphabets of fewer than 2 or more than 256 characters', () => {
    const randomBytes = seededBytes(1);
    for (const alphabet of ['', 'a', 'x'.repeat(257)]) {
      assert.throws(
        () => new RandomCodeGenerator({ alphabet, length: 7, randomBytes }),
        RangeError,
      );
    }
    assert.doesNotThrow(() => new RandomCodeGenerator({ alphabet: 'ab', length: 7, randomBytes }));
  });

  test('refuses a length that is not a positive whole number', () => {
    const randomBytes = seededBytes(1);
    for (const length of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(
        () => new RandomCodeGenerator({ alphabet: BASE62, length, randomBytes }),
        RangeError,
        String(length),
      );
    }
  });

  test('reports its length', () => {
    const generator = new RandomCodeGenerator({
      alphabet: BASE62,
      length: 9,
      randomBytes: seededBytes(1),
    });
    assert.equal(generator.length, 9);
  });
});

describe('shape of the codes', () => {
  for (const [name, alphabet] of Object.entries(ALPHABETS)) {
    for (const length of [1, 4, 7, 12, 32]) {
      test(`${name}, length ${length}: always exactly ${length} characters of the alphabet`, () => {
        const generator = new RandomCodeGenerator({
          alphabet,
          length,
          randomBytes: seededBytes(length * 1000 + alphabet.length),
        });
        for (let i = 0; i < 2000; i++) {
          const code = generator.generateSync();
          assert.equal(code.length, length);
          for (const ch of code) assert.ok(alphabet.includes(ch), `${ch} in ${code}`);
        }
      });
    }
  }

  test('generate() resolves to a code like generateSync()', async () => {
    const a = new RandomCodeGenerator({ alphabet: BASE62, length: 7, randomBytes: seededBytes(5) });
    const b = new RandomCodeGenerator({ alphabet: BASE62, length: 7, randomBytes: seededBytes(5) });
    assert.equal(await a.generate(), b.generateSync());
  });

  test('all randomness comes from randomBytes: the same bytes give the same codes', () => {
    const make = (seed: number) =>
      new RandomCodeGenerator({ alphabet: BASE62, length: 7, randomBytes: seededBytes(seed) });
    const [a, b, c] = [make(42), make(42), make(43)];
    const fromA = Array.from({ length: 50 }, () => a.generateSync());
    const fromB = Array.from({ length: 50 }, () => b.generateSync());
    const fromC = Array.from({ length: 50 }, () => c.generateSync());
    assert.deepEqual(fromA, fromB);
    assert.notDeepEqual(fromA, fromC);
  });
});

describe('rejection sampling (base62: 256 = 4·62 + 8, so bytes 248..255 are rejected)', () => {
  test('every byte below 248 maps to alphabet[byte % 62]', () => {
    for (let byte = 0; byte < 248; byte++) {
      const generator = new RandomCodeGenerator({
        alphabet: BASE62,
        length: 7,
        randomBytes: scriptedBytes([byte]),
      });
      assert.equal(generator.generateSync(), BASE62.charAt(byte % 62).repeat(7), `byte ${byte}`);
    }
  });

  test('bytes 248..255 are skipped and produce no character', () => {
    const generator = new RandomCodeGenerator({
      alphabet: BASE62,
      length: 7,
      randomBytes: scriptedBytes([...range(248, 256), ...range(0, 200)]),
    });
    // Without rejection the 8 rejected bytes would have given "01234567".
    assert.equal(generator.generateSync(), '0123456');
  });

  test('rejected bytes interleaved with accepted ones are dropped one by one', () => {
    const script = [255, 10, 248, 61, 251, 62, 249, 123, 252, 247, 250, 0, 253, 186];
    const generator = new RandomCodeGenerator({
      alphabet: BASE62,
      length: 7,
      randomBytes: scriptedBytes(script),
    });
    const expected = script
      .filter((b) => b < 248)
      .map((b) => BASE62.charAt(b % 62))
      .join('');
    assert.equal(expected, 'aZ0ZZ00'); // 123, 247 → 61 (Z); 186 → 0
    assert.equal(generator.generateSync(), expected);
  });

  test('a long run of rejected bytes spans many buffer fills and still ends', () => {
    // 800 rejected bytes before every accepted one: each character needs several fills.
    const rejected = Array.from({ length: 800 }, (_, i) => 248 + (i % 8));
    const generator = new RandomCodeGenerator({
      alphabet: BASE62,
      length: 7,
      randomBytes: scriptedBytes([...rejected, 61]),
    });
    assert.equal(generator.generateSync(), 'ZZZZZZZ');
  });

  test('no character of a rejected-heavy stream comes from a rejected byte', () => {
    // 248..255 % 62 would be 0..7: with them rejected, only "8" ever appears.
    const generator = new RandomCodeGenerator({
      alphabet: BASE62,
      length: 20,
      randomBytes: scriptedBytes([...range(248, 256), 8]),
    });
    for (let i = 0; i < 100; i++) assert.equal(generator.generateSync(), '8'.repeat(20));
  });

  test('base64url divides 256 evenly: every byte is used, as alphabet[byte % 64]', () => {
    for (let byte = 0; byte < 256; byte++) {
      const generator = new RandomCodeGenerator({
        alphabet: BASE64URL,
        length: 3,
        randomBytes: scriptedBytes([byte]),
      });
      assert.equal(generator.generateSync(), BASE64URL.charAt(byte % 64).repeat(3), `byte ${byte}`);
    }
    const generator = new RandomCodeGenerator({
      alphabet: BASE64URL,
      length: 8,
      randomBytes: scriptedBytes([0, 25, 26, 51, 52, 61, 62, 63]),
    });
    assert.equal(generator.generateSync(), 'AZaz09-_');
  });
});

describe('uniformity (chi-square, df = alphabet size − 1, α = 0.001)', () => {
  function sample(alphabet: string, seed: number, length: number, codes: number): string {
    const generator = new RandomCodeGenerator({
      alphabet,
      length,
      randomBytes: seededBytes(seed),
    });
    let text = '';
    for (let i = 0; i < codes; i++) text += generator.generateSync();
    return text;
  }

  test(`base62: ${SAMPLE_CHARACTERS} characters pass at df = 61`, () => {
    const text = sample(BASE62, 2024, 1000, SAMPLE_CHARACTERS / 1000);
    assert.equal(text.length, SAMPLE_CHARACTERS);
    const statistic = chiSquare(countCharacters(text, BASE62));
    assert.ok(statistic < CHI2_CRITICAL_0_001[61], `chi-square ${statistic.toFixed(1)}`);
  });

  test('base62: every position of 7-character codes is uniform too', () => {
    const codes = 30_000;
    const text = sample(BASE62, 7, 7, codes);
    for (let position = 0; position < 7; position++) {
      let column = '';
      for (let i = 0; i < codes; i++) column += text.charAt(i * 7 + position);
      const statistic = chiSquare(countCharacters(column, BASE62));
      assert.ok(
        statistic < CHI2_CRITICAL_0_001[61],
        `position ${position}: chi-square ${statistic.toFixed(1)}`,
      );
    }
  });

  test(`base64url: ${SAMPLE_CHARACTERS} characters pass at df = 63`, () => {
    const text = sample(BASE64URL, 2025, 1000, SAMPLE_CHARACTERS / 1000);
    const statistic = chiSquare(countCharacters(text, BASE64URL));
    assert.ok(statistic < CHI2_CRITICAL_0_001[63], `chi-square ${statistic.toFixed(1)}`);
  });

  test('the test can fail: a naive byte % 62 on the same bytes is far above the bound', () => {
    const bytes = new Uint8Array(SAMPLE_CHARACTERS);
    seededBytes(2024)(bytes);
    const counts = new Array<number>(62).fill(0);
    for (const byte of bytes) counts[byte % 62] = counts[byte % 62]! + 1;
    const statistic = chiSquare(counts);
    // Characters 0..7 get 5/256 of the bytes instead of 4/256: expected statistic ≈ 1300.
    assert.ok(
      statistic > 5 * CHI2_CRITICAL_0_001[61],
      `naive chi-square only ${statistic.toFixed(1)}`,
    );
    // …and the first 8 characters are exactly the over-represented ones.
    const favoured = counts.slice(0, 8);
    const others = counts.slice(8);
    assert.ok(Math.min(...favoured) > Math.max(...others));
  });
});

test('100,000 codes of length 7 contain no duplicate', () => {
  const generator = new RandomCodeGenerator({
    alphabet: BASE62,
    length: 7,
    randomBytes: seededBytes(0xc0ffee),
  });
  const seen = new Set<string>();
  for (let i = 0; i < 100_000; i++) seen.add(generator.generateSync());
  assert.equal(seen.size, 100_000);
});
