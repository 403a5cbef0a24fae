import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import {
  NEVER_EXPIRES_SORT_VALUE,
  type LinkQuery,
  type LinkSort,
  type LinkSortPosition,
} from '../../src/ports/link-repository.js';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  HOUR_MS,
  idsOf,
  makeLink,
  giveClicks,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

const NOW = BASE_MS;

/** Every page of `query` in `sort`, `limit` at a time, resuming from each page's last row. */
async function pageThrough(
  store: Store,
  query: Partial<LinkQuery>,
  sort: LinkSort,
  limit: number,
  valueOf: (link: Link) => number,
): Promise<string[]> {
  const seen: string[] = [];
  let after: LinkSortPosition | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await store.links.listLinks({ nowMs: NOW, ...query, sort, after, limit });
    seen.push(...idsOf(page));
    const last = page.at(-1);
    if (page.length < limit || last === undefined) return seen;
    after = { value: valueOf(last), id: last.id };
  }
  throw new Error('paging did not end');
}

/** listLinks in the orders of ADR 0097, each a total order (value, id) a cursor resumes. */
export function listLinksSortContract(openStore: OpenStore): void {
  describe('listLinks sorted', () => {
    // Six links: clicks 5, 0, 5, 2, 0, 9; expiry in 3 h, never, 1 h, never, 2 h, 1 h.
    const setUp = async (store: Store) => {
      const owner = makeOwner();
      const expiries = [3, null, 1, null, 2, 1];
      const links = expiries.map((hours) =>
        makeLink({ owner, expiresAt: hours === null ? null : NOW + hours * HOUR_MS }),
      );
      for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      // Another owner's busy link must not appear in the owner's list.
      const other = makeLink();
      await store.links.insertLink(other);
      const counts = [5, 0, 5, 2, 0, 9];
      const clicks = new Map(links.map((link, i) => [link.id, counts[i]!]));
      clicks.set(other.id, 100);
      await giveClicks(store, clicks);
      return { owner, links, clicks };
    };
    const order = (
      links: readonly Link[],
      key: (link: Link) => number,
      descending: boolean,
    ): string[] =>
      [...links]
        .sort((a, b) => {
          const byKey = key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
          return descending ? -byKey : byKey;
        })
        .map((link) => link.id);

    for (const descending of [true, false]) {
      const direction = descending ? 'descending' : 'ascending';

      /** The whole list, and every paging of it, come in `valueOf`'s order, ties by id. */
      const assertSorted = async (
        store: Store,
        owner: string,
        links: readonly Link[],
        sort: LinkSort,
        valueOf: (link: Link) => number,
      ) => {
        const expected = order(links, valueOf, sort.descending);
        const whole = await store.links.listLinks({ owner, nowMs: NOW, limit: 100, sort });
        assert.deepEqual(idsOf(whole), expected);
        for (const limit of [1, 2, 4]) {
          assert.deepEqual(await pageThrough(store, { owner }, sort, limit, valueOf), expected);
        }
      };

      test(`by clicks, ${direction}: ties by id, every page resumes where the last ended`, async (t) => {
        const store = await openFresh(t, openStore);
        const { owner, links, clicks } = await setUp(store);
        const sort = { key: 'clicks', descending } as const;
        await assertSorted(store, owner, links, sort, (link) => clicks.get(link.id) ?? 0);
      });

      test(`by expiry, ${direction}: never-expiring links count as expiring last`, async (t) => {
        const store = await openFresh(t, openStore);
        const { owner, links } = await setUp(store);
        const sort = { key: 'expires_at', descending } as const;
        await assertSorted(
          store,
          owner,
          links,
          sort,
          (link) => link.expiresAt ?? NEVER_EXPIRES_SORT_VALUE,
        );
      });

      test(`by created, ${direction}: the id order`, async (t) => {
        const store = await openFresh(t, openStore);
        const { owner, links } = await setUp(store);
        const expected = order(links, () => 0, descending);
        const sort = { key: 'created', descending } as const;
        assert.deepEqual(await pageThrough(store, { owner }, sort, 2, () => 0), expected);
      });
    }

    test('sorting combines with the filters (tag, state, search)', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const tagged = [
        makeLink({ owner, tags: ['x'] }),
        makeLink({ owner, tags: ['x'], state: 'disabled' }),
        makeLink({ owner, tags: ['x'] }),
        makeLink({ owner }),
      ];
      for (const link of tagged) await store.links.insertLink(link);
      await giveClicks(
        store,
        new Map([
          [tagged[0]!.id, 1],
          [tagged[1]!.id, 7],
          [tagged[2]!.id, 3],
          [tagged[3]!.id, 9],
        ]),
      );
      const sort = { key: 'clicks', descending: true } as const;
      const listed = await store.links.listLinks({
        owner,
        tags: ['x'],
        state: 'active',
        nowMs: NOW,
        limit: 100,
        sort,
      });
      assert.deepEqual(idsOf(listed), [tagged[2]!.id, tagged[0]!.id]);
      const after = { value: 3, id: tagged[2]!.id };
      const rest = await store.links.listLinks({
        owner,
        tags: ['x'],
        nowMs: NOW,
        limit: 100,
        sort,
        after,
      });
      assert.deepEqual(idsOf(rest), [tagged[0]!.id]);
    });
  });
}
