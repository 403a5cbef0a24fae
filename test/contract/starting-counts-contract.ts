import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  HOUR_MS,
  giveClicks,
  makeLink,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

/**
 * ClickStore.keepStartingCounts (issue 24, ADR 0136): an imported link's peer clicks are in
 * its all-time total and everything read from it (the list's click order, a tag's clicks),
 * never in an hour, a breakdown or the dashboard's totals; setting one again replaces it.
 */
export function startingCountsContract(name: string, openStore: OpenStore): void {
  describe(`starting counts: ${name}`, () => {
    const totalOf = async (store: Store, linkId: string) =>
      (await store.clicks.totals([linkId])).get(linkId);

    test('a starting count is the total of a link never clicked on hop, and nothing else', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ custom: true });
      await store.links.insertLink(link);
      await store.clicks.keepStartingCounts([{ linkId: link.id, clicks: 328 }]);
      assert.deepEqual(await totalOf(store, link.id), { clicks: 328, botClicks: 0 });
      const summary = await store.clicks.summarize(link.id, 0, BASE_MS + HOUR_MS);
      assert.deepEqual(summary.hours, []);
      assert.deepEqual(summary.countries, []);
      assert.equal(await store.clicks.clicksBetween(0, BASE_MS + HOUR_MS), 0);
    });

    test('set again, a count replaces the last one: a re-run never counts twice', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ custom: true });
      await store.links.insertLink(link);
      for (let run = 0; run < 3; run++) {
        await store.clicks.keepStartingCounts([{ linkId: link.id, clicks: 40 }]);
      }
      assert.deepEqual(await totalOf(store, link.id), { clicks: 40, botClicks: 0 });
      // The peer counted more before the move: the later export's total is the one kept.
      await store.clicks.keepStartingCounts([{ linkId: link.id, clicks: 45 }]);
      assert.deepEqual(await totalOf(store, link.id), { clicks: 45, botClicks: 0 });
      await store.clicks.keepStartingCounts([]);
      assert.deepEqual(await totalOf(store, link.id), { clicks: 45, botClicks: 0 });
    });

    test('clicks folded before or after are added to it; replacing it keeps them', async (t) => {
      const store = await openFresh(t, openStore);
      const before = makeLink({ custom: true });
      const afterwards = makeLink({ custom: true });
      await store.links.insertLink(before);
      await store.links.insertLink(afterwards);
      await giveClicks(store, new Map([[before.id, 3]]));
      await store.clicks.keepStartingCounts([
        { linkId: before.id, clicks: 10 },
        { linkId: afterwards.id, clicks: 20 },
      ]);
      await giveClicks(store, new Map([[afterwards.id, 2]]));
      assert.deepEqual(await totalOf(store, before.id), { clicks: 13, botClicks: 0 });
      assert.deepEqual(await totalOf(store, afterwards.id), { clicks: 22, botClicks: 0 });
      await store.clicks.keepStartingCounts([{ linkId: before.id, clicks: 10 }]);
      assert.deepEqual(await totalOf(store, before.id), { clicks: 13, botClicks: 0 });
      await store.clicks.keepStartingCounts([{ linkId: before.id, clicks: 0 }]);
      assert.deepEqual(await totalOf(store, before.id), { clicks: 3, botClicks: 0 });
      const summary = await store.clicks.summarize(afterwards.id, 0, BASE_MS + HOUR_MS);
      assert.deepEqual(summary.hours, [{ hour: BASE_MS, clicks: 2, botClicks: 0 }]);
    });

    test("the list's click order and a tag's clicks include starting counts", async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const imported = makeLink({ owner, custom: true, tags: ['moved'] });
      const clicked = makeLink({ owner, tags: ['moved'] });
      const quiet = makeLink({ owner });
      for (const link of [imported, clicked, quiet]) await store.links.insertLink(link);
      await giveClicks(store, new Map([[clicked.id, 5]]));
      await store.clicks.keepStartingCounts([{ linkId: imported.id, clicks: 7 }]);
      const listed = await store.links.listLinks({
        owner,
        nowMs: BASE_MS,
        limit: 10,
        sort: { key: 'clicks', descending: true },
      });
      assert.deepEqual(
        listed.map((link) => link.id),
        [imported.id, clicked.id, quiet.id],
      );
      const tags = await store.tags.listTags({ owner, name: 'moved', limit: 10 });
      assert.deepEqual(
        tags.map((tag) => [tag.name, tag.links, tag.clicks]),
        [['moved', 2, 12]],
      );
    });

    test('codes of 1 and 2 characters, with "." and "~", are kept case by case', async (t) => {
      const store = await openFresh(t, openStore);
      const codes = ['k', 'K', 'ab', 'aB', 'v1.2', '~x', 'a.b~c-d_e'];
      for (const code of codes) {
        assert.equal(
          (await store.links.insertLink(makeLink({ code, custom: true }))).kind,
          'inserted',
          code,
        );
      }
      assert.equal((await store.links.insertLink(makeLink({ code: 'k' }))).kind, 'code-taken');
      for (const code of codes) {
        assert.equal((await store.links.findLinkByCode('', code))?.code, code, code);
        assert.equal((await store.redirects.findRedirectByCode('', code))?.code, code, code);
      }
    });
  });
}
