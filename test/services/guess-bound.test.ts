import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { FsPoolFile } from '../../src/adapters/pool-file/fs-pool-file.js';
import { ALPHABETS } from '../../src/codes/alphabets.js';
import { PoolCodeGenerator } from '../../src/codes/pool-code-generator.js';
import { RandomCodeGenerator } from '../../src/codes/random-code-generator.js';
import type { CodeGenerator } from '../../src/ports/code-generator.js';
import { GuessBound, guessProbability } from '../../src/services/codes/guess-bound.js';
import { BASE_MS, HOUR_MS, makeLink } from '../contract/store-factories.js';
import { ManualClock } from '../support/manual-clock.js';
import { numberedCodes, writePoolFile } from '../support/pool-files.js';

function openStore(t: TestContext): { store: SqliteStore; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hop-guess-'));
  const store = SqliteStore.open({ file: join(dir, 'hop.db') });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, dir };
}

function randomCodes(length: number): RandomCodeGenerator {
  return new RandomCodeGenerator({
    alphabet: ALPHABETS.base62,
    length,
    randomBytes: (buffer) => buffer.fill(7),
  });
}

function bound(store: SqliteStore, generator: CodeGenerator, value: number, slice = 3) {
  let yields = 0;
  const guess = new GuessBound({
    generator,
    census: store.census,
    clock: new ManualClock(BASE_MS),
    bound: value,
    sliceSize: slice,
    yieldBetweenSlices: async () => {
      yields++;
    },
  });
  return { guess, yields: () => yields };
}

describe('the guess bound', () => {
  test('counts only links that redirect now, a slice at a time', async (t) => {
    const { store } = openStore(t);
    await store.links.importLinks([
      makeLink(),
      makeLink(),
      makeLink({ expiresAt: BASE_MS + HOUR_MS }),
      makeLink({ expiresAt: BASE_MS - 1 }),
      makeLink({ state: 'disabled' }),
      makeLink({ state: 'deleted', deletedAt: BASE_MS - HOUR_MS }),
      makeLink({ state: 'expired' }),
    ]);
    const { guess, yields } = bound(store, randomCodes(7), 1e-6);
    assert.equal(guess.probability, null, 'unknown before the first census');
    const census = await guess.refresh();
    assert.equal(guess.activeLinks, 3);
    assert.deepEqual(
      census,
      {
        counts: { total: 7, active: 3, disabled: 1, expired: 2, deleted: 1 },
        countedAt: BASE_MS,
      },
      'by the state a reader sees: one past its expiry counts as expired before the sweep',
    );
    assert.equal(guess.probability, 3 / 62 ** 7);
    assert.equal(guess.codeSpace, 62 ** 7);
    assert.equal(yields(), 2, 'seven links in slices of three');
  });

  test('codes get one more character when the probability passes the bound', async (t) => {
    const { store } = openStore(t);
    await store.links.importLinks(Array.from({ length: 5 }, () => makeLink()));
    const generator = randomCodes(2);
    // 5 / 62^2 = 0.0013 is over 1e-3; 5 / 62^3 is not.
    const { guess } = bound(store, generator, 1e-3);
    await guess.refresh();
    assert.equal(generator.length, 3);
    assert.equal((await generator.generate()).length, 3);
    assert.ok((guess.probability ?? 1) <= 1e-3);
    assert.equal(guess.overBound, false);
  });

  test('creates between censuses count, so the bound holds without waiting for one', async (t) => {
    const { store } = openStore(t);
    const generator = randomCodes(2);
    const { guess } = bound(store, generator, 1e-3);
    await guess.refresh();
    assert.equal(guess.activeLinks, 0);
    for (let i = 0; i < 3; i++) guess.linkCreated(makeLink());
    assert.equal(generator.length, 2, '3 / 3844 is under the bound');
    guess.linkCreated(makeLink({ custom: true }));
    assert.equal(guess.activeLinks, 3, 'custom aliases are not drawn from the code space');
    guess.linkCreated(makeLink());
    assert.equal(generator.length, 3, '4 / 3844 is over it');
  });

  test('a pool cannot grow: the probability is reported over the bound', async (t) => {
    const { store, dir } = openStore(t);
    await store.links.importLinks(Array.from({ length: 5 }, () => makeLink()));
    const file = join(dir, 'pool.codes');
    const header = writePoolFile(file, numberedCodes(10, 2, 'a'), 2);
    const pool = new PoolCodeGenerator({
      file: new FsPoolFile(file, header),
      sequences: store.sequences,
      alphabetSize: 62,
      batch: 10_000,
    });
    t.after(() => pool.close());
    const { guess } = bound(store, pool, 1e-3);
    await guess.refresh();
    assert.equal(pool.length, 2);
    assert.equal(guess.overBound, true);
    assert.equal(guess.probability, guessProbability(5, 62, 2));
  });
});
