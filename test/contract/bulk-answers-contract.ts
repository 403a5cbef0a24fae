import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BulkClaim } from '../../src/ports/bulk-answers.js';
import { BASE_MS, HOUR_MS, makeOwner, openFresh, type OpenStore } from './store-factories.js';

/** A claim made at BASE_MS: records of the last day live, unanswered ones of the last hour. */
function claimOf(overrides: Partial<BulkClaim> = {}): BulkClaim {
  return {
    owner: makeOwner(),
    key: 'key-1',
    requestHash: 'hash-a',
    secretsHash: null,
    nowMs: BASE_MS,
    notBefore: BASE_MS - 24 * HOUR_MS,
    pendingNotBefore: BASE_MS - HOUR_MS,
    ...overrides,
  };
}

/** BulkAnswerStore (ADR 0120): one claim per owner and key, answered once, replayed. */
export function bulkAnswersContract(openStore: OpenStore): void {
  describe('bulkAnswers', () => {
    test('the first claim wins; later ones see it held, then answered', async (t) => {
      const { bulkAnswers } = await openFresh(t, openStore);
      const claim = claimOf({ secretsHash: 'scrypt$salted' });
      assert.deepEqual(await bulkAnswers.claim(claim), { kind: 'claimed' });
      const again = claimOf({ owner: claim.owner, requestHash: 'hash-b' });
      assert.deepEqual(await bulkAnswers.claim(again), {
        kind: 'held',
        requestHash: 'hash-a',
        secretsHash: 'scrypt$salted',
        answer: null,
      });
      await bulkAnswers.answer(claim.owner, claim.key, '{"results":[]}');
      assert.deepEqual(await bulkAnswers.claim(again), {
        kind: 'held',
        requestHash: 'hash-a',
        secretsHash: 'scrypt$salted',
        answer: '{"results":[]}',
      });
      // Another owner's key of the same name is its own.
      assert.deepEqual(await bulkAnswers.claim(claimOf()), { kind: 'claimed' });
    });

    test('a released claim, a void record and an abandoned claim may be claimed again', async (t) => {
      const { bulkAnswers } = await openFresh(t, openStore);
      const claim = claimOf();
      await bulkAnswers.claim(claim);
      await bulkAnswers.release(claim.owner, claim.key);
      assert.deepEqual(await bulkAnswers.claim(claim), { kind: 'claimed' });

      // Unanswered for longer than pendingNotBefore allows: abandoned.
      const later = { ...claim, nowMs: BASE_MS + 2 * HOUR_MS, requestHash: 'hash-c' };
      const abandoned = { ...later, pendingNotBefore: BASE_MS + HOUR_MS };
      assert.equal((await bulkAnswers.claim({ ...later, pendingNotBefore: 0 })).kind, 'held');
      assert.deepEqual(await bulkAnswers.claim(abandoned), { kind: 'claimed' });

      // Answered, it is held until it is older than notBefore, whatever pendingNotBefore says.
      await bulkAnswers.answer(claim.owner, claim.key, 'answer');
      const much = {
        ...later,
        nowMs: BASE_MS + 30 * HOUR_MS,
        pendingNotBefore: BASE_MS + 29 * HOUR_MS,
      };
      assert.equal((await bulkAnswers.claim({ ...much, notBefore: 0 })).kind, 'held');
      assert.deepEqual(await bulkAnswers.claim({ ...much, notBefore: BASE_MS + 3 * HOUR_MS }), {
        kind: 'claimed',
      });
    });

    test('release leaves an answered record alone; purge deletes old records only', async (t) => {
      const { bulkAnswers } = await openFresh(t, openStore);
      const old = claimOf();
      await bulkAnswers.claim(old);
      await bulkAnswers.answer(old.owner, old.key, 'old');
      await bulkAnswers.release(old.owner, old.key);
      assert.equal((await bulkAnswers.claim({ ...old, requestHash: 'x' })).kind, 'held');
      const recent = claimOf({ nowMs: BASE_MS + HOUR_MS });
      await bulkAnswers.claim(recent);
      assert.equal(await bulkAnswers.purge(BASE_MS + 1, 10), 1);
      assert.equal(await bulkAnswers.purge(BASE_MS + 1, 10), 0);
      assert.deepEqual(await bulkAnswers.claim(old), { kind: 'claimed' });
      assert.equal((await bulkAnswers.claim({ ...recent, requestHash: 'y' })).kind, 'held');
    });
  });
}
