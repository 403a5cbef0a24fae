import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { Store } from '../../src/ports/store.js';
import type { TagQuery } from '../../src/ports/tag-queries.js';
import { giveClicks, makeLink, makeOwner, openFresh, type OpenStore } from './store-factories.js';

async function insertAll(store: Store, links: readonly Link[]): Promise<void> {
  for (const link of links) {
    assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  }
}

/** TagQueries (issue 22, ADR 0119): tags of links counted, with their links' clicks. */
export function tagQueriesContract(openStore: OpenStore): void {
  describe('TagQueries.listTags', () => {
    /** One owner's links: tags, states and clicks; another owner's beside them. */
    async function setUp(store: Store) {
      const owner = makeOwner();
      const other = makeOwner();
      const links = [
        makeLink({ owner, tags: ['work', 'urgent'] }),
        makeLink({ owner, tags: ['urgent'], state: 'disabled' }),
        makeLink({ owner, tags: ['work'], expiresAt: 1 }),
        makeLink({ owner, tags: ['work', 'Zebra', 'éclair'], state: 'deleted', deletedAt: 1 }),
        makeLink({ owner, tags: ['Zebra', 'éclair'] }),
        makeLink({ owner, tags: [] }),
        makeLink({ owner: other, tags: ['work', 'theirs'] }),
      ];
      await insertAll(store, links);
      const clicks = [5, 2, 0, 100, 1, 9, 1000];
      await giveClicks(store, new Map(links.map((link, i) => [link.id, clicks[i]!])));
      return { owner, other };
    }

    test("counts the owner's links by tag, deleted ones left out, with their clicks", async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, other } = await setUp(store);
      const list = (query: Partial<TagQuery>) => store.tags.listTags({ limit: 100, ...query });
      // Code point order: upper case before lower case, accents after both.
      assert.deepEqual(await list({ owner }), [
        { name: 'Zebra', links: 1, clicks: 1 },
        { name: 'urgent', links: 2, clicks: 7 },
        { name: 'work', links: 2, clicks: 5 },
        { name: 'éclair', links: 1, clicks: 1 },
      ]);
      assert.deepEqual(await list({ owner: other }), [
        { name: 'theirs', links: 1, clicks: 1000 },
        { name: 'work', links: 1, clicks: 1000 },
      ]);
      assert.deepEqual(await list({ owner: makeOwner() }), []);
      // Every owner's (an admin's view).
      assert.deepEqual(await list({}), [
        { name: 'Zebra', links: 1, clicks: 1 },
        { name: 'theirs', links: 1, clicks: 1000 },
        { name: 'urgent', links: 2, clicks: 7 },
        { name: 'work', links: 3, clicks: 1005 },
        { name: 'éclair', links: 1, clicks: 1 },
      ]);
    });

    test('search, an exact name, and pages that resume after a name', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner } = await setUp(store);
      const names = async (query: Partial<TagQuery>) =>
        (await store.tags.listTags({ owner, limit: 100, ...query })).map((tag) => tag.name);
      assert.deepEqual(await names({ search: 'R' }), ['Zebra', 'urgent', 'work', 'éclair']);
      assert.deepEqual(await names({ search: 'ÉCL' }), ['éclair']);
      assert.deepEqual(await names({ search: 'zeb' }), ['Zebra']);
      assert.deepEqual(await names({ search: '%' }), []);
      assert.deepEqual(await names({ search: '' }), ['Zebra', 'urgent', 'work', 'éclair']);
      assert.deepEqual(await store.tags.listTags({ owner, name: 'work', limit: 1 }), [
        { name: 'work', links: 2, clicks: 5 },
      ]);
      assert.deepEqual(await names({ name: 'wor' }), []);
      assert.deepEqual(await names({ name: 'Work' }), []);
      assert.deepEqual(await names({ limit: 2 }), ['Zebra', 'urgent']);
      assert.deepEqual(await names({ limit: 2, afterName: 'urgent' }), ['work', 'éclair']);
      assert.deepEqual(await names({ afterName: 'éclair' }), []);
      // A position need not be a tag: names after it, in the same order.
      assert.deepEqual(await names({ afterName: 'a' }), ['urgent', 'work', 'éclair']);
      assert.deepEqual(await names({ afterName: 'urgent', search: 'r' }), ['work', 'éclair']);
    });

    test("domains: only links on the key's domains count (issue 22)", async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      await insertAll(store, [
        makeLink({ owner, tags: ['spring', 'sale'] }),
        makeLink({ owner, domain: 'go.example', tags: ['spring'] }),
        makeLink({ owner, domain: 'acme.example', tags: ['sale'] }),
      ]);
      const list = (domains: readonly string[] | undefined) =>
        store.tags.listTags({ owner, domains, limit: 10 });
      const counts = async (domains: readonly string[] | undefined) =>
        (await list(domains)).map((tag) => `${tag.name}:${tag.links}`);
      assert.deepEqual(await counts(undefined), ['sale:2', 'spring:2']);
      assert.deepEqual(await counts(['go.example']), ['spring:1']);
      assert.deepEqual(await counts(['', 'acme.example']), ['sale:2', 'spring:1']);
      assert.deepEqual(await counts([]), []);
    });

    test('U+0000 in any filter finds nothing and never fails', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner } = await setUp(store);
      for (const field of ['owner', 'search', 'name'] as const) {
        const found = await store.tags.listTags({ owner, limit: 10, [field]: 'work\u0000' });
        assert.deepEqual(found, [], field);
      }
      const after = await store.tags.listTags({ owner, limit: 10, afterName: 'urgent\u0000x' });
      assert.deepEqual(
        after.map((tag) => tag.name),
        ['work', 'éclair'],
      );
    });
  });
}
