import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Webhook } from '../../src/domain/webhook.js';
import type { NewDelivery } from '../../src/ports/webhook-store.js';
import {
  BASE_MS,
  HOUR_MS,
  makeId,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

function makeWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: makeId(),
    owner: makeOwner(),
    allLinks: false,
    url: 'https://hooks.example.com/in',
    events: ['link.created', 'link.clicked'],
    description: null,
    secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    paused: false,
    createdAt: BASE_MS,
    updatedAt: BASE_MS,
    ...overrides,
  };
}

function makeDelivery(webhookId: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  const id = makeId();
  return {
    id,
    webhookId,
    messageId: `msg_${id}`,
    eventType: 'link.created',
    body: '{"type":"link.created"}',
    createdAt: BASE_MS,
    giveUpAt: BASE_MS + 24 * HOUR_MS,
    ...overrides,
  };
}

/** WebhookStore (issue 23, ADR 0128): webhooks, fan-out steps, claims with leases. */
export function webhookStoreContract(openStore: OpenStore): void {
  describe('WebhookStore', () => {
    test('stores, finds, lists by owner, changes and deletes webhooks', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const mine = makeWebhook({ description: 'CRM' });
      const theirs = makeWebhook({ allLinks: true, paused: true });
      await webhooks.insertWebhook(mine);
      await webhooks.insertWebhook(theirs);
      assert.deepEqual(await webhooks.findWebhook(mine.id), mine);
      assert.deepEqual(await webhooks.listWebhooks(mine.owner), [mine]);
      assert.deepEqual(await webhooks.listWebhooks(null), [mine, theirs]);
      const changed = {
        ...mine,
        paused: true,
        events: ['link.deleted' as const],
        updatedAt: BASE_MS + 1,
      };
      assert.equal(await webhooks.updateWebhook(changed), true);
      assert.deepEqual(await webhooks.findWebhook(mine.id), changed);
      assert.equal(await webhooks.deleteWebhook(mine.id), true);
      assert.equal(await webhooks.deleteWebhook(mine.id), false);
      assert.equal(await webhooks.findWebhook(mine.id), null);
      assert.equal(await webhooks.updateWebhook(changed), false);
    });

    test('a fan-out step stores its deliveries and position together, per source', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      await webhooks.insertWebhook(hook);
      assert.equal(await webhooks.fanOutPosition('links'), '');
      const seen: string[] = [];
      const stored = await webhooks.fanOut('links', async (position) => {
        seen.push(position);
        return { deliveries: [makeDelivery(hook.id), makeDelivery(hook.id)], position: '7' };
      });
      assert.equal(stored, 2);
      assert.equal(await webhooks.fanOutPosition('links'), '7');
      assert.equal(await webhooks.fanOutPosition('clicks'), '');
      await webhooks.fanOut('links', async (position) => {
        seen.push(position);
        return { deliveries: [], position: '9:1' };
      });
      assert.deepEqual(seen, ['', '7']);
      assert.equal(await webhooks.fanOutPosition('links'), '9:1');
      // A plan that fails stores nothing.
      await assert.rejects(
        webhooks.fanOut('links', async () => {
          throw new Error('read failed');
        }),
      );
      assert.equal(await webhooks.fanOutPosition('links'), '9:1');
      const listed = await webhooks.listDeliveries(hook.id, { before: null, limit: 10 });
      assert.equal(listed.length, 2);
      assert.ok(listed.every((d) => d.status === 'pending' && d.attempts === 0));
    });

    test('claims lease due deliveries once; a lease that ran out is claimed again', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      const paused = makeWebhook({ paused: true });
      await webhooks.insertWebhook(hook);
      await webhooks.insertWebhook(paused);
      const due = makeDelivery(hook.id);
      await webhooks.fanOut('links', async () => ({
        deliveries: [
          due,
          makeDelivery(paused.id),
          makeDelivery(hook.id, { createdAt: BASE_MS + HOUR_MS }),
        ],
        position: '1',
      }));
      const claimed = await webhooks.claimDueDeliveries(BASE_MS, BASE_MS + 1000, 10);
      assert.deepEqual(
        claimed.map((c) => c.delivery.id),
        [due.id],
      );
      assert.equal(claimed[0]?.url, hook.url);
      assert.equal(claimed[0]?.secret, hook.secret);
      assert.deepEqual(await webhooks.claimDueDeliveries(BASE_MS + 999, BASE_MS + 2000, 10), []);
      const again = await webhooks.claimDueDeliveries(BASE_MS + 1000, BASE_MS + 3000, 10);
      assert.deepEqual(
        again.map((c) => c.delivery.id),
        [due.id],
      );
      // The first holder lost its lease: its outcome is not recorded.
      const outcome = {
        status: 'delivered' as const,
        attemptedAt: BASE_MS + 1500,
        statusCode: 204,
        error: null,
        nextAttemptAt: BASE_MS + 1500,
      };
      assert.deepEqual(
        await webhooks.recordAttempts([{ id: due.id, leaseUntil: BASE_MS + 1000, outcome }]),
        [false],
      );
      assert.deepEqual(
        await webhooks.recordAttempts([{ id: due.id, leaseUntil: BASE_MS + 3000, outcome }]),
        [true],
      );
      const stored = await webhooks.findDelivery(hook.id, due.id);
      assert.equal(stored?.status, 'delivered');
      assert.equal(stored.attempts, 1);
      assert.equal(stored.lastStatusCode, 204);
      assert.equal(stored.leaseUntil, null);
      assert.deepEqual(
        await webhooks.claimDueDeliveries(BASE_MS + 10_000, BASE_MS + 20_000, 10),
        [],
      );
    });

    test('attempts recorded together: each by its own lease, answered in order', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      await webhooks.insertWebhook(hook);
      const [one, two, three] = [
        makeDelivery(hook.id),
        makeDelivery(hook.id),
        makeDelivery(hook.id),
      ];
      assert.ok(one && two && three);
      await webhooks.fanOut('links', async () => ({
        deliveries: [one, two, three],
        position: '1',
      }));
      const claimed = await webhooks.claimDueDeliveries(BASE_MS, BASE_MS + 1000, 3);
      assert.equal(claimed.length, 3);
      const outcome = (statusCode: number) => ({
        status: statusCode === 204 ? ('delivered' as const) : ('pending' as const),
        attemptedAt: BASE_MS + 10,
        statusCode,
        error: statusCode === 204 ? null : `The receiver answered ${statusCode}.`,
        nextAttemptAt: BASE_MS + 60_000,
      });
      assert.deepEqual(
        await webhooks.recordAttempts([
          { id: one.id, leaseUntil: BASE_MS + 1000, outcome: outcome(204) },
          // A lease it does not hold: lost, nothing recorded.
          { id: two.id, leaseUntil: BASE_MS + 999, outcome: outcome(204) },
          { id: three.id, leaseUntil: BASE_MS + 1000, outcome: outcome(503) },
        ]),
        [true, false, true],
      );
      const [first, second, third] = await Promise.all(
        [one, two, three].map((d) => webhooks.findDelivery(hook.id, d.id)),
      );
      assert.equal(first?.status, 'delivered');
      assert.equal(first.attempts, 1);
      assert.equal(second?.attempts, 0);
      assert.equal(second.leaseUntil, BASE_MS + 1000);
      assert.equal(third?.status, 'pending');
      assert.equal(third.lastStatusCode, 503);
      assert.equal(third.nextAttemptAt, BASE_MS + 60_000);
      assert.deepEqual(await webhooks.recordAttempts([]), []);
    });

    test('finished deliveries are forgotten by status and last attempt, oldest first; pending never', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      await webhooks.insertWebhook(hook);
      const deliveries = Array.from({ length: 5 }, () => makeDelivery(hook.id));
      await webhooks.fanOut('links', async () => ({ deliveries, position: '1' }));
      const claimed = await webhooks.claimDueDeliveries(BASE_MS, BASE_MS + 1000, 4);
      assert.equal(claimed.length, 4);
      // Attempted at BASE_MS + 10, + 20, + 30 (delivered) and + 40 (failed); one left pending.
      const recorded = await webhooks.recordAttempts(
        claimed.map((c, index) => ({
          id: c.delivery.id,
          leaseUntil: c.leaseUntil,
          outcome: {
            status: index < 3 ? ('delivered' as const) : ('failed' as const),
            attemptedAt: BASE_MS + 10 * (index + 1),
            statusCode: index < 3 ? 204 : 500,
            error: index < 3 ? null : 'The receiver answered 500.',
            nextAttemptAt: BASE_MS + 10 * (index + 1),
          },
        })),
      );
      assert.deepEqual(recorded, [true, true, true, true]);
      const remaining = async () =>
        (await webhooks.listDeliveries(hook.id, { before: null, limit: 10 }))
          .map((d) => d.status)
          .sort();
      // Before BASE_MS + 35: the three delivered, two at a time, the oldest first.
      assert.equal(await webhooks.forgetFinishedDeliveries('delivered', BASE_MS + 35, 2), 2);
      assert.deepEqual(await remaining(), ['delivered', 'failed', 'pending']);
      const [left] = (await webhooks.listDeliveries(hook.id, { before: null, limit: 10 })).filter(
        (d) => d.status === 'delivered',
      );
      assert.equal(left?.lastAttemptAt, BASE_MS + 30);
      assert.equal(await webhooks.forgetFinishedDeliveries('delivered', BASE_MS + 35, 2), 1);
      assert.equal(await webhooks.forgetFinishedDeliveries('delivered', BASE_MS + 35, 2), 0);
      // The failed one only by its own cut; the pending one by none.
      assert.equal(await webhooks.forgetFinishedDeliveries('failed', BASE_MS + 40, 10), 0);
      assert.equal(await webhooks.forgetFinishedDeliveries('failed', BASE_MS + 41, 10), 1);
      assert.equal(await webhooks.forgetFinishedDeliveries('delivered', BASE_MS + 10 ** 9, 10), 0);
      assert.deepEqual(await remaining(), ['pending']);
    });

    test('a released lease is due at once; requeue makes a failed one pending again', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      await webhooks.insertWebhook(hook);
      const delivery = makeDelivery(hook.id);
      await webhooks.fanOut('links', async () => ({ deliveries: [delivery], position: '1' }));
      const [claimed] = await webhooks.claimDueDeliveries(BASE_MS, BASE_MS + 1000, 1);
      assert.ok(claimed);
      await webhooks.releaseLease(delivery.id, claimed.leaseUntil);
      const [reclaimed] = await webhooks.claimDueDeliveries(BASE_MS, BASE_MS + 1001, 1);
      assert.ok(reclaimed);
      await webhooks.recordAttempts([
        {
          id: delivery.id,
          leaseUntil: reclaimed.leaseUntil,
          outcome: {
            status: 'failed',
            attemptedAt: BASE_MS + 5,
            statusCode: 500,
            error: 'The receiver answered 500.',
            nextAttemptAt: BASE_MS + 5,
          },
        },
      ]);
      assert.deepEqual(await webhooks.claimDueDeliveries(BASE_MS + 10, BASE_MS + 2000, 1), []);
      const queued = await webhooks.requeueDelivery(
        hook.id,
        delivery.id,
        BASE_MS + 10,
        BASE_MS + 99,
      );
      assert.equal(queued?.status, 'pending');
      assert.equal(queued.attempts, 1);
      assert.equal(queued.giveUpAt, BASE_MS + 99);
      assert.equal(await webhooks.requeueDelivery(makeId(), delivery.id, BASE_MS, BASE_MS), null);
      assert.equal((await webhooks.claimDueDeliveries(BASE_MS + 10, BASE_MS + 2000, 1)).length, 1);
    });

    test('deliveries are listed newest first in pages; deleting the webhook deletes them', async (t) => {
      const { webhooks } = await openFresh(t, openStore);
      const hook = makeWebhook();
      await webhooks.insertWebhook(hook);
      const made = [makeDelivery(hook.id), makeDelivery(hook.id), makeDelivery(hook.id)];
      await webhooks.fanOut('links', async () => ({ deliveries: made, position: '3' }));
      const first = await webhooks.listDeliveries(hook.id, { before: null, limit: 2 });
      assert.deepEqual(
        first.map((d) => d.id),
        [made[2]!.id, made[1]!.id],
      );
      const rest = await webhooks.listDeliveries(hook.id, { before: made[1]!.id, limit: 2 });
      assert.deepEqual(
        rest.map((d) => d.id),
        [made[0]!.id],
      );
      await webhooks.deleteWebhook(hook.id);
      assert.deepEqual(await webhooks.listDeliveries(hook.id, { before: null, limit: 5 }), []);
      assert.equal(await webhooks.findDelivery(hook.id, made[0]!.id), null);
    });
  });
}
