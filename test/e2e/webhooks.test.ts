import { threadNiceValues } from '../support/thread-nice.js';
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { logLines, startHop, type ServeProcess } from '../support/hop-process.js';
import {
  dropSchema,
  POSTGRES_URL,
  uniqueSchema,
  whenPostgres,
} from '../support/require-postgres.js';
import { tempDataDir } from '../support/temp-data.js';
import {
  startWebhookReceiver,
  verifyStandardWebhook,
  type WebhookReceiver,
} from '../support/webhook-receiver.js';

const KEY = 'hop_webhooks_e2e_admin_key_0123456789';

/** Short retries and polls so that a test sees many attempts; loopback receivers allowed. */
const FAST = {
  HOP_BOOTSTRAP_ADMIN_KEY: KEY,
  HOP_WEBHOOK_ALLOW_PRIVATE: 'true',
  HOP_WEBHOOK_POLL: '50ms',
  HOP_WEBHOOK_RETRY_BASE: '100ms',
  HOP_WEBHOOK_TIMEOUT: '1s',
  HOP_ANALYTICS: 'off',
  // One-second timeouts are wall-clock: a nice-19 thread on a machine busy with other
  // tests can wait that long for the CPU, and an attempt then fails unanswered. These tests
  // are about delivery, not priority (events-serve.test.ts and the bench are).
  HOP_INTEGRATIONS_PRIORITY: 'server',
};

async function api(hop: ServeProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${hop.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text), text };
}

function killAfter(t: TestContext, hop: ServeProcess): ServeProcess {
  t.after(() => {
    hop.child.kill('SIGKILL');
  });
  return hop;
}

async function receiverFor(t: TestContext, ...args: Parameters<typeof startWebhookReceiver>) {
  const receiver = await startWebhookReceiver(...args);
  t.after(() => receiver.close());
  return receiver;
}

async function addWebhook(hop: ServeProcess, url: string): Promise<{ id: string; secret: string }> {
  const made = await api(hop, 'POST', '/v1/webhooks', { url, events: ['link.created'] });
  assert.equal(made.status, 201, made.text);
  return made.json;
}

async function addLink(
  hop: ServeProcess,
  destination = 'https://example.com/page',
): Promise<string> {
  const made = await api(hop, 'POST', '/v1/links', { destination });
  assert.equal(made.status, 201, made.text);
  return made.json.id as string;
}

async function deliveriesOf(hop: ServeProcess, webhookId: string) {
  const listed = await api(hop, 'GET', `/v1/webhooks/${webhookId}/deliveries`);
  assert.equal(listed.status, 200, listed.text);
  return listed.json.deliveries as {
    id: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_attempt_at: string | null;
    message_id: string;
  }[];
}

function idsReceived(receiver: WebhookReceiver): string[] {
  return receiver.received.map((request) => String(request.headers['webhook-id']));
}

