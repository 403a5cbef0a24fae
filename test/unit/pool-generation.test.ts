import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { BloomFilter } from '../../src/codes/bloom-filter.js';
import {
  decodePoolHeader,
  encodePoolHeader,
  POOL_HEADER_BYTES,
  poolCodeCount,
} from '../../src/adapters/pool-file/pool-file-format.js';
import {
  generatePoolCodes,
  loadStoreCodes,
  type PoolCodeSource,
} from '../../src/codes/pool-generation.js';
import { RandomCodeGenerator, type RandomBytes } from '../../src/codes/random-code-generator.js';
import type { CodeScanPage } from '../../src/ports/link-code-scan.js';

/**
 * SPEC §2, strategy `pool`: `hop pool generate` writes random codes, none twice, none the
 * store holds, no reserved word, fixed width with no separators. Seeded bytes: every run
 * draws the same codes.
 */

/** xorshift32 bytes: deterministic for a seed. */
function seededBytes(seed: number): RandomBytes {
  let state = seed >>> 0 || 1;
  return (buffer) => {
    for (let i = 0; i < buffer.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      buffer[i] = state >>> 24;
    }
  };
}

function seededGenerator(alphabet: string, length: number, seed: number): RandomCodeGenerator {
  return new RandomCodeGenerator({ alphabet, length, randomBytes: seededBytes(seed) });
}

/** Gives `codes` in order, then fails the test if asked for more. */
function scriptedSource(codes: readonly string[]): PoolCodeSource {
  let next = 0;
  return {
    generateSync: () => {
      const code = codes[next++];
      if (code === undefined) throw new Error('the script ran out of codes');
      return code;
    },
  };
}

/** Collects what the sink receives, copying each chunk (the generator reuses its buffer). */
function collectingSink(): { chunks: Buffer[]; sink: (chunk: Uint8Array) => void } {
  const chunks: Buffer[] = [];
  return { chunks, sink: (chunk) => void chunks.push(Buffer.from(chunk)) };
}

function splitCodes(bytes: Buffer, width: number): string[] {
  assert.equal(bytes.length % width, 0, 'the codes fill whole widths');
  const codes: string[] = [];
  for (let at = 0; at < bytes.length; at += width) {
    codes.push(bytes.toString('latin1', at, at + width));
  }
  return codes;
}

/** A store whose links hold `codes`, paged the way `scanCodes` pages. */
function storeHolding(codes: readonly string[]): {
  scanCodes(cursor: string | null, limit: number): Promise<CodeScanPage>;
  calls: number;
} {
  const store = {
    calls: 0,
    scanCodes: (cursor: string | null, limit: number): Promise<CodeScanPage> => {
      store.calls++;
      const from = cursor === null ? 0 : Number(cursor);
      const page = codes.slice(from, from + limit);
      return Promise.resolve({ codes: page, cursor: String(from + page.length) });
    },
  };
  return store;
}

