import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  HOUR_MS,
  idsOf,
  makeClaim,
  makeLink,
  openFresh,
  type OpenStore,
} from './store-factories.js';

const DAY_MS = 24 * HOUR_MS;
const YEAR_MS = 365 * DAY_MS;

/**
 * Inserts `links`, then one more active link: an adapter may hold back the link inserted
 * last (SQLite does, for scanCodes), and these tests are about the others.
 */
async function insertAll(store: Store, links: readonly Link[]): Promise<void> {
  for (const link of links) assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  await store.links.insertLink(makeLink());
}

function sortedIds(links: readonly { readonly id: string }[]): string[] {
  return idsOf(links).sort();
}

/** A link marked expired by the sweeper, as markExpired leaves it. */
function expiredLink(expiresAt: number, overrides: Partial<Link> = {}): Link {
  return makeLink({ state: 'expired', expiresAt, updatedAt: expiresAt, version: 2, ...overrides });
}

/** A tombstone, as deleteLink leaves it. */
function deletedLink(deletedAt: number, overrides: Partial<Link> = {}): Link {
  return makeLink({ state: 'deleted', deletedAt, updatedAt: deletedAt, version: 2, ...overrides });
}

/** SweepQueries: markExpired, reclaimableLinks, deleteReclaimed, purgeIdempotencyRecords (SPEC §7). */
export function sweepQueriesContract(openStore: OpenStore): void {
  describe('markExpired', () => {
    test('marks only active links whose expiry has passed, bumping the version', async (t) => {
      const store = await openFresh(t, openStore);
      const now = BASE_MS + HOUR_MS;
      const due = [
        makeLink({ expiresAt: BASE_MS - DAY_MS }),
        // Expired at its expiry instant, as effectiveState has it.
        makeLink({ expiresAt: now, version: 4, title: 'kept', tags: ['t'] }),
      ];
      const notDue = [
        makeLink({ expiresAt: now + 1 }),
        makeLink({ expiresAt: null }),
        makeLink({ state: 'disabled', expiresAt: BASE_MS - DAY_MS }),
        deletedLink(BASE_MS - DAY_MS, { expiresAt: BASE_MS - DAY_MS }),
        expiredLink(BASE_MS - DAY_MS),
      ];
      await insertAll(store, [...due, ...notDue]);

      const marked = await store.sweep.markExpired(now, 100);

      const expected = due.map((link): Link => ({
        ...link,
        state: 'expired',
        updatedAt: now,
        version: link.version + 1,
      }));
      assert.deepEqual(
        [...marked].sort((a, b) => (a.id < b.id ? -1 : 1)),
        [...expected].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      for (const link of expected) assert.deepEqual(await store.links.findLinkById(link.id), link);
      for (const link of notDue) assert.deepEqual(await store.links.findLinkById(link.id), link);
      assert.deepEqual(await store.sweep.markExpired(now, 100), [], 'nothing is marked twice');
    });

    test('marks at most `limit` links a call; calls in turn mark every due link', async (t) => {
      const store = await openFresh(t, openStore);
      const due = Array.from({ length: 7 }, (_, i) => makeLink({ expiresAt: BASE_MS - i }));
      await insertAll(store, due);

      const batches: Link[][] = [];
      for (;;) {
        const batch = await store.sweep.markExpired(BASE_MS, 3);
        batches.push([...batch]);
        if (batch.length < 3) break;
      }

      assert.deepEqual(
        batches.map((batch) => batch.length),
        [3, 3, 1],
      );
      assert.deepEqual(sortedIds(batches.flat()), sortedIds(due));
      for (const link of due) {
        assert.equal((await store.links.findLinkById(link.id))?.state, 'expired');
      }
    });
  });

  describe('reclaimableLinks', () => {
    test('an expired or deleted generated link is reclaimable from its expiry or deletion on', async (t) => {
      const store = await openFresh(t, openStore);
      const expired = expiredLink(BASE_MS - 10 * DAY_MS);
      // A tombstone counts from its deletion, even when it expired long before.
      const deleted = deletedLink(BASE_MS - 5 * DAY_MS, { expiresAt: BASE_MS - YEAR_MS });
      await insertAll(store, [expired, deleted]);

      assert.deepEqual(await store.sweep.reclaimableLinks(BASE_MS - 10 * DAY_MS - 1, 100), []);
      assert.deepEqual(await store.sweep.reclaimableLinks(BASE_MS - 10 * DAY_MS, 100), [expired]);
      assert.deepEqual(await store.sweep.reclaimableLinks(BASE_MS - 5 * DAY_MS - 1, 100), [
        expired,
      ]);
      assert.deepEqual(
        sortedIds(await store.sweep.reclaimableLinks(BASE_MS - 5 * DAY_MS, 100)),
        sortedIds([expired, deleted]),
      );
    });

    test('custom aliases are never reclaimable, however long ago they expired or went', async (t) => {
      const store = await openFresh(t, openStore);
      const generated = expiredLink(BASE_MS - YEAR_MS);
      const customs = [
        expiredLink(BASE_MS - YEAR_MS, { custom: true }),
        deletedLink(BASE_MS - YEAR_MS, { custom: true }),
        makeLink({ custom: true, expiresAt: BASE_MS - YEAR_MS }),
      ];
      await insertAll(store, [generated, ...customs]);
      // Even once the sweeper has marked the active custom alias expired.
      await store.sweep.markExpired(BASE_MS, 100);

      const farFuture = BASE_MS + 100 * YEAR_MS;
      assert.deepEqual(await store.sweep.reclaimableLinks(farFuture, 100), [generated]);
    });

    test('active, disabled and not yet marked links are not reclaimable', async (t) => {
      const store = await openFresh(t, openStore);
      await insertAll(store, [
        makeLink({ expiresAt: null }),
        makeLink({ expiresAt: BASE_MS + DAY_MS }),
        // Due, but not marked yet: the sweeper marks (and announces) before it reclaims.
        makeLink({ expiresAt: BASE_MS - YEAR_MS }),
        makeLink({ state: 'disabled', expiresAt: BASE_MS - YEAR_MS }),
      ]);
      assert.deepEqual(await store.sweep.reclaimableLinks(BASE_MS + 100 * YEAR_MS, 100), []);
    });

    test('returns at most `limit` links', async (t) => {
      const store = await openFresh(t, openStore);
      const links = Array.from({ length: 5 }, (_, i) => expiredLink(BASE_MS - DAY_MS - i));
      await insertAll(store, links);

      const some = await store.sweep.reclaimableLinks(BASE_MS, 2);
      assert.equal(some.length, 2);
      for (const link of some) assert.ok(idsOf(links).includes(link.id));
      assert.equal((await store.sweep.reclaimableLinks(BASE_MS, 100)).length, 5);
    });
  });

  describe('deleteReclaimed', () => {
    test('deletes the rows and frees their codes for the conditional insert', async (t) => {
      const store = await openFresh(t, openStore);
      const gone = [expiredLink(BASE_MS - DAY_MS), deletedLink(BASE_MS - DAY_MS)];
      const bystander = expiredLink(BASE_MS + DAY_MS);
      await insertAll(store, [...gone, bystander]);

      const reclaimable = await store.sweep.reclaimableLinks(BASE_MS, 100);
      assert.deepEqual(sortedIds(reclaimable), sortedIds(gone));
      assert.equal(await store.sweep.deleteReclaimed(reclaimable), 2);

      for (const link of gone) {
        assert.equal(await store.links.findLinkById(link.id), null);
        assert.equal(await store.links.findLinkByCode('', link.code), null);
        const reuse = makeLink({ code: link.code });
        assert.deepEqual(await store.links.insertLink(reuse), { kind: 'inserted', link: reuse });
      }
      assert.deepEqual(await store.links.findLinkById(bystander.id), bystander);
      assert.deepEqual(await store.sweep.reclaimableLinks(BASE_MS, 100), []);
      assert.equal(await store.sweep.deleteReclaimed([]), 0);
    });

    test('skips a row whose version moved since it was read: the link keeps its code', async (t) => {
      const store = await openFresh(t, openStore);
      const link = expiredLink(BASE_MS - DAY_MS);
      const edited = expiredLink(BASE_MS - DAY_MS);
      const other = expiredLink(BASE_MS - DAY_MS);
      await insertAll(store, [link, edited, other]);
      const read = await store.sweep.reclaimableLinks(BASE_MS, 100);
      assert.equal(read.length, 3);

      // Meanwhile its owner gives it a new expiry (PATCH revives an expired link).
      const revived: Link = {
        ...link,
        state: 'active',
        expiresAt: BASE_MS + YEAR_MS,
        updatedAt: BASE_MS,
        version: link.version + 1,
      };
      assert.equal(await store.links.replaceLink(revived, link.version), true);
      // And another is retitled: still expired, still reclaimable, but not as it was read.
      const retitled: Link = { ...edited, title: 'new', version: edited.version + 1 };
      assert.equal(await store.links.replaceLink(retitled, edited.version), true);

      assert.equal(await store.sweep.deleteReclaimed(read), 1);
      assert.deepEqual(await store.links.findLinkById(link.id), revived);
      assert.deepEqual(await store.links.findLinkById(edited.id), retitled);
      for (const kept of [link, edited]) {
        assert.deepEqual(await store.links.insertLink(makeLink({ code: kept.code })), {
          kind: 'code-taken',
        });
      }
      assert.equal(await store.links.findLinkById(other.id), null);
    });

    test('never deletes a custom alias or a live link, whatever it is given', async (t) => {
      const store = await openFresh(t, openStore);
      const keep = [
        expiredLink(BASE_MS - YEAR_MS, { custom: true }),
        deletedLink(BASE_MS - YEAR_MS, { custom: true }),
        makeLink({ expiresAt: null }),
        makeLink({ state: 'disabled' }),
      ];
      await insertAll(store, keep);

      assert.equal(await store.sweep.deleteReclaimed(keep), 0);
      for (const link of keep) assert.deepEqual(await store.links.findLinkById(link.id), link);
    });

    test('a link inserted after a reclaim is found by a scan continued from an earlier cursor', async (t) => {
      const store = await openFresh(t, openStore);
      // Reclaimable links inserted last of all: the newest rows of the store.
      const old = [makeLink(), expiredLink(BASE_MS - DAY_MS), deletedLink(BASE_MS - DAY_MS)];
      for (const link of old) await store.links.insertLink(link);
      let cursor: string | null = null;
      for (;;) {
        const page = await store.codeScan.scanCodes(cursor, 100);
        cursor = page.cursor;
        if (page.codes.length < 100) break;
      }

      await store.sweep.deleteReclaimed(await store.sweep.reclaimableLinks(BASE_MS, 100));
      const fresh = makeLink();
      await store.links.insertLink(fresh);

      const codes: string[] = [];
      for (;;) {
        const page = await store.codeScan.scanCodes(cursor, 100);
        codes.push(...page.codes);
        cursor = page.cursor;
        if (page.codes.length < 100) break;
      }
      assert.ok(codes.includes(fresh.code), 'the known-codes filter would miss this link');
    });
  });

  describe('purgeIdempotencyRecords', () => {
    test('removes records created before the cutoff, at most `limit` a call, and keeps the rest', async (t) => {
      const store = await openFresh(t, openStore);
      const cutoff = BASE_MS - DAY_MS;
      const old = Array.from({ length: 5 }, (_, i) => makeLink({ createdAt: cutoff - 1 - i }));
      // A record is live from its creation until 24 h later: one made at the cutoff stays.
      const young = [makeLink({ createdAt: cutoff }), makeLink({ createdAt: BASE_MS })];
      const claims = new Map<string, ReturnType<typeof makeClaim>>();
      for (const link of [...old, ...young]) {
        const claim = makeClaim({ owner: link.owner, notBefore: 0 });
        claims.set(link.id, claim);
        assert.equal((await store.links.insertLink(link, claim)).kind, 'inserted');
      }
      const recordOf = (link: Link) => {
        const claim = claims.get(link.id);
        assert.ok(claim);
        return store.links.findIdempotencyRecord(claim.owner, claim.key, 0);
      };

      assert.equal(await store.sweep.purgeIdempotencyRecords(cutoff, 3), 3);
      assert.equal(await store.sweep.purgeIdempotencyRecords(cutoff, 3), 2);
      assert.equal(await store.sweep.purgeIdempotencyRecords(cutoff, 3), 0);

      for (const link of old) {
        assert.equal(await recordOf(link), null);
        // Only the record goes; the link stays.
        assert.deepEqual(await store.links.findLinkById(link.id), link);
      }
      for (const link of young) assert.deepEqual((await recordOf(link))?.link, link);
    });
  });
}