describe('webhooks delivered by hop serve (issue 23)', () => {
  test('a delivery is signed as Standard Webhooks says; the allow switch is logged', async (t) => {
    const receiver = await receiverFor(t);
    const hop = killAfter(t, await startHop({ ...FAST, HOP_DATA_DIR: tempDataDir(t) }));
    assert.ok(
      logLines(hop).some(
        (line) => line.level === 40 && /HOP_WEBHOOK_ALLOW_PRIVATE/.test(line.msg ?? ''),
      ),
      hop.output(),
    );
    const webhook = await addWebhook(hop, receiver.url);
    const linkId = await addLink(hop);
    await eventually(async () => receiver.received.length === 1, 'the delivery', 2000);
    // HOP_INTEGRATIONS_PRIORITY=server (FAST): the thread that delivered is not lowered.
    assert.deepEqual(new Set(threadNiceValues(hop.child.pid ?? 0)), new Set([0]));
    const [request] = receiver.received;
    assert.ok(request);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.match(String(request.headers['webhook-id']), /^msg_/);
    assert.ok(verifyStandardWebhook(webhook.secret, request.headers, request.body));
    assert.ok(!verifyStandardWebhook(webhook.secret, request.headers, `${request.body} `));
    const body = JSON.parse(request.body);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'timestamp', 'type']);
    assert.equal(body.type, 'link.created');
    assert.equal(body.data.id, linkId);
    assert.equal(body.data.destination, 'https://example.com/page');
    assert.match(body.data.short_url, /^http:\/\//);
    // A rotated secret signs from then on; the old one no longer verifies.
    const rotated = await api(hop, 'POST', `/v1/webhooks/${webhook.id}/rotate-secret`);
    await addLink(hop);
    await eventually(async () => receiver.received.length === 2, 'the second delivery', 2000);
    const second = receiver.received[1]!;
    assert.ok(verifyStandardWebhook(rotated.json.secret, second.headers, second.body));
    assert.ok(!verifyStandardWebhook(webhook.secret, second.headers, second.body));
  });

  test("link.clicked: a link's clicks per second, counted and by dimension, signed", async (t) => {
    const receiver = await receiverFor(t);
    // Analytics on (the default): clicks are flushed each second and folded by the thread.
    const hop = killAfter(
      t,
      await startHop({ ...FAST, HOP_ANALYTICS: 'on', HOP_DATA_DIR: tempDataDir(t) }),
    );
    const made = await api(hop, 'POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['link.clicked'],
    });
    assert.equal(made.status, 201, made.text);
    const created = await api(hop, 'POST', '/v1/links', { destination: 'https://example.com/c' });
    assert.equal(created.status, 201, created.text);
    const { id, code } = created.json as { id: string; code: string };
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${hop.url}/${code}`, {
        redirect: 'manual',
        headers: {
          'user-agent':
            'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
          'accept-language': 'de-DE,de;q=0.9',
        },
      });
      assert.equal(response.status, 302);
    }
    const bodies = () => receiver.received.map((request) => JSON.parse(request.body));
    const counted = () =>
      bodies().reduce((n: number, body) => n + Number(body.data.clicks.count), 0);
    // A fold runs every 15 s (ADR 0109); its events are fanned out and delivered after it.
    await eventually(async () => counted() === 3, 'the three clicks delivered', 4_500);
    for (const request of receiver.received) {
      assert.ok(verifyStandardWebhook(made.json.secret, request.headers, request.body));
    }
    for (const body of bodies()) {
      assert.equal(body.type, 'link.clicked');
      assert.equal(body.data.link_id, id);
    }
    // Batched per link and second: at most one delivery per second the clicks fell in.
    assert.ok(receiver.received.length <= 3, `${receiver.received.length} deliveries`);
    const sum = (pick: (body: any) => number) =>
      bodies().reduce((n: number, body) => n + pick(body), 0);
    assert.equal(
      sum((body) => Number(body.data.clicks.devices.mobile ?? 0)),
      3,
    );
    assert.equal(
      sum((body) => Number(body.data.clicks.languages.de ?? 0)),
      3,
    );
  });

  test('500 three times then 200: delivered once more after the 500s, four attempts listed', async (t) => {
    const receiver = await receiverFor(t, (index) => (index < 3 ? 500 : 200));
    const hop = killAfter(t, await startHop({ ...FAST, HOP_DATA_DIR: tempDataDir(t) }));
    const webhook = await addWebhook(hop, receiver.url);
    await addLink(hop);
    await eventually(
      async () => (await deliveriesOf(hop, webhook.id))[0]?.status === 'delivered',
      'the delivery',
      2000,
    );
    const [delivery] = await deliveriesOf(hop, webhook.id);
    assert.equal(delivery?.attempts, 4);
    assert.equal(delivery.last_status_code, 200);
    assert.ok(delivery.last_attempt_at !== null);
    // A later event delivered too: nothing more came for the first in between.
    await addLink(hop);
    await eventually(async () => receiver.received.length === 5, 'the next event', 2000);
    const first = idsReceived(receiver).filter((id) => id === delivery.message_id);
    assert.equal(first.length, 4, 'the same webhook-id on every attempt, and no fifth');
    assert.deepEqual(
      receiver.received.slice(0, 4).map((request) => request.answeredWith),
      [500, 500, 500, 200],
    );
  });

  test('a receiver down for the whole window ends failed; a manual retry delivers it', async (t) => {
    const port = await freePort();
    const hop = killAfter(
      t,
      await startHop({ ...FAST, HOP_WEBHOOK_GIVE_UP_AFTER: '1s', HOP_DATA_DIR: tempDataDir(t) }),
    );
    const webhook = await addWebhook(hop, `http://127.0.0.1:${port}/hooks`);
    await addLink(hop);
    await eventually(
      async () => (await deliveriesOf(hop, webhook.id))[0]?.status === 'failed',
      'the delivery to fail',
      2000,
    );
    const [failed] = await deliveriesOf(hop, webhook.id);
    assert.ok(failed !== undefined && failed.attempts >= 2, JSON.stringify(failed));
    assert.equal(failed.last_status_code, null);
    const receiver = await receiverFor(t, () => 200, port);
    const retried = await api(
      hop,
      'POST',
      `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/retry`,
    );
    assert.equal(retried.status, 202, retried.text);
    assert.equal(retried.json.status, 'pending');
    await eventually(async () => receiver.received.length === 1, 'the retried delivery', 2000);
    await eventually(
      async () => (await deliveriesOf(hop, webhook.id))[0]?.status === 'delivered',
      'the delivery to be marked delivered',
    );
  });

  test('hop serve SIGKILLed mid-delivery delivers the pending ones after restart', async (t) => {
    const receiver = await receiverFor(t, () => 'hang');
    const dataDir = tempDataDir(t);
    const env = { ...FAST, HOP_DATA_DIR: dataDir };
    const first = killAfter(t, await startHop(env));
    const webhook = await addWebhook(first, receiver.url);
    const linkIds = [await addLink(first), await addLink(first)];
    // Both attempts are in flight, held by a receiver that never answers.
    await eventually(async () => receiver.received.length === 2, 'the attempts to start', 2000);
    first.child.kill('SIGKILL');
    await first.exited;
    receiver.answer = () => 200;
    const second = killAfter(t, await startHop(env));
    // Their leases run out (HOP_WEBHOOK_TIMEOUT + 5 s), then they are claimed again.
    await eventually(
      async () => {
        const deliveries = await deliveriesOf(second, webhook.id);
        return deliveries.length === 2 && deliveries.every((d) => d.status === 'delivered');
      },
      'both deliveries',
      3000,
    );
    const delivered = receiver.received.filter((request) => request.answeredWith === 200);
    assert.deepEqual(
      delivered.map((request) => JSON.parse(request.body).data.id).sort(),
      [...linkIds].sort(),
    );
  });
});

