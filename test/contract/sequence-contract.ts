import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openFresh, type OpenStore } from './store-factories.js';

/** Sequences leased in blocks (SPEC §2, ADR 0056): the permutation counter and pool offsets. */
export function sequenceContract(openStore: OpenStore): void {
  describe('sequences', () => {
    test('a new sequence starts at 0 and every lease continues where the last ended', async (t) => {
      const store = await openFresh(t, openStore);
      assert.deepEqual(await store.sequences.lease('a', 10), { first: 0, end: 10 });
      assert.deepEqual(await store.sequences.lease('a', 5), { first: 10, end: 15 });
      assert.deepEqual(await store.sequences.lease('b', 3), { first: 0, end: 3 });
      assert.deepEqual(await store.sequences.lease('a', 1), { first: 15, end: 16 });
    });

    test('a lease stops at the cap, and is empty once the counter stands there', async (t) => {
      const store = await openFresh(t, openStore);
      assert.deepEqual(await store.sequences.lease('pool', 10, 25), { first: 0, end: 10 });
      assert.deepEqual(await store.sequences.lease('pool', 10, 25), { first: 10, end: 20 });
      assert.deepEqual(await store.sequences.lease('pool', 10, 25), { first: 20, end: 25 });
      assert.deepEqual(await store.sequences.lease('pool', 10, 25), { first: 25, end: 25 });
      // A pool file that grew (reclaimed codes appended) raises the cap.
      assert.deepEqual(await store.sequences.lease('pool', 10, 28), { first: 25, end: 28 });
      // A cap below the counter never moves it back.
      assert.deepEqual(await store.sequences.lease('pool', 10, 5), { first: 28, end: 28 });
    });

    test('concurrent leases never overlap and leave no gap', async (t) => {
      const store = await openFresh(t, openStore);
      const blocks = await Promise.all(
        Array.from({ length: 50 }, () => store.sequences.lease('c', 7)),
      );
      const sorted = [...blocks].sort((a, b) => a.first - b.first);
      sorted.forEach((block, index) => {
        assert.equal(block.first, index * 7);
        assert.equal(block.end, block.first + 7);
      });
    });

    test('a lease of less than one value is refused', async (t) => {
      const store = await openFresh(t, openStore);
      await assert.rejects(store.sequences.lease('d', 0), RangeError);
      await assert.rejects(store.sequences.lease('d', 1.5), RangeError);
    });
  });
}
