import type { LinkEventRecord } from '../../src/ports/event-log.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Webhook } from '../../src/domain/webhook.js';
import { fanOutWebhookEvents } from '../../src/services/webhooks/fan-out-webhook-events.js';
import { forgetFinishedDeliveries } from '../../src/services/webhooks/forget-finished-deliveries.js';
import { forgetOldEvents } from '../../src/services/webhooks/forget-old-events.js';
import {
  LINK_EVENTS_SOURCE,
  linkEventSource,
} from '../../src/services/webhooks/webhook-event-source.js';
import { BASE_MS, HOUR_MS, makeId, makeLink } from '../contract/store-factories.js';
import { makeWebhook } from '../support/make-webhook.js';
import { ManualClock } from '../support/manual-clock.js';
import { openTempSqliteStore } from '../support/temp-data.js';

describe('webhook fan-out (issue 23, ADR 0128)', () => {
  test("one delivery per subscribed, unpaused webhook that may see the link's owner", async (t) => {
    const store = openTempSqliteStore(t);
    const clock = new ManualClock(BASE_MS);
    const alice = makeWebhook({});
    const admin = makeWebhook({
      owner: 'ops',
      allLinks: true,
      events: ['link.created', 'link.updated'],
    });
    const paused = makeWebhook({ paused: true });
    const deletesOnly = makeWebhook({ events: ['link.deleted'] });
    const bob = makeWebhook({ owner: 'bob' });
    const later = makeWebhook({ createdAt: BASE_MS + HOUR_MS });
    for (const hook of [alice, admin, paused, deletesOnly, bob, later]) {
      await store.webhooks.insertWebhook(hook);
    }
    const link = makeLink({ owner: 'alice' });
    await store.links.insertLink(link);
    await store.links.insertLink(makeLink({ owner: 'carol' }));
    const source = linkEventSource(store.linkEvents, async (links) =>
      links.map(({ link: each }) => ({ id: each.id })),
    );
    const deps = { webhooks: store.webhooks, clock, newId: makeId, giveUpAfterMs: 24 * HOUR_MS };
    assert.equal(await fanOutWebhookEvents(deps, source, 10), 2);
    assert.equal(await fanOutWebhookEvents(deps, source, 10), 0);
    const of = async (hook: Webhook) =>
      store.webhooks.listDeliveries(hook.id, { before: null, limit: 10 });
    const [aliceGot] = await of(alice);
    assert.equal((await of(alice)).length, 1);
    assert.deepEqual(JSON.parse(aliceGot!.body), {
      type: 'link.created',
      timestamp: new Date(BASE_MS).toISOString(),
      data: { id: link.id },
    });
    assert.equal((await of(admin)).length, 2, "an admin's webhook sees every owner's links");
    for (const hook of [paused, deletesOnly, bob, later]) assert.equal((await of(hook)).length, 0);
    assert.equal(
      await store.webhooks.fanOutPosition(LINK_EVENTS_SOURCE),
      await store.linkEvents.latest(),
    );
  });

  test('with no webhook it skips to the end unread; a webhook made then hears what follows', async (t) => {
    const store = openTempSqliteStore(t);
    const clock = new ManualClock(BASE_MS);
    const links = linkEventSource(store.linkEvents, async (rendered) =>
      rendered.map(({ link: each }) => ({ id: each.id })),
    );
    let reads = 0;
    const source = {
      ...links,
      read: (position: string, limit: number) => {
        reads += 1;
        return links.read(position, limit);
      },
    };
    const deps = { webhooks: store.webhooks, clock, newId: makeId, giveUpAfterMs: 24 * HOUR_MS };
    await store.links.insertLink(makeLink({ owner: 'alice' }));
    await store.links.insertLink(makeLink({ owner: 'alice' }));
    assert.equal(await fanOutWebhookEvents(deps, source, 10), 0);
    assert.equal(reads, 0, 'no event was read');
    assert.equal(
      await store.webhooks.fanOutPosition(LINK_EVENTS_SOURCE),
      await store.linkEvents.latest(),
    );
    const hook = makeWebhook({ createdAt: BASE_MS - HOUR_MS });
    await store.webhooks.insertWebhook(hook);
    const later = makeLink({ owner: 'alice' });
    await store.links.insertLink(later);
    assert.equal(await fanOutWebhookEvents(deps, source, 10), 1);
    const delivered = await store.webhooks.listDeliveries(hook.id, { before: null, limit: 10 });
    assert.deepEqual(
      delivered.map((d) => (JSON.parse(d.body) as { data: { id: string } }).data.id),
      [later.id],
    );
  });

  test('old link events are forgotten, never those not yet fanned out', async (t) => {
    const store = openTempSqliteStore(t);
    const clock = new ManualClock(BASE_MS + 48 * HOUR_MS);
    await store.links.insertLink(makeLink({ createdAt: BASE_MS, updatedAt: BASE_MS }));
    await store.links.insertLink(makeLink({ createdAt: BASE_MS + 1, updatedAt: BASE_MS + 1 }));
    const [first] = await store.linkEvents.after('', 1);
    const deps = {
      log: store.linkEvents,
      timeOf: (event: LinkEventRecord) => event.occurredAt,
      fanOutPosition: async () => first!.position,
      clock,
      keepMs: 24 * HOUR_MS,
    };
    const never = new AbortController().signal;
    assert.equal(await forgetOldEvents(deps, 10, never), 1);
    assert.equal((await store.linkEvents.after('', 10)).length, 1);
    const all = { ...deps, fanOutPosition: async () => store.linkEvents.latest() };
    assert.equal(await forgetOldEvents(all, 10, never), 1);
    assert.equal((await store.linkEvents.after('', 10)).length, 0);
  });

  test('finished deliveries past their keeping are forgotten, in batches, each status by its own', async (t) => {
    const store = openTempSqliteStore(t);
    const now = BASE_MS + 30 * 24 * HOUR_MS;
    const hook = makeWebhook({});
    await store.webhooks.insertWebhook(hook);
    // Delivered 25 h ago, failed 25 h ago, failed 8 days ago, and one still pending.
    const ago = [25 * HOUR_MS, 25 * HOUR_MS, 8 * 24 * HOUR_MS];
    const deliveries = [...ago, 0].map(() => {
      const id = makeId();
      return {
        id,
        webhookId: hook.id,
        messageId: `msg_${id}`,
        eventType: 'link.created' as const,
        body: '{}',
        createdAt: BASE_MS,
        giveUpAt: now + HOUR_MS,
      };
    });
    await store.webhooks.fanOut(LINK_EVENTS_SOURCE, async () => ({ deliveries, position: '1' }));
    const claimed = await store.webhooks.claimDueDeliveries(now, now + 1000, 3);
    await store.webhooks.recordAttempts(
      claimed.map((c, index) => ({
        id: c.delivery.id,
        leaseUntil: c.leaseUntil,
        outcome: {
          status: index === 0 ? ('delivered' as const) : ('failed' as const),
          attemptedAt: now - (ago[index] ?? 0),
          statusCode: index === 0 ? 204 : 500,
          error: index === 0 ? null : 'The receiver answered 500.',
          nextAttemptAt: now,
        },
      })),
    );
    const deps = {
      webhooks: store.webhooks,
      clock: new ManualClock(now),
      keepMs: { delivered: 24 * HOUR_MS, failed: 7 * 24 * HOUR_MS },
    };
    const never = new AbortController().signal;
    assert.equal(await forgetFinishedDeliveries(deps, 1, never), 2);
    const left = await store.webhooks.listDeliveries(hook.id, { before: null, limit: 10 });
    assert.deepEqual(left.map((d) => d.status).sort(), ['failed', 'pending']);
    assert.equal(left.find((d) => d.status === 'failed')?.lastAttemptAt, now - 25 * HOUR_MS);
    assert.equal(await forgetFinishedDeliveries(deps, 1, never), 0);
  });
});