await whenPostgres('webhooks on PostgreSQL (needs PostgreSQL)', () => {
  test('two instances on PostgreSQL deliver each event once', async (t) => {
    const schema = uniqueSchema();
    t.after(() => dropSchema(schema));
    const receiver = await receiverFor(t);
    const env = {
      ...FAST,
      // Asked for, and not taken: scaled out, the thread keeps the server's priority.
      HOP_INTEGRATIONS_PRIORITY: 'low',
      HOP_DATA_DIR: tempDataDir(t),
      HOP_DATABASE_URL: POSTGRES_URL,
      HOP_DATABASE_SCHEMA: schema,
    };
    const a = killAfter(t, await startHop(env));
    const b = killAfter(t, await startHop({ ...env, HOP_DATA_DIR: tempDataDir(t) }));
    await addWebhook(a, receiver.url);
    const linkIds: string[] = [];
    for (let i = 0; i < 30; i++) linkIds.push(await addLink(i % 2 === 0 ? a : b));
    await eventually(async () => receiver.received.length >= 30, 'thirty deliveries', 2000);
    // Both instances keep polling: give them a sentinel event to deliver after the thirty.
    const sentinel = await addLink(b);
    await eventually(
      async () => receiver.received.some((r) => JSON.parse(r.body).data.id === sentinel),
      'the sentinel',
      2000,
    );
    // Scaled out, no thread is lowered (their threads have delivered by now): a delivery's
    // lease must not run out while its attempt waits for the CPU (ADR 0132).
    for (const hop of [a, b]) {
      assert.deepEqual(new Set(threadNiceValues(hop.child.pid ?? 0)), new Set([0]));
    }
    const ids = idsReceived(receiver);
    assert.equal(new Set(ids).size, ids.length, 'no webhook-id twice');
    assert.deepEqual(
      receiver.received.map((request) => JSON.parse(request.body).data.id).sort(),
      [...linkIds, sentinel].sort(),
    );
  });
});
