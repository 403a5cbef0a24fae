import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { Store } from '../../src/ports/store.js';
import { BASE_MS, makeId, makeLink } from './store-factories.js';

/**
 * Two stores on the same data, standing for two instances (PostgreSQL) or the server and a
 * CLI (two connections to one SQLite file); both are closed and their data removed after
 * the test.
 */
export type OpenInstances = (t: TestContext) => Promise<readonly [Store, Store]>;

/** Takes `count` redirects of `limit` at once, spread over `stores` in turn. */
function takeAtOnce(
  stores: readonly Store[],
  linkId: string,
  limit: number,
  count: number,
): Promise<boolean[]> {
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      stores[index % stores.length]!.redirectAllowance.take(linkId, limit),
    ),
  );
}

/** Takes one after another, each awaited. */
async function takeInTurn(store: Store, linkId: string, limit: number, count: number) {
  const taken: boolean[] = [];
  for (let index = 0; index < count; index += 1) {
    taken.push(await store.redirectAllowance.take(linkId, limit));
  }
  return taken;
}

/**
 * The RedirectAllowance port's contract (issue 21 `max_clicks`: "exact with 50 concurrent
 * requests for a limit of 10", ADR 0111), for every store.
 */
export function runRedirectAllowanceContract(name: string, openInstances: OpenInstances): void {
  describe(`RedirectAllowance contract: ${name}`, () => {
    test('exactly `limit` takes are granted, then none; refused takes count nothing', async (t) => {
      const [store] = await openInstances(t);
      const link = makeId();
      assert.equal(await store.redirectAllowance.taken(link), 0);
      assert.equal(await store.redirectAllowance.take(link, 3), true);
      assert.equal(await store.redirectAllowance.taken(link), 1);
      assert.deepEqual(await takeInTurn(store, link, 3, 4), [true, true, false, false]);
      assert.equal(await store.redirectAllowance.taken(link), 3);
    });

    test('a limit of 1 grants the first take only', async (t) => {
      const [store] = await openInstances(t);
      const link = makeId();
      assert.deepEqual(await takeInTurn(store, link, 1, 3), [true, false, false]);
    });

    test('50 takes at once on two instances, limit 10: exactly 10 granted', async (t) => {
      const stores = await openInstances(t);
      const link = makeId();
      const granted = await takeAtOnce(stores, link, 10, 50);
      assert.equal(granted.filter(Boolean).length, 10);
      assert.equal(await stores[0].redirectAllowance.taken(link), 10);
      assert.equal(await stores[1].redirectAllowance.taken(link), 10);
      assert.equal(await stores[1].redirectAllowance.take(link, 10), false);
    });

    test('50 takes at once on two instances, limit 10, for a link with taken redirects', async (t) => {
      const stores = await openInstances(t);
      const link = makeId();
      assert.deepEqual(await takeInTurn(stores[1], link, 10, 4), [true, true, true, true]);
      const granted = await takeAtOnce(stores, link, 10, 50);
      assert.equal(granted.filter(Boolean).length, 6);
      assert.equal(await stores[0].redirectAllowance.taken(link), 10);
    });

    test('a raised limit grants the difference; a lowered one grants nothing', async (t) => {
      const [store, other] = await openInstances(t);
      const link = makeId();
      assert.deepEqual(await takeInTurn(store, link, 2, 3), [true, true, false]);
      assert.deepEqual(await takeInTurn(other, link, 4, 3), [true, true, false]);
      assert.equal(await store.redirectAllowance.taken(link), 4);
      assert.equal(await store.redirectAllowance.take(link, 1), false);
      assert.equal(await store.redirectAllowance.taken(link), 4);
    });

    test('forget starts the link over, for every instance', async (t) => {
      const [store, other] = await openInstances(t);
      const link = makeId();
      assert.deepEqual(await takeInTurn(store, link, 2, 3), [true, true, false]);
      await other.redirectAllowance.forget(link);
      assert.equal(await store.redirectAllowance.taken(link), 0);
      assert.deepEqual(await takeInTurn(store, link, 2, 3), [true, true, false]);
      // Forgetting a link with no count is no error.
      await store.redirectAllowance.forget(makeId());
    });

    test("a reclaimed link's count goes with its row; a link the sweep keeps keeps it", async (t) => {
      const [store, other] = await openInstances(t);
      const tombstone = { state: 'deleted', deletedAt: BASE_MS - 1, version: 2 } as const;
      const reclaimed = makeLink(tombstone);
      const edited = makeLink(tombstone);
      // SQLite holds back the row inserted last (SqliteSweepQueries): one more after them.
      for (const link of [reclaimed, edited, makeLink()]) {
        assert.equal((await store.links.insertLink(link)).kind, 'inserted');
        assert.equal(await store.redirectAllowance.take(link.id, 5), true);
      }
      const read = await store.sweep.reclaimableLinks(BASE_MS, 10);
      assert.equal(read.length, 2);
      assert.equal(await store.links.replaceLink({ ...edited, title: 'new', version: 3 }, 2), true);

      assert.equal(await other.sweep.deleteReclaimed(read), 1);
      assert.equal(await store.redirectAllowance.taken(reclaimed.id), 0);
      assert.equal(await store.redirectAllowance.taken(edited.id), 1);
    });

    test('links are counted apart', async (t) => {
      const [store] = await openInstances(t);
      const spent = makeId();
      const fresh = makeId();
      assert.deepEqual(await takeInTurn(store, spent, 2, 3), [true, true, false]);
      assert.equal(await store.redirectAllowance.take(fresh, 2), true);
      assert.equal(await store.redirectAllowance.taken(spent), 2);
      assert.equal(await store.redirectAllowance.taken(fresh), 1);
      await store.redirectAllowance.forget(spent);
      assert.equal(await store.redirectAllowance.taken(fresh), 1);
    });

    test('a limit below 1 or not whole is refused, and takes nothing', async (t) => {
      const [store] = await openInstances(t);
      const link = makeId();
      for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await assert.rejects(store.redirectAllowance.take(link, limit), RangeError);
      }
      assert.equal(await store.redirectAllowance.taken(link), 0);
    });
  });
}
