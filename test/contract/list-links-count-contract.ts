import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { LinkFilterQuery, LinkSort } from '../../src/ports/link-repository.js';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  HOUR_MS,
  idsOf,
  makeLink,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

const NOW = BASE_MS;

/** Folds people's and bots' clicks for each link, as the aggregator would. */
async function giveClicksAndBots(
  store: Store,
  counts: ReadonlyMap<string, { people: number; bots: number }>,
): Promise<void> {
  const bucket = (linkId: string, device: 'desktop' | 'bot', clicks: number) => ({
    linkId,
    hour: BASE_MS,
    country: 'DE',
    device,
    referrer: '',
    browser: 'chrome' as const,
    os: 'windows' as const,
    city: '',
    clicks,
  });
  const buckets = [...counts].flatMap(([linkId, { people, bots }]) => [
    ...(people > 0 ? [bucket(linkId, 'desktop', people)] : []),
    ...(bots > 0 ? [bucket(linkId, 'bot', bots)] : []),
  ]);
  await store.clicks.fold(
    [
      {
        instance: `count-${Math.random()}`,
        fromSeq: 1,
        toSeq: 1,
        oldestAt: BASE_MS,
        newestAt: BASE_MS,
        buckets,
      },
    ],
    50,
  );
}

/**
 * LinkRepository.countLinks, sumClicks and listLinks' offset (the peers' numbered pages):
 * a count and a sum match exactly the links a list with the same filters gives, and an
 * offset page is that slice of the whole list, in every order.
 */
export function listLinksCountContract(openStore: OpenStore): void {
  describe('listLinks counted and paged by offset', () => {
    /** Eight links of one owner in several states, tags and domains, and a stranger's. */
    const setUp = async (store: Store) => {
      const owner = makeOwner();
      const links: Link[] = [
        makeLink({ owner, tags: ['red'], title: 'Alpha report' }),
        makeLink({ owner, tags: ['red', 'blue'] }),
        makeLink({ owner, tags: ['blue'], state: 'disabled' }),
        makeLink({ owner, expiresAt: NOW - HOUR_MS }),
        makeLink({ owner, expiresAt: NOW + HOUR_MS, domain: 'go.example' }),
        makeLink({ owner, state: 'deleted', deletedAt: NOW }),
        makeLink({ owner, destination: 'https://alpha.example/x' }),
        makeLink({ owner, tags: ['red'], domain: 'go.example' }),
      ];
      for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      const stranger = makeLink({ tags: ['red'], title: 'Alpha' });
      await store.links.insertLink(stranger);
      const clicks = [3, 0, 7, 1, 4, 9, 2, 5];
      const bots = [0, 6, 0, 2, 0, 1, 0, 1];
      const counts = new Map(
        links.map((link, i) => [link.id, { people: clicks[i]!, bots: bots[i]! }]),
      );
      counts.set(stranger.id, { people: 100, bots: 100 });
      await giveClicksAndBots(store, counts);
      return { owner, links, counts };
    };

    const filtersOf = (owner: string): Record<string, LinkFilterQuery> => ({
      everything: { owner, nowMs: NOW },
      'every owner': { nowMs: NOW },
      active: { owner, state: 'active', nowMs: NOW },
      expired: { owner, state: 'expired', nowMs: NOW },
      deleted: { owner, state: 'deleted', nowMs: NOW },
      search: { owner, search: 'ALPHA', nowMs: NOW },
      'any tag': { owner, tags: ['red', 'blue'], nowMs: NOW },
      'all tags': { owner, tags: ['red', 'blue'], tagsMode: 'all', nowMs: NOW },
      'excluded tags': { owner, excludeTags: ['blue'], nowMs: NOW },
      'one domain': { owner, domains: ['go.example'], nowMs: NOW },
      'no domain': { owner, domains: [], nowMs: NOW },
      'later clock': { owner, state: 'expired', nowMs: NOW + 2 * HOUR_MS },
    });

    test('a count is the number of links the same filters list', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner } = await setUp(store);
      for (const [name, filter] of Object.entries(filtersOf(owner))) {
        const listed = await store.links.listLinks({ ...filter, limit: 1000 });
        assert.equal(await store.links.countLinks(filter), listed.length, name);
      }
      assert.equal(await store.links.countLinks({ owner, nowMs: NOW }), 7);
      assert.equal(await store.links.countLinks({ owner: makeOwner(), nowMs: NOW }), 0);
    });

    test("a sum is the matching links' clicks, people's and bots' apart, starting counts in", async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, links, counts } = await setUp(store);
      // An imported link's peer total (ADR 0136) is in its people's clicks.
      await store.clicks.keepStartingCounts([{ linkId: links[1]!.id, clicks: 40 }]);
      counts.set(links[1]!.id, { people: 40, bots: 6 });
      for (const [name, filter] of Object.entries(filtersOf(owner))) {
        const listed = await store.links.listLinks({ ...filter, limit: 1000 });
        let people = 0;
        let bots = 0;
        for (const link of listed) {
          people += counts.get(link.id)?.people ?? 0;
          bots += counts.get(link.id)?.bots ?? 0;
        }
        assert.deepEqual(
          await store.links.sumClicks(filter),
          { clicks: people, botClicks: bots },
          name,
        );
      }
      assert.deepEqual(await store.links.sumClicks({ owner, tags: ['red'], nowMs: NOW }), {
        clicks: 3 + 40 + 5,
        botClicks: 6 + 1,
      });
      const nobody = await store.links.sumClicks({ owner: makeOwner(), nowMs: NOW });
      assert.deepEqual(nobody, { clicks: 0, botClicks: 0 });
    });

    test('an offset page is that slice of the whole list, in every order, filters kept', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner } = await setUp(store);
      const sorts: (LinkSort | undefined)[] = [undefined];
      for (const key of ['created', 'clicks', 'all_clicks', 'expires_at'] as const) {
        for (const descending of [true, false]) sorts.push({ key, descending });
      }
      for (const filter of [
        { owner, nowMs: NOW },
        { owner, tags: ['red', 'blue'], nowMs: NOW },
      ]) {
        for (const sort of sorts) {
          const whole = idsOf(await store.links.listLinks({ ...filter, sort, limit: 100 }));
          for (const offset of [0, 1, 3, whole.length - 1, whole.length, 50]) {
            const page = await store.links.listLinks({ ...filter, sort, offset, limit: 2 });
            assert.deepEqual(
              idsOf(page),
              whole.slice(offset, offset + 2),
              `${JSON.stringify(sort)} from ${offset}`,
            );
          }
        }
      }
    });

    test("all_clicks orders by people's and bots' clicks together, ties by id", async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, links, counts } = await setUp(store);
      const total = (link: Link) => {
        const c = counts.get(link.id)!;
        return c.people + c.bots;
      };
      const expected = links
        .filter((link) => link.state !== 'deleted')
        .sort((a, b) => total(b) - total(a) || (a.id < b.id ? 1 : -1))
        .map((link) => link.id);
      const sort = { key: 'all_clicks', descending: true } as const;
      const listed = await store.links.listLinks({ owner, nowMs: NOW, sort, limit: 100 });
      assert.deepEqual(idsOf(listed), expected);
    });
  });
}
