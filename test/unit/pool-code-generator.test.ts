import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { PoolCodeGenerator } from '../../src/codes/pool-code-generator.js';
import { FsPoolFile, readPoolFileHeader } from '../../src/adapters/pool-file/fs-pool-file.js';
import { PoolCodeRecycler } from '../../src/adapters/pool-file/pool-code-recycler.js';
import { isHopError } from '../../src/domain/errors.js';
import { eventually } from '../support/eventually.js';
import { numberedCodes, writePoolFile } from '../support/pool-files.js';

const WIDTH = 7;

function setUp(t: TestContext, codes: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'hop-pool-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  const file = join(dir, 'pool.codes');
  const header = writePoolFile(file, codes, WIDTH);
  const generators: PoolCodeGenerator[] = [];
  const pool = (options: { batch?: number; lowWater?: number; onExhausted?: () => void } = {}) => {
    const generator = new PoolCodeGenerator({
      file: new FsPoolFile(file, header),
      sequences: store.sequences,
      alphabetSize: 62,
      batch: 10_000,
      ...options,
    });
    generators.push(generator);
    return generator;
  };
  t.after(async () => {
    for (const generator of generators) await generator.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, file, header, pool };
}

async function take(generator: PoolCodeGenerator, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) codes.push(await generator.generate());
  return codes;
}

describe('PoolCodeGenerator', () => {
  test('hands out the file’s codes in order, a batch per store round trip', async (t) => {
    const codes = numberedCodes(250, WIDTH);
    const { pool } = setUp(t, codes);
    const generator = pool({ batch: 100, lowWater: 0 });
    assert.deepEqual(await take(generator, 250), codes);
    assert.equal(generator.storeRoundTrips, 3);
    assert.equal(generator.length, WIDTH);
  });

  test('refills in the background once no more than lowWater codes remain', async (t) => {
    const { pool } = setUp(t, numberedCodes(1000, WIDTH));
    const generator = pool({ batch: 100, lowWater: 20 });
    await take(generator, 80);
    assert.equal(generator.storeRoundTrips, 1);
    await generator.generate(); // 19 left in memory: the next batch is claimed meanwhile
    // The refill is in the background: wait for it (bounded polls, not a timing claim).
    await eventually(async () => generator.inMemory > 19, 'the background refill');
    assert.equal(generator.storeRoundTrips, 2);
    assert.equal(generator.inMemory, 119);
  });

  test('two servers on one store never hand out the same code nor skip more than a batch', async (t) => {
    const codes = numberedCodes(1000, WIDTH);
    const { pool } = setUp(t, codes);
    const a = pool({ batch: 100, lowWater: 10 });
    const b = pool({ batch: 100, lowWater: 10 });
    const taken = await Promise.all([take(a, 300), take(b, 300), take(a, 150), take(b, 50)]);
    const all = taken.flat();
    assert.equal(new Set(all).size, all.length);
    const index = new Map(codes.map((code, i) => [code, i]));
    const highest = Math.max(...all.map((code) => index.get(code) as number));
    // Every code up to the highest handed out was handed out, but for what each still holds.
    assert.ok(highest + 1 - all.length <= a.inMemory + b.inMemory, 'no more skipped than held');
  });

  test('an empty pool is a code-pool-exhausted error and a count, until codes are appended', async (t) => {
    let exhausted = 0;
    const { pool, file, header } = setUp(t, numberedCodes(3, WIDTH));
    const generator = pool({ batch: 10, lowWater: 0, onExhausted: () => exhausted++ });
    await take(generator, 3);
    await assert.rejects(generator.generate(), (error) => {
      assert.ok(isHopError(error));
      assert.equal(error.kind, 'code-pool-exhausted');
      return true;
    });
    assert.equal(exhausted, 1);
    assert.equal(generator.remaining, 0);

    await new PoolCodeRecycler(file, header.width).recycle(['r000001', 'short', 'r000002']);
    assert.deepEqual(readPoolFileHeader(file), header);
    assert.deepEqual(await take(generator, 2), ['r000001', 'r000002']);
    await assert.rejects(generator.generate(), /pool is used up/);
    assert.equal(exhausted, 2);
  });

  test('creates that find memory empty together are all served while the file has codes', async (t) => {
    const codes = numberedCodes(6, WIDTH);
    const { pool } = setUp(t, codes);
    const generator = pool({ batch: 2, lowWater: 0 });
    await take(generator, 2);
    // Three creates wait for one claim of two codes: the third must claim again, not be
    // told the pool is empty.
    const three = await Promise.all([1, 2, 3].map(() => generator.generate()));
    assert.deepEqual(three.sort(), codes.slice(2, 5));
  });

  test('cannot lengthen its codes (the guess bound must say so)', async (t) => {
    const { pool } = setUp(t, numberedCodes(3, WIDTH));
    const generator = pool();
    assert.equal(generator.growTo(WIDTH), true);
    assert.equal(generator.growTo(WIDTH + 1), false);
  });

  test('a newly generated pool (another id) starts from its own first code', async (t) => {
    const { store, file } = setUp(t, numberedCodes(50, WIDTH));
    const first = new PoolCodeGenerator({
      file: FsPoolFile.open(file),
      sequences: store.sequences,
      alphabetSize: 62,
      batch: 10,
    });
    t.after(() => first.close());
    await take(first, 5);
    const fresh = numberedCodes(5, WIDTH, 'q');
    const header = writePoolFile(file, fresh, WIDTH);
    const second = new PoolCodeGenerator({
      file: new FsPoolFile(file, header),
      sequences: store.sequences,
      alphabetSize: 62,
      batch: 10,
    });
    t.after(() => second.close());
    assert.deepEqual(await take(second, 5), fresh);
  });
});
