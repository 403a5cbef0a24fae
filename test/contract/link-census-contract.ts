import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { walkCensus } from '../../src/services/stats/walk-census.js';
import { BASE_MS, HOUR_MS, makeLink, openFresh, type OpenStore } from './store-factories.js';

const SNAPSHOT = {
  total: 7,
  active: 3,
  disabled: 1,
  expired: 2,
  deleted: 1,
  countedAt: BASE_MS,
  durationMs: 4,
};

/** LinkCensus (ADR 0100): links by the state a reader sees, and the snapshot every instance reads. */
export function linkCensusContract(open: OpenStore): void {
  describe('LinkCensus', () => {
    test('counts by the state a reader sees, custom aliases included, slice by slice', async (t) => {
      const store = await openFresh(t, open);
      await store.links.importLinks([
        makeLink(),
        makeLink({ custom: true, code: `alias-${BASE_MS}` }),
        makeLink({ expiresAt: BASE_MS + HOUR_MS }),
        // Past its expiry but not yet swept: expired, as a reader sees it.
        makeLink({ expiresAt: BASE_MS }),
        makeLink({ state: 'expired', expiresAt: BASE_MS - HOUR_MS }),
        // A disabled link stays disabled whatever its expiry says (effectiveState).
        makeLink({ state: 'disabled', expiresAt: BASE_MS - HOUR_MS }),
        makeLink({ state: 'deleted', deletedAt: BASE_MS - HOUR_MS }),
      ]);
      for (const sliceSize of [2, 3, 100]) {
        const counts = await walkCensus(
          { census: store.census, sliceSize, yieldBetweenSlices: async () => undefined },
          BASE_MS,
        );
        assert.deepEqual(
          counts,
          { total: 7, active: 3, disabled: 1, expired: 2, deleted: 1 },
          `in slices of ${sliceSize}`,
        );
      }
    });

    test('an empty store counts zero of everything', async (t) => {
      const store = await openFresh(t, open);
      const slice = await store.census.countSlice(BASE_MS, null, 10);
      assert.deepEqual(slice, {
        total: 0,
        active: 0,
        disabled: 0,
        expired: 0,
        deleted: 0,
        lastId: null,
      });
    });

    test('no snapshot before the first save; then the latest count wins', async (t) => {
      const store = await openFresh(t, open);
      assert.equal(await store.census.readSnapshot(), null);
      await store.census.saveSnapshot(SNAPSHOT);
      assert.deepEqual(await store.census.readSnapshot(), SNAPSHOT);
      const later = { ...SNAPSHOT, total: 8, active: 4, countedAt: BASE_MS + 1 };
      await store.census.saveSnapshot(later);
      assert.deepEqual(await store.census.readSnapshot(), later);
      // A slower census that started earlier never replaces a later one.
      await store.census.saveSnapshot({ ...SNAPSHOT, total: 1, countedAt: BASE_MS });
      assert.deepEqual(await store.census.readSnapshot(), later);
    });
  });
}
