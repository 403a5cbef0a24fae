import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { PermutationCodeGenerator } from '../../src/codes/permutation-code-generator.js';

const KEY = Buffer.from('permutation-test-key-0123456789', 'utf8');

function openStore(t: TestContext): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'hop-perm-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

function generator(store: SqliteStore, length = 7, blockSize = 100) {
  return new PermutationCodeGenerator({
    key: KEY,
    alphabet: ALPHABETS.base62,
    length,
    sequences: store.sequences,
    blockSize,
  });
}

async function take(codes: PermutationCodeGenerator, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, () => codes.generate()));
}

describe('PermutationCodeGenerator', () => {
  test('leases the counter in blocks: one store round trip per block of creates', async (t) => {
    const codes = generator(openStore(t));
    const made = await take(codes, 250);
    assert.equal(codes.storeRoundTrips, 3);
    assert.equal(new Set(made).size, 250);
    for (const code of made) assert.match(code, /^[0-9a-zA-Z]{7}$/);
  });

  test('two instances on one store never make the same code', async (t) => {
    const store = openStore(t);
    const a = generator(store);
    const b = generator(store);
    const made = (await Promise.all([take(a, 450), take(b, 450), take(a, 100)])).flat();
    assert.equal(new Set(made).size, made.length);
  });

  test('a restart goes on after the last leased block, so codes never repeat', async (t) => {
    const store = openStore(t);
    const before = await take(generator(store), 10);
    const after = await take(generator(store), 10);
    assert.equal(new Set([...before, ...after]).size, 20);
  });

  test('grows by a character while the domain fits 52 bits, and not beyond', async (t) => {
    const codes = generator(openStore(t), 7);
    assert.equal(codes.growTo(8), true);
    assert.equal(codes.length, 8);
    assert.match(await codes.generate(), /^[0-9a-zA-Z]{8}$/);
    assert.equal(codes.growTo(9), false);
    assert.equal(codes.length, 8);
  });

  test('a used-up domain is code-space-exhausted, never a repeat', async (t) => {
    const codes = generator(openStore(t), 1, 10);
    const made = await take(codes, 62);
    assert.equal(new Set(made).size, 62);
    await assert.rejects(codes.generate(), /has been issued/);
  });
});
