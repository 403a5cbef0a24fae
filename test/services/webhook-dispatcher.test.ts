import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { HttpWebhookSender } from '../../src/adapters/webhook-http/http-webhook-sender.js';
import { fanOutWebhookEvents } from '../../src/services/webhooks/fan-out-webhook-events.js';
import { linkEventSource } from '../../src/services/webhooks/webhook-event-source.js';
import {
  WebhookDispatcher,
  webhookLeaseMs,
} from '../../src/services/webhooks/webhook-dispatcher.js';
import { BASE_MS, HOUR_MS, makeId, makeLink } from '../contract/store-factories.js';
import { eventually } from '../support/eventually.js';
import { makeWebhook } from '../support/make-webhook.js';
import { ManualClock } from '../support/manual-clock.js';
import { openTempSqliteStore } from '../support/temp-data.js';

const TIMEOUT_MS = 60_000;

test('an attempt that outlives its lease is not sent again by its own instance; it is recorded under the new lease (ADR 0132)', async (t) => {
  // A receiver on loopback that holds its first request until told.
  const held: ServerResponse[] = [];
  let requests = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      held.push(response);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    receiver.closeAllConnections();
    receiver.close();
  });
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;

  const store = openTempSqliteStore(t);
  const clock = new ManualClock(BASE_MS);
  const webhook = makeWebhook({ url });
  await store.webhooks.insertWebhook(webhook);
  await store.links.insertLink(makeLink({ owner: 'alice' }));
  const source = linkEventSource(store.linkEvents, async (links) =>
    links.map(({ link }) => ({ id: link.id })),
  );
  const fanOut = { webhooks: store.webhooks, clock, newId: makeId, giveUpAfterMs: 24 * HOUR_MS };
  assert.equal(await fanOutWebhookEvents(fanOut, source, 10), 1);

  const sender = new HttpWebhookSender({ allowPrivate: true });
  t.after(() => {
    sender.close();
  });
  const errors: unknown[] = [];
  const dispatcher = new WebhookDispatcher({
    webhooks: store.webhooks,
    sender,
    clock,
    random: () => 0,
    timeoutMs: TIMEOUT_MS,
    retryBaseMs: 1_000,
    concurrency: 4,
    onError: (error) => errors.push(error),
  });
  assert.equal(await dispatcher.claimDue(), 1);
  await eventually(async () => requests === 1, 'the first POST');
  // Its thread waited for the CPU past the lease: the next round claims it again.
  clock.advance(webhookLeaseMs(TIMEOUT_MS) + 1);
  assert.equal(await dispatcher.claimDue(), 1, 'claimed again, the lease having run out');
  assert.equal(dispatcher.inFlight, 1, 'and not sent a second time');
  held[0]?.writeHead(204).end();
  await dispatcher.stop();
  assert.equal(requests, 1);
  assert.deepEqual(errors, []);
  const [delivery] = await store.webhooks.listDeliveries(webhook.id, { before: null, limit: 10 });
  assert.equal(delivery?.status, 'delivered', 'recorded under the lease this instance holds now');
  assert.equal(delivery.attempts, 1);
});
