import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HttpWebhookSender } from '../../src/adapters/webhook-http/http-webhook-sender.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

/** HttpWebhookSender against a real receiver on loopback (issue 23: safe egress). */
describe('HttpWebhookSender', () => {
  test('deliveries one after another to a receiver reuse one connection', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    const sender = new HttpWebhookSender({ allowPrivate: true });
    t.after(() => {
      sender.close();
    });
    const connections = receiver.connections;
    for (let i = 0; i < 3; i++) {
      const answer = await sender.send({
        url: receiver.url,
        headers: { 'content-type': 'application/json' },
        body: `{"n":${i}}`,
        timeoutMs: 5_000,
      });
      assert.deepEqual(answer, { kind: 'answered', statusCode: 200 });
    }
    assert.deepEqual(
      receiver.received.map((r) => r.body),
      ['{"n":0}', '{"n":1}', '{"n":2}'],
    );
    assert.equal(receiver.connections - connections, 1);
  });

  test('a loopback receiver is refused without the allow switch, and nothing is sent', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    const sender = new HttpWebhookSender({ allowPrivate: false });
    const answer = await sender.send({
      url: receiver.url,
      headers: {},
      body: '{}',
      timeoutMs: 5_000,
    });
    assert.equal(answer.kind, 'failed');
    assert.match(answer.kind === 'failed' ? answer.error : '', /private address: refused/);
    assert.equal(receiver.received.length, 0);
  });
});
