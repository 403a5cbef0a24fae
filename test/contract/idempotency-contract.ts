import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Link } from '../../src/domain/link.js';
import type { IdempotencyRecord, InsertLinkResult } from '../../src/ports/link-repository.js';
import {
  BASE_MS,
  HOUR_MS,
  makeClaim,
  makeCode,
  makeLink,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

function replayedRecord(result: InsertLinkResult): IdempotencyRecord {
  assert.equal(result.kind, 'replayed', `expected a replay, got ${JSON.stringify(result)}`);
  return result.record;
}

/** insertLink with an idempotency claim (SPEC §3): one transaction, claimed once. */
export function idempotencyContract(openStore: OpenStore): void {
  describe('findIdempotencyRecord', () => {
    test('finds a live record, not a void one, and nothing for other owners or keys', async (t) => {
      const store = await openFresh(t, openStore);
      const link = makeLink({ createdAt: BASE_MS });
      const claim = makeClaim({ owner: link.owner });
      await store.links.insertLink(link, claim);
      const found = await store.links.findIdempotencyRecord(
        claim.owner,
        claim.key,
        BASE_MS - HOUR_MS,
      );
      assert.deepEqual(found, {
        owner: claim.owner,
        key: claim.key,
        requestHash: claim.requestHash,
        link,
        createdAt: BASE_MS,
      });
      assert.equal(
        await store.links.findIdempotencyRecord(claim.owner, claim.key, BASE_MS + 1),
        null,
      );
      assert.equal(await store.links.findIdempotencyRecord(makeOwner(), claim.key, 0), null);
      assert.equal(await store.links.findIdempotencyRecord(claim.owner, 'other-key', 0), null);
    });
  });

  describe('insertLink with an idempotency claim', () => {
    test('the first insert claims the key; a second replays the first link', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const first = makeLink({ owner, createdAt: BASE_MS, title: 'first', tags: ['a'] });
      const second = makeLink({ owner, createdAt: BASE_MS + 1000, title: 'second' });

      assert.deepEqual(await store.links.insertLink(first, claim), {
        kind: 'inserted',
        link: first,
      });
      // A retry of another request with the same key: the store hands back what it stored
      // (the service compares the hashes), and inserts nothing.
      const record = replayedRecord(
        await store.links.insertLink(second, { ...claim, requestHash: 'another-hash' }),
      );

      // The claim's time is the first link's createdAt: the only reading of the service's
      // clock the store gets, and the one `notBefore` is compared with.
      assert.deepEqual(record, {
        owner,
        key: claim.key,
        requestHash: claim.requestHash,
        link: first,
        createdAt: first.createdAt,
      });
      assert.equal(await store.links.findLinkByCode('', second.code), null);
      assert.equal(await store.links.findLinkById(second.id), null);
      assert.deepEqual(await store.links.findLinkByCode('', first.code), first);
    });

    test('the replay is the link as first created, even after it changed', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const first = makeLink({ owner });
      await store.links.insertLink(first, claim);
      const edited: Link = { ...first, title: 'edited later', version: 2 };
      assert.equal(await store.links.replaceLink(edited, 1), true);

      const record = replayedRecord(await store.links.insertLink(makeLink({ owner }), claim));
      assert.deepEqual(record.link, first);
    });

    test('the same key for another owner is independent', async (t) => {
      const store = await openFresh(t, openStore);
      const alice = makeOwner();
      const bob = makeOwner();
      const aliceClaim = makeClaim({ owner: alice });
      const bobClaim = { ...aliceClaim, owner: bob, requestHash: 'bob-hash' };
      const aliceLink = makeLink({ owner: alice });
      const bobLink = makeLink({ owner: bob });

      assert.equal((await store.links.insertLink(aliceLink, aliceClaim)).kind, 'inserted');
      assert.equal((await store.links.insertLink(bobLink, bobClaim)).kind, 'inserted');

      const aliceReplay = replayedRecord(
        await store.links.insertLink(makeLink({ owner: alice }), aliceClaim),
      );
      const bobReplay = replayedRecord(
        await store.links.insertLink(makeLink({ owner: bob }), bobClaim),
      );
      assert.deepEqual(aliceReplay.link, aliceLink);
      assert.equal(aliceReplay.requestHash, aliceClaim.requestHash);
      assert.deepEqual(bobReplay.link, bobLink);
      assert.equal(bobReplay.requestHash, 'bob-hash');
    });

    test('another key of the same owner is independent', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const one = makeLink({ owner });
      const two = makeLink({ owner });
      assert.equal((await store.links.insertLink(one, makeClaim({ owner }))).kind, 'inserted');
      assert.equal((await store.links.insertLink(two, makeClaim({ owner }))).kind, 'inserted');
      assert.deepEqual(await store.links.findLinkById(two.id), two);
    });

    test('a claim made exactly at notBefore is still live', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const first = makeLink({ owner, createdAt: BASE_MS });
      await store.links.insertLink(first, makeClaim({ owner, key: 'edge' }));

      const retry = makeClaim({ owner, key: 'edge', notBefore: BASE_MS });
      const record = replayedRecord(await store.links.insertLink(makeLink({ owner }), retry));
      assert.deepEqual(record.link, first);
    });

    test('a claim older than notBefore is void and replaced', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const oldClaim = makeClaim({ owner, notBefore: BASE_MS - HOUR_MS });
      const first = makeLink({ owner, createdAt: BASE_MS });
      await store.links.insertLink(first, oldClaim);

      const later = BASE_MS + 25 * HOUR_MS;
      const newClaim = { ...oldClaim, requestHash: 'new-hash', notBefore: BASE_MS + 1 };
      const second = makeLink({ owner, createdAt: later, updatedAt: later });
      assert.deepEqual(await store.links.insertLink(second, newClaim), {
        kind: 'inserted',
        link: second,
      });
      assert.deepEqual(await store.links.findLinkById(second.id), second);
      // Voiding a claim never touches the link it created.
      assert.deepEqual(await store.links.findLinkById(first.id), first);

      // The key is now claimed by the second request.
      const record = replayedRecord(await store.links.insertLink(makeLink({ owner }), newClaim));
      assert.deepEqual(record, {
        owner,
        key: oldClaim.key,
        requestHash: 'new-hash',
        link: second,
        createdAt: later,
      });
    });

    test('8 concurrent inserts with one claim and one alias: one inserted, seven replay it, none is refused for the code', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const code = makeCode();
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.links.insertLink(makeLink({ owner, code, custom: true }), claim),
        ),
      );
      assert.deepEqual(results.map((result) => result.kind).sort(), [
        'inserted',
        ...Array.from({ length: 7 }, () => 'replayed'),
      ]);
    });

    test('8 concurrent inserts with one claim: one inserted, seven replay it', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const candidates = Array.from({ length: 8 }, () => makeLink({ owner }));

      const results = await Promise.all(
        candidates.map((link) => store.links.insertLink(link, claim)),
      );

      const inserted = results.flatMap((result) =>
        result.kind === 'inserted' ? [result.link] : [],
      );
      const replays = results.flatMap((result) =>
        result.kind === 'replayed' ? [result.record] : [],
      );
      assert.equal(inserted.length, 1);
      assert.equal(replays.length, 7);
      const winner = inserted[0]!;
      for (const record of replays) {
        assert.deepEqual(record.link, winner);
        assert.equal(record.requestHash, claim.requestHash);
      }
      const stored = await Promise.all(candidates.map((link) => store.links.findLinkById(link.id)));
      assert.deepEqual(
        stored.filter((link) => link !== null),
        [winner],
      );
    });

    test('when the code is taken the claim is not recorded', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const holder = makeLink();
      await store.links.insertLink(holder);
      const claim = makeClaim({ owner });

      const clash = makeLink({ owner, code: holder.code });
      assert.deepEqual(await store.links.insertLink(clash, claim), { kind: 'code-taken' });
      assert.deepEqual(await store.links.findLinkByCode('', holder.code), holder);

      // The service retries with a fresh code and the same claim: nothing was claimed before.
      const retry = makeLink({ owner });
      assert.deepEqual(await store.links.insertLink(retry, claim), {
        kind: 'inserted',
        link: retry,
      });
      const record = replayedRecord(await store.links.insertLink(makeLink({ owner }), claim));
      assert.deepEqual(record.link, retry);
    });

    test('a replay wins over a taken code: nothing is inserted either way', async (t) => {
      const store = await openFresh(t, openStore);
      const owner = makeOwner();
      const claim = makeClaim({ owner });
      const first = makeLink({ owner });
      await store.links.insertLink(first, claim);

      // A retried request with a custom alias: its code is held by the link the first try
      // made, and the retry must replay that link, not report the alias as taken.
      const record = replayedRecord(
        await store.links.insertLink(makeLink({ owner, code: first.code }), claim),
      );
      assert.deepEqual(record.link, first);
    });
  });
}
