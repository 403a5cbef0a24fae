import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { LinkQuery } from '../../src/ports/link-repository.js';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  idsOf,
  makeId,
  makeLink,
  makeOwner,
  newestFirst,
  openFresh,
  type OpenStore,
} from './store-factories.js';

const NOW = BASE_MS;

/** Inserts `links` one after the other (ids already sort in this order) and checks each. */
async function insertAll(store: Store, links: readonly Link[]): Promise<void> {
  for (const link of links) {
    assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  }
}

async function listIds(store: Store, query: Partial<LinkQuery>): Promise<string[]> {
  return idsOf(await store.links.listLinks({ limit: 100, nowMs: NOW, ...query }));
}

/** listLinks (SPEC §3 list, §4): newest first, filters combined with AND, literal search. */
export function listLinksContract(openStore: OpenStore): void {
  describe('listLinks', () => {
    test('newest first (descending id), every field as stored', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const links = Array.from({ length: 5 }, (_, i) =>
        makeLink({ owner, title: `link ${i}`, tags: [`t${i}`] }),
      );
      // Insert out of id order: the order comes from the ids, not from insertion.
      await insertAll(store, [links[2]!, links[0]!, links[4]!, links[1]!, links[3]!]);

      const listed = await store.links.listLinks({ owner, limit: 100, nowMs: NOW });
      assert.deepEqual(listed, [...links].reverse());
    });

    test('limit caps the answer and keeps the newest', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const links = Array.from({ length: 6 }, () => makeLink({ owner }));
      await insertAll(store, links);

      assert.deepEqual(await listIds(store, { owner, limit: 3 }), newestFirst(links).slice(0, 3));
      assert.deepEqual(await listIds(store, { owner, limit: 1 }), newestFirst(links).slice(0, 1));
      assert.deepEqual(await listIds(store, { owner, limit: 6 }), newestFirst(links));
      assert.deepEqual(await listIds(store, { owner, limit: 50 }), newestFirst(links));
    });

    test('beforeId pages through every link exactly once', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const links = Array.from({ length: 11 }, () => makeLink({ owner }));
      await insertAll(store, links);

      const seen: string[] = [];
      let beforeId: string | undefined;
      for (let page = 0; page < 10; page++) {
        const ids = await listIds(store, { owner, limit: 4, beforeId });
        assert.ok(ids.length <= 4);
        if (ids.length === 0) break;
        seen.push(...ids);
        beforeId = ids.at(-1);
      }
      assert.deepEqual(seen, newestFirst(links));
      assert.equal(new Set(seen).size, links.length);
    });

    test('beforeId need not be a stored id', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const older = [makeLink({ owner }), makeLink({ owner })];
      const between = makeId();
      const newer = [makeLink({ owner }), makeLink({ owner })];
      await insertAll(store, [...older, ...newer]);

      assert.deepEqual(await listIds(store, { owner, beforeId: between }), newestFirst(older));
      assert.deepEqual(
        await listIds(store, { owner, beforeId: makeId() }),
        newestFirst([...older, ...newer]),
      );
      assert.deepEqual(await listIds(store, { owner, beforeId: older[0]!.id }), []);
    });

    test('owner filters; undefined means every owner', async (t) => {
      const store = await openFresh(t, openStore);
      const alice = makeOwner();
      const bob = makeOwner();
      const aliceLinks = [makeLink({ owner: alice }), makeLink({ owner: alice })];
      const bobLinks = [makeLink({ owner: bob })];
      const all = [aliceLinks[0]!, bobLinks[0]!, aliceLinks[1]!];
      await insertAll(store, all);

      assert.deepEqual(await listIds(store, { owner: alice }), newestFirst(aliceLinks));
      assert.deepEqual(await listIds(store, { owner: bob }), newestFirst(bobLinks));
      assert.deepEqual(await listIds(store, { owner: makeOwner() }), []);
      assert.deepEqual(await listIds(store, { owner: undefined }), newestFirst(all));
      assert.deepEqual(await listIds(store, {}), newestFirst(all));
    });

    test('search: a case-insensitive substring of code, destination or title', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const byCode = makeLink({ owner, code: 'SummerSale', destination: 'https://shop.test/a' });
      const byDestination = makeLink({
        owner,
        destination: 'https://Docs.Example.ORG/Guide?Ref=SUMMER',
        title: 'Reference',
      });
      const byTitle = makeLink({ owner, title: 'Our WINTER menu' });
      const plain = makeLink({ owner, destination: 'https://plain.test/', title: null });
      await insertAll(store, [byCode, byDestination, byTitle, plain]);

      const search = (s: string) => listIds(store, { owner, search: s });
      assert.deepEqual(await search('summer'), newestFirst([byCode, byDestination]));
      assert.deepEqual(await search('SUMMERsale'), [byCode.id]);
      assert.deepEqual(await search('example.org/guide'), [byDestination.id]);
      assert.deepEqual(await search('winter'), [byTitle.id]);
      assert.deepEqual(await search('Our Winter Menu'), [byTitle.id]);
      assert.deepEqual(await search('plain.test'), [plain.id]);
      assert.deepEqual(await search('nowhere-to-be-found'), []);
      // Every link has "https://" in its destination.
      assert.deepEqual(
        await search('HTTPS://'),
        newestFirst([byCode, byDestination, byTitle, plain]),
      );
    });

    test('search folds case beyond ASCII', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const german = makeLink({ owner, title: 'Über uns' });
      const french = makeLink({ owner, title: 'CRÈME BRÛLÉE' });
      await insertAll(store, [german, french]);

      const search = (s: string) => listIds(store, { owner, search: s });
      assert.deepEqual(await search('über'), [german.id]);
      assert.deepEqual(await search('ÜBER'), [german.id]);
      assert.deepEqual(await search('crème brûlée'), [french.id]);
      assert.deepEqual(await search('Brûlée'), [french.id]);
    });

    test('search treats %, _, quotes and backslashes literally', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      // Each pair: the first holds the special character, the second would match only if
      // the character were read as a pattern (LIKE wildcards, escapes) or broke quoting.
      const percent = makeLink({ owner, title: '100% sure' });
      const percentDecoy = makeLink({ owner, title: '1000 sure' });
      const underscore = makeLink({ owner, title: 'snake_case' });
      const underscoreDecoy = makeLink({ owner, title: 'snakeXcase' });
      const quotes = makeLink({ owner, title: `it's "quoted"` });
      const quotesDecoy = makeLink({ owner, title: 'its quoted' });
      const backslash = makeLink({ owner, title: 'C:\\temp' });
      const backslashDecoy = makeLink({ owner, title: 'C:temp' });
      await insertAll(store, [
        percent,
        percentDecoy,
        underscore,
        underscoreDecoy,
        quotes,
        quotesDecoy,
        backslash,
        backslashDecoy,
      ]);

      const search = (s: string) => listIds(store, { owner, search: s });
      assert.deepEqual(await search('100%'), [percent.id]);
      assert.deepEqual(await search('%'), [percent.id]);
      assert.deepEqual(await search('0% s'), [percent.id]);
      assert.deepEqual(await search('e_c'), [underscore.id]);
      assert.deepEqual(await search('_'), [underscore.id]);
      assert.deepEqual(await search("it's"), [quotes.id]);
      assert.deepEqual(await search("'"), [quotes.id]);
      assert.deepEqual(await search('"quoted"'), [quotes.id]);
      assert.deepEqual(await search('\\'), [backslash.id]);
      assert.deepEqual(await search(':\\t'), [backslash.id]);
      assert.deepEqual(await search("'; DROP TABLE links; --"), []);
      assert.equal((await store.links.listLinks({ owner, limit: 100, nowMs: NOW })).length, 8);
    });

    test('tag: an exact, case-sensitive tag match, never a substring', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const workUrgent = makeLink({ owner, tags: ['work', 'urgent'] });
      const workshop = makeLink({ owner, tags: ['workshop'] });
      const capital = makeLink({ owner, tags: ['Work'] });
      const untagged = makeLink({ owner, tags: [] });
      const urgentWork = makeLink({ owner, tags: ['urgent', 'work'] });
      const cafe = makeLink({ owner, tags: ['café', 'a:b'] });
      const titled = makeLink({ owner, title: 'work', destination: 'https://work.test/' });
      await insertAll(store, [workUrgent, workshop, capital, untagged, urgentWork, cafe, titled]);

      const tag = (s: string) => listIds(store, { owner, tags: [s] });
      assert.deepEqual(await tag('work'), newestFirst([workUrgent, urgentWork]));
      assert.deepEqual(await tag('urgent'), newestFirst([workUrgent, urgentWork]));
      assert.deepEqual(await tag('Work'), [capital.id]);
      assert.deepEqual(await tag('workshop'), [workshop.id]);
      assert.deepEqual(await tag('ork'), []);
      assert.deepEqual(await tag('wor'), []);
      assert.deepEqual(await tag('café'), [cafe.id]);
      assert.deepEqual(await tag('a:b'), [cafe.id]);
      assert.deepEqual(await tag('work", "x'), []);
    });

    test('tags: any of them by default, all of them with tagsMode all', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const a = makeLink({ owner, tags: ['a'] });
      const ab = makeLink({ owner, tags: ['b', 'a'] });
      const abc = makeLink({ owner, tags: ['a', 'c', 'b'] });
      const c = makeLink({ owner, tags: ['c'] });
      const none = makeLink({ owner, tags: [] });
      const otherOwners = makeLink({ tags: ['a', 'b'] });
      await insertAll(store, [a, ab, abc, c, none, otherOwners]);

      const list = (query: Partial<LinkQuery>) => listIds(store, { owner, ...query });
      assert.deepEqual(await list({ tags: ['a', 'b'] }), newestFirst([a, ab, abc]));
      assert.deepEqual(
        await list({ tags: ['a', 'b'], tagsMode: 'any' }),
        newestFirst([a, ab, abc]),
      );
      assert.deepEqual(await list({ tags: ['b', 'c'] }), newestFirst([ab, abc, c]));
      assert.deepEqual(await list({ tags: ['a', 'b'], tagsMode: 'all' }), newestFirst([ab, abc]));
      assert.deepEqual(await list({ tags: ['c', 'b', 'a'], tagsMode: 'all' }), [abc.id]);
      assert.deepEqual(await list({ tags: ['a', 'nope'], tagsMode: 'all' }), []);
      assert.deepEqual(
        await list({ tags: ['a', 'a'], tagsMode: 'all' }),
        newestFirst([a, ab, abc]),
      );
      assert.deepEqual(await list({ tags: ['nope', 'c'] }), newestFirst([abc, c]));
      // An empty list filters nothing, as an absent one.
      assert.deepEqual(await list({ tags: [] }), newestFirst([a, ab, abc, c, none]));
      assert.deepEqual(
        await list({ tags: ['a', 'b'], tagsMode: 'all', owner: undefined }),
        newestFirst([ab, abc, otherOwners]),
      );
    });

    test('excludeTags: links carrying none of them, with or without tags', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const a = makeLink({ owner, tags: ['a'] });
      const ab = makeLink({ owner, tags: ['a', 'b'] });
      const c = makeLink({ owner, tags: ['c'] });
      const none = makeLink({ owner, tags: [] });
      await insertAll(store, [a, ab, c, none]);

      const list = (query: Partial<LinkQuery>) => listIds(store, { owner, ...query });
      assert.deepEqual(await list({ excludeTags: ['b'] }), newestFirst([a, c, none]));
      assert.deepEqual(await list({ excludeTags: ['b', 'c'] }), newestFirst([a, none]));
      assert.deepEqual(await list({ excludeTags: ['nope'] }), newestFirst([a, ab, c, none]));
      assert.deepEqual(await list({ excludeTags: [] }), newestFirst([a, ab, c, none]));
      assert.deepEqual(await list({ tags: ['a'], excludeTags: ['b'] }), [a.id]);
      assert.deepEqual(await list({ tags: ['a', 'c'], excludeTags: ['b'] }), newestFirst([a, c]));
      assert.deepEqual(await list({ tags: ['a'], tagsMode: 'all', excludeTags: ['a'] }), []);
      // Exact names: neither a prefix nor another case is excluded.
      assert.deepEqual(await list({ excludeTags: ['A', 'ab'] }), newestFirst([a, ab, c, none]));
    });

    test('state: the effective state at nowMs', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const activeForever = makeLink({ owner, state: 'active', expiresAt: null });
      const activeUntilLater = makeLink({ owner, state: 'active', expiresAt: NOW + 1 });
      const expiresNow = makeLink({ owner, state: 'active', expiresAt: NOW });
      const expiredByTime = makeLink({ owner, state: 'active', expiresAt: NOW - 60_000 });
      const storedExpired = makeLink({ owner, state: 'expired', expiresAt: NOW - 120_000 });
      const disabled = makeLink({ owner, state: 'disabled', expiresAt: null });
      // A disabled link past its expiry is still disabled: only active links expire.
      const disabledPastExpiry = makeLink({ owner, state: 'disabled', expiresAt: NOW - 1 });
      const deleted = makeLink({ owner, state: 'deleted', deletedAt: NOW - 1 });
      const deletedPastExpiry = makeLink({
        owner,
        state: 'deleted',
        expiresAt: NOW - 1,
        deletedAt: NOW - 1,
      });
      await insertAll(store, [
        activeForever,
        activeUntilLater,
        expiresNow,
        expiredByTime,
        storedExpired,
        disabled,
        disabledPastExpiry,
        deleted,
        deletedPastExpiry,
      ]);

      const state = (s: LinkQuery['state'], nowMs = NOW) =>
        listIds(store, { owner, state: s, nowMs });
      assert.deepEqual(await state('active'), newestFirst([activeForever, activeUntilLater]));
      assert.deepEqual(
        await state('expired'),
        newestFirst([expiresNow, expiredByTime, storedExpired]),
      );
      assert.deepEqual(await state('disabled'), newestFirst([disabled, disabledPastExpiry]));
      assert.deepEqual(await state('deleted'), newestFirst([deleted, deletedPastExpiry]));
      assert.deepEqual(
        await state(undefined),
        newestFirst([
          activeForever,
          activeUntilLater,
          expiresNow,
          expiredByTime,
          storedExpired,
          disabled,
          disabledPastExpiry,
        ]),
      );

      // The same rows read at another clock: expiry follows nowMs, nothing else moves.
      assert.deepEqual(
        await state('active', NOW - 120_000),
        newestFirst([activeForever, activeUntilLater, expiresNow, expiredByTime]),
      );
      assert.deepEqual(await state('expired', NOW - 120_000), [storedExpired.id]);
      assert.deepEqual(await state('active', NOW + 1), [activeForever.id]);
    });

    test('filters combine: owner, search, tag, state, beforeId and limit together', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const other = makeOwner();
      const match = () => makeLink({ owner, title: 'Quarterly Report', tags: ['finance'] });
      const m1 = match();
      const wrongOwner = makeLink({ owner: other, title: 'Quarterly Report', tags: ['finance'] });
      const m2 = match();
      const wrongTag = makeLink({ owner, title: 'Quarterly Report', tags: ['hr'] });
      const m3 = match();
      const wrongTitle = makeLink({ owner, title: 'Annual Report', tags: ['finance'] });
      const wrongState = makeLink({
        owner,
        title: 'Quarterly Report',
        tags: ['finance'],
        state: 'disabled',
      });
      const expired = makeLink({
        owner,
        title: 'Quarterly Report',
        tags: ['finance'],
        expiresAt: NOW - 1,
      });
      const m4 = match();
      await insertAll(store, [
        m1,
        wrongOwner,
        m2,
        wrongTag,
        m3,
        wrongTitle,
        wrongState,
        expired,
        m4,
      ]);

      const query = {
        owner,
        search: 'QUARTERLY',
        tags: ['finance'],
        state: 'active',
      } as const;
      assert.deepEqual(await listIds(store, query), newestFirst([m1, m2, m3, m4]));
      assert.deepEqual(await listIds(store, { ...query, limit: 2 }), newestFirst([m3, m4]));
      assert.deepEqual(
        await listIds(store, { ...query, limit: 2, beforeId: m3.id }),
        newestFirst([m1, m2]),
      );
      assert.deepEqual(
        await listIds(store, { ...query, owner: undefined }),
        newestFirst([m1, wrongOwner, m2, m3, m4]),
      );
      assert.deepEqual(await listIds(store, { ...query, state: 'expired' }), [expired.id]);
    });
  });
}