describe('generatePoolCodes', () => {
  test('writes count codes of one width from the alphabet, none twice', async () => {
    // Four base62 characters: 14.8 million codes, so 60,000 draws collide ~120 times.
    const count = 60_000;
    const source = seededGenerator(ALPHABETS.base62, 4, 1);
    const filter = new BloomFilter(count, 1e-4, 11);
    const { chunks, sink } = collectingSink();
    const result = await generatePoolCodes(
      { count, width: 4, chunkBytes: 4096 },
      source,
      filter,
      sink,
    );
    const codes = splitCodes(Buffer.concat(chunks), 4);
    assert.equal(result.written, count);
    assert.equal(codes.length, count);
    assert.equal(new Set(codes).size, count, 'no code twice');
    assert.ok(codes.every((code) => /^[0-9a-zA-Z]{4}$/.test(code)));
    assert.ok(result.skippedTaken > 50, `the collisions were skipped (${result.skippedTaken})`);
  });

  test('uses the alphabet it is given (base64url)', async () => {
    const { chunks, sink } = collectingSink();
    await generatePoolCodes(
      { count: 5000, width: 9, chunkBytes: 1 << 20 },
      seededGenerator(ALPHABETS.base64url, 9, 2),
      new BloomFilter(5000, 1e-4, 3),
      sink,
    );
    const codes = splitCodes(Buffer.concat(chunks), 9);
    assert.ok(codes.every((code) => /^[A-Za-z0-9_-]{9}$/.test(code)));
    assert.ok(
      codes.some((code) => /[-_]/.test(code)),
      'the two extra characters occur',
    );
  });

  test('skips reserved words (any case) and codes the filter holds', async () => {
    const filter = new BloomFilter(100, 1e-4, 5);
    filter.add('taken');
    const { chunks, sink } = collectingSink();
    const result = await generatePoolCodes(
      { count: 3, width: 5, chunkBytes: 1 << 20 },
      scriptedSource(['admin', 'taken', 'ok001', 'LOGIN', 'ok001', 'ok002', 'Admin', 'ok003']),
      filter,
      sink,
    );
    assert.deepEqual(splitCodes(Buffer.concat(chunks), 5), ['ok001', 'ok002', 'ok003']);
    assert.deepEqual(result, { written: 3, skippedTaken: 2, skippedReserved: 3 });
    assert.equal(filter.mightContain('admin'), false, 'reserved words stay out of the filter');
  });

  test('header plus codes make a pool file of header + count × width bytes', async () => {
    const count = 1001;
    const width = 7;
    const header = encodePoolHeader({ width, id: '0123456789abcdef' });
    const { chunks, sink } = collectingSink();
    const progress: number[] = [];
    await generatePoolCodes(
      // 100 bytes a chunk: 14 codes, so chunks end on whole codes and the last one is short.
      { count, width, chunkBytes: 100 },
      seededGenerator(ALPHABETS.base62, width, 3),
      new BloomFilter(count, 1e-4, 1),
      sink,
      (written) => progress.push(written),
    );
    const file = Buffer.concat([header, ...chunks]);
    assert.equal(file.length, POOL_HEADER_BYTES + count * width);
    assert.deepEqual(decodePoolHeader(file), { width, id: '0123456789abcdef' });
    assert.equal(poolCodeCount(file.length, width), count);
    assert.ok(chunks.every((chunk) => chunk.length === 98 || chunk === chunks.at(-1)));
    assert.equal(chunks.length, Math.ceil(count / 14));
    assert.equal(progress.at(-1), count);
    assert.ok(progress.every((written, i) => i === 0 || written > progress[i - 1]!));
  });

  test('gives up, rather than loop forever, when every draw is taken', async () => {
    const filter = new BloomFilter(10, 1e-4, 1);
    const source = { generateSync: () => 'same' };
    await assert.rejects(
      generatePoolCodes(
        { count: 2, width: 4, chunkBytes: 1024, maxSkipsInARow: 50 },
        source,
        filter,
        () => {},
      ),
      /50 codes in a row were taken: the code space is nearly full \(1 of 2 written\)/,
    );
  });

  test('refuses a code of the wrong width', async () => {
    await assert.rejects(
      generatePoolCodes(
        { count: 1, width: 7, chunkBytes: 1024 },
        scriptedSource(['short']),
        new BloomFilter(10, 1e-4, 1),
        () => {},
      ),
      /not 7 characters/,
    );
  });
});

describe('loadStoreCodes', () => {
  test('pages through every code the store holds into the filter', async () => {
    const held = Array.from({ length: 25 }, (_, i) => `code${String(i).padStart(3, '0')}`);
    const store = storeHolding(held);
    const filter = new BloomFilter(100, 1e-4, 9);
    const seen: number[] = [];
    const read = await loadStoreCodes(store, filter, 10, (n) => seen.push(n));
    assert.equal(read, 25);
    assert.equal(store.calls, 3, 'pages of 10, 10 and 5');
    assert.deepEqual(seen, [10, 20, 25]);
    assert.ok(held.every((code) => filter.mightContain(code)));
  });

  test('store codes never reach the pool', async () => {
    // A tiny code space (4 base62 characters) and a store holding the first 2,000 codes the
    // seeded source will draw: all of them must be skipped (2,000 skips in a row, so the
    // give-up bound is raised).
    const held: string[] = [];
    const preview = seededGenerator(ALPHABETS.base62, 4, 42);
    for (let i = 0; i < 2000; i++) held.push(preview.generateSync());
    const filter = new BloomFilter(10_000, 1e-4, 8);
    assert.equal(await loadStoreCodes(storeHolding(held), filter, 500), 2000);
    const { chunks, sink } = collectingSink();
    const result = await generatePoolCodes(
      { count: 3000, width: 4, chunkBytes: 1 << 20, maxSkipsInARow: 5000 },
      seededGenerator(ALPHABETS.base62, 4, 42),
      filter,
      sink,
    );
    const codes = new Set(splitCodes(Buffer.concat(chunks), 4));
    assert.equal(codes.size, 3000);
    assert.ok(held.every((code) => !codes.has(code)));
    assert.ok(result.skippedTaken >= 2000, 'the first 2,000 draws were all taken');
  });
});
