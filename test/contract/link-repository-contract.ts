import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import {
  BASE_MS,
  HOUR_MS,
  makeCode,
  makeLink,
  makeOwner,
  openFresh,
  ULID_PATTERN,
  type OpenStore,
} from './store-factories.js';

/**
 * LinkRepository: insertLink, findLinkById, findLinkByCode, importLinks and replaceLink
 * (SPEC §4); its idempotency claims and listLinks have suites of their own.
 */
export function linkRepositoryContract(openStore: OpenStore): void {
  describe('insertLink and find', () => {
    test('a link with every optional field empty round-trips exactly', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      assert.match(link.id, ULID_PATTERN);

      assert.deepEqual(await store.links.insertLink(link), { kind: 'inserted', link });
      assert.deepEqual(await store.links.findLinkById(link.id), link);
      assert.deepEqual(await store.links.findLinkByCode('', link.code), link);
    });

    test('a link with every field set round-trips exactly', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({
        code: 'Custom_Alias-1',
        destination: 'https://example.test/path?q=a%20b&r=%C3%BC#frag',
        statusCode: 308,
        state: 'disabled',
        custom: true,
        title: 'Ünïcödé title with "quotes" and \'apostrophes\' 🚀',
        tags: ['zeta', 'alpha', 'café', 'a:b.c-d_e'],
        createdAt: BASE_MS - 3 * HOUR_MS,
        updatedAt: BASE_MS - HOUR_MS,
        expiresAt: BASE_MS + 30 * 24 * HOUR_MS,
        deletedAt: BASE_MS - 1,
        version: 7,
      });

      assert.deepEqual(await store.links.insertLink(link), { kind: 'inserted', link });
      const byId = await store.links.findLinkById(link.id);
      assert.deepEqual(byId, link);
      // Tags keep their order: they are a list, not a set sorted by the database.
      assert.deepEqual(byId?.tags, ['zeta', 'alpha', 'café', 'a:b.c-d_e']);
      assert.deepEqual(await store.links.findLinkByCode('', link.code), link);
    });

    test('every redirect status and stored state round-trips', async (t) => {
      const store = await openFresh(t, openStore);
      const links: Link[] = [
        makeLink({ statusCode: 301, state: 'active' }),
        makeLink({ statusCode: 302, state: 'disabled' }),
        makeLink({ statusCode: 307, state: 'expired', expiresAt: BASE_MS - 1 }),
        makeLink({ statusCode: 308, state: 'deleted', deletedAt: BASE_MS }),
      ];
      for (const link of links) {
        assert.equal((await store.links.insertLink(link)).kind, 'inserted');
      }
      for (const link of links) {
        assert.deepEqual(await store.links.findLinkById(link.id), link);
      }
    });

    test('unknown ids and codes are null', async (t) => {
      const store = await openFresh(t, openStore);
      await store.links.insertLink(makeLink());
      assert.equal(await store.links.findLinkById(makeLink().id), null);
      assert.equal(await store.links.findLinkByCode('', makeCode()), null);
    });

    test('lookups holding U+0000 (a hostile path) find nothing and never fail', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      await store.links.insertLink(link);
      const nul = `${link.code}\u0000`;
      assert.equal(await store.links.findLinkById(`${link.id}\u0000`), null);
      assert.equal(await store.links.findLinkByCode('', nul), null);
      assert.equal(await store.links.findIdempotencyRecord(link.owner, '\u0000', 0), null);
      for (const filter of ['owner', 'search'] as const) {
        const found = await store.links.listLinks({ [filter]: nul, limit: 10, nowMs: 0 });
        assert.deepEqual(found, [], filter);
      }
      for (const tagsMode of ['any', 'all'] as const) {
        const found = await store.links.listLinks({ tags: [nul], tagsMode, limit: 10, nowMs: 0 });
        assert.deepEqual(found, [], tagsMode);
      }
      // Excluding a tag no link can have excludes nothing.
      const excluding = await store.links.listLinks({ excludeTags: [nul], limit: 10, nowMs: 0 });
      assert.deepEqual(excluding, [link]);
    });

    test('codes are case-sensitive: codes differing only in case are two links', async (t) => {
      const store = await openFresh(t, openStore);
      const lower = makeLink({ code: 'casecode' });
      const upper = makeLink({ code: 'CaseCode' });
      assert.equal((await store.links.insertLink(lower)).kind, 'inserted');
      assert.equal((await store.links.insertLink(upper)).kind, 'inserted');
      assert.deepEqual(await store.links.findLinkByCode('', 'casecode'), lower);
      assert.deepEqual(await store.links.findLinkByCode('', 'CaseCode'), upper);
      assert.equal(await store.links.findLinkByCode('', 'CASECODE'), null);
    });
  });

  describe('importLinks', () => {
    test('inserts a batch, skips taken codes, and counts what it inserted', async (t) => {
      const store = await openFresh(t, openStore);
      const existing = makeLink();
      await store.links.insertLink(existing);
      const batch = Array.from({ length: 500 }, () => makeLink());
      const clash = makeLink({ code: existing.code });
      assert.equal(await store.links.importLinks([...batch, clash]), 500);
      for (const link of batch)
        assert.deepEqual(await store.links.findLinkByCode('', link.code), link);
      assert.deepEqual(await store.links.findLinkByCode('', existing.code), existing);
      assert.equal(await store.links.findLinkById(clash.id), null);
      assert.equal(await store.links.importLinks([]), 0);
    });
  });

  describe('code uniqueness', () => {
    test('a second link with a taken code is refused and the first is unchanged', async (t) => {
      const store = await openFresh(t, openStore);
      const first = makeLink();
      const second = makeLink({ code: first.code, owner: makeOwner() });
      await store.links.insertLink(first);

      assert.deepEqual(await store.links.insertLink(second), { kind: 'code-taken' });
      assert.deepEqual(await store.links.findLinkByCode('', first.code), first);
      assert.equal(await store.links.findLinkById(second.id), null);
    });

    test('a tombstone keeps its code (deleted through replaceLink)', async (t) => {
      const store = await openFresh(t, openStore);
      const first = makeLink({ custom: true });
      await store.links.insertLink(first);
      const tombstone: Link = {
        ...first,
        state: 'deleted',
        deletedAt: BASE_MS + 1,
        updatedAt: BASE_MS + 1,
        version: 2,
      };
      assert.equal(await store.links.replaceLink(tombstone, 1), true);

      const second = makeLink({ code: first.code });
      assert.deepEqual(await store.links.insertLink(second), { kind: 'code-taken' });
      assert.deepEqual(await store.links.findLinkByCode('', first.code), tombstone);
      assert.equal(await store.links.findLinkById(second.id), null);
    });

    test('a link stored as deleted keeps its code', async (t) => {
      const store = await openFresh(t, openStore);
      const first = makeLink({ state: 'deleted', deletedAt: BASE_MS });
      await store.links.insertLink(first);

      assert.deepEqual(await store.links.insertLink(makeLink({ code: first.code })), {
        kind: 'code-taken',
      });
      assert.deepEqual(await store.links.findLinkByCode('', first.code), first);
    });

    test('20 concurrent inserts of one code: exactly one is inserted', async (t) => {
      const store = await openFresh(t, openStore);
      const code = makeCode();
      const candidates = Array.from({ length: 20 }, () => makeLink({ code }));

      const results = await Promise.all(candidates.map((link) => store.links.insertLink(link)));

      const inserted = results.filter((result) => result.kind === 'inserted');
      assert.equal(inserted.length, 1);
      assert.equal(results.filter((result) => result.kind === 'code-taken').length, 19);
      const winner = inserted[0]?.kind === 'inserted' ? inserted[0].link : undefined;
      assert.ok(winner);
      assert.deepEqual(await store.links.findLinkByCode('', code), winner);
      const stored = await Promise.all(candidates.map((c) => store.links.findLinkById(c.id)));
      assert.equal(stored.filter((link) => link !== null).length, 1);
    });

    test('20 concurrent inserts of distinct codes are all inserted', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const links = Array.from({ length: 20 }, () => makeLink({ owner }));

      const results = await Promise.all(links.map((link) => store.links.insertLink(link)));

      assert.ok(results.every((result) => result.kind === 'inserted'));
      for (const link of links) {
        assert.deepEqual(await store.links.findLinkByCode('', link.code), link);
      }
    });
  });

  describe('replaceLink', () => {
    function changed(link: Link): Link {
      return {
        ...link,
        destination: 'https://example.test/changed',
        statusCode: 301,
        state: 'disabled',
        title: 'Changed',
        tags: ['new', 'tags'],
        updatedAt: link.updatedAt + 1000,
        expiresAt: BASE_MS + HOUR_MS,
        deletedAt: null,
        version: link.version + 1,
      };
    }

    test('with the current version: true, and every mutable field is persisted', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ title: 'Original', tags: ['old'] });
      await store.links.insertLink(link);
      const next = changed(link);

      assert.equal(await store.links.replaceLink(next, 1), true);
      assert.deepEqual(await store.links.findLinkById(link.id), next);
      assert.deepEqual(await store.links.findLinkByCode('', link.code), next);
    });

    test('nulls replace values and values replace nulls', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({
        title: 'Has a title',
        tags: ['x'],
        expiresAt: BASE_MS + HOUR_MS,
      });
      await store.links.insertLink(link);
      const next: Link = {
        ...link,
        title: null,
        tags: [],
        expiresAt: null,
        state: 'deleted',
        deletedAt: BASE_MS + 5,
        version: 2,
      };

      assert.equal(await store.links.replaceLink(next, 1), true);
      assert.deepEqual(await store.links.findLinkById(link.id), next);
    });

    test('with a stale version: false, and nothing changes', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      await store.links.insertLink(link);
      const v2 = changed(link);
      assert.equal(await store.links.replaceLink(v2, 1), true);

      const lostUpdate: Link = { ...link, destination: 'https://example.test/lost', version: 2 };
      assert.equal(await store.links.replaceLink(lostUpdate, 1), false);
      assert.equal(await store.links.replaceLink({ ...lostUpdate, version: 4 }, 3), false);
      assert.deepEqual(await store.links.findLinkById(link.id), v2);
    });

    test('two replaces from the same version: exactly one wins', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink();
      await store.links.insertLink(link);
      const a: Link = { ...link, title: 'A', version: 2 };
      const b: Link = { ...link, title: 'B', version: 2 };

      const results = await Promise.all([
        store.links.replaceLink(a, 1),
        store.links.replaceLink(b, 1),
      ]);

      assert.equal(results.filter(Boolean).length, 1);
      assert.deepEqual(await store.links.findLinkById(link.id), results[0] ? a : b);
    });

    test('an unknown id: false, and nothing is inserted', async (t) => {
      const store = await openFresh(t, openStore);
      const ghost = makeLink();
      assert.equal(await store.links.replaceLink(changed(ghost), 1), false);
      assert.equal(await store.links.findLinkById(ghost.id), null);
      assert.equal(await store.links.findLinkByCode('', ghost.code), null);
    });

    test('code, owner, created_at and custom are never changed by replace', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ custom: true, createdAt: BASE_MS - HOUR_MS });
      await store.links.insertLink(link);
      const next = changed(link);
      const attempt: Link = {
        ...next,
        code: makeCode(),
        owner: makeOwner(),
        createdAt: BASE_MS + 99 * HOUR_MS,
        custom: false,
      };

      assert.equal(await store.links.replaceLink(attempt, 1), true);
      assert.deepEqual(await store.links.findLinkById(link.id), next);
      assert.deepEqual(await store.links.findLinkByCode('', link.code), next);
      assert.equal(await store.links.findLinkByCode('', attempt.code), null);
    });

    test('replacing one link leaves the others alone', async (t) => {
      const store = await openFresh(t, openStore);
      const target = makeLink();
      const bystander = makeLink();
      await store.links.insertLink(target);
      await store.links.insertLink(bystander);

      assert.equal(await store.links.replaceLink(changed(target), 1), true);
      assert.deepEqual(await store.links.findLinkById(bystander.id), bystander);
    });
  });
}
