import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const RECEIVER = 'https://hooks.example.com/hop';

describe('webhooks API (issue 23)', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  before(async () => {
    server = await startTestServer();
    aliceKey = await server.ownerKey('alice-hooks');
    bobKey = await server.ownerKey('bob-hooks');
  });
  after(async () => {
    await server.close();
  });

  const create = (key: string, body: Record<string, unknown>) =>
    server.request('POST', '/v1/webhooks', { key, body });

  describe('happy', () => {
    test('create shows the secret once; get, list, patch (pause), rotate, delete', async () => {
      const made = await create(aliceKey, {
        url: RECEIVER,
        events: ['link.created', 'link.deleted'],
        description: 'CRM',
      });
      assert.equal(made.status, 201, made.text);
      assert.match(made.json.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.equal(Buffer.from(made.json.secret.slice(6), 'base64').length, 24);
      assert.equal(made.headers.get('location'), `/v1/webhooks/${made.json.id}`);
      assert.deepEqual(made.json.events, ['link.created', 'link.deleted']);
      assert.equal(made.json.owner, 'alice-hooks');
      assert.equal(made.json.paused, false);
      const id = made.json.id as string;

      const got = await server.request('GET', `/v1/webhooks/${id}`, { key: aliceKey });
      assert.equal(got.status, 200);
      assert.equal(got.json.secret, undefined);
      assert.equal(got.json.description, 'CRM');

      const listed = await server.request('GET', '/v1/webhooks', { key: aliceKey });
      assert.deepEqual(
        listed.json.webhooks.map((hook: { id: string }) => hook.id),
        [id],
      );
      const bobs = await server.request('GET', '/v1/webhooks', { key: bobKey });
      assert.deepEqual(bobs.json.webhooks, []);
      const admins = await server.request('GET', '/v1/webhooks');
      assert.ok(admins.json.webhooks.some((hook: { id: string }) => hook.id === id));

      const paused = await server.request('PATCH', `/v1/webhooks/${id}`, {
        key: aliceKey,
        body: { paused: true, events: ['link.updated'] },
      });
      assert.equal(paused.status, 200, paused.text);
      assert.equal(paused.json.paused, true);
      assert.deepEqual(paused.json.events, ['link.updated']);

      const rotated = await server.request('POST', `/v1/webhooks/${id}/rotate-secret`, {
        key: aliceKey,
      });
      assert.equal(rotated.status, 200);
      assert.match(rotated.json.secret, /^whsec_/);
      assert.notEqual(rotated.json.secret, made.json.secret);

      const deliveries = await server.request('GET', `/v1/webhooks/${id}/deliveries`, {
        key: aliceKey,
      });
      assert.equal(deliveries.status, 200, deliveries.text);
      assert.deepEqual(deliveries.json, { deliveries: [], next_cursor: null });

      const deleted = await server.request('DELETE', `/v1/webhooks/${id}`, { key: aliceKey });
      assert.equal(deleted.status, 204);
      assertProblem(
        await server.request('GET', `/v1/webhooks/${id}`, { key: aliceKey }),
        404,
        'not-found',
      );
    });
  });

  describe('errors', () => {
    test('an unknown event type is 422 naming it', async () => {
      const response = await create(aliceKey, { url: RECEIVER, events: ['link.exploded'] });
      assertProblem(response, 422, 'invalid-request');
      assert.equal(response.json.errors[0].field, 'events[0]');
      assert.match(response.json.detail, /link\.exploded/);
      assertProblem(await create(aliceKey, { url: RECEIVER, events: [] }), 422, 'invalid-request');
    });

    test('a bad URL is 422 invalid-webhook-url', async () => {
      for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/x']) {
        const response = await create(aliceKey, { url, events: ['link.created'] });
        assertProblem(response, 422, 'invalid-webhook-url');
        assert.equal(response.json.errors[0].field, 'url');
      }
    });

    test('a private, loopback or link-local address is refused without the allow switch', async () => {
      for (const url of [
        'http://127.0.0.1:9000/hook',
        'http://10.1.2.3/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://localhost:8080/hook',
      ]) {
        const response = await create(aliceKey, { url, events: ['link.created'] });
        assertProblem(response, 422, 'invalid-webhook-url');
      }
      const made = await create(aliceKey, { url: RECEIVER, events: ['link.created'] });
      const patched = await server.request('PATCH', `/v1/webhooks/${made.json.id}`, {
        key: aliceKey,
        body: { url: 'http://192.168.1.1/' },
      });
      assertProblem(patched, 422, 'invalid-webhook-url');
    });

    test("another owner's webhook is 404 on every route", async () => {
      const made = await create(aliceKey, { url: RECEIVER, events: ['link.created'] });
      const id = made.json.id as string;
      const as = { key: bobKey };
      for (const [method, path, body] of [
        ['GET', `/v1/webhooks/${id}`, undefined],
        ['PATCH', `/v1/webhooks/${id}`, { paused: true }],
        ['DELETE', `/v1/webhooks/${id}`, undefined],
        ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
        ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
        ['POST', `/v1/webhooks/${id}/deliveries/01HZZZZZZZZZZZZZZZZZZZZZZZ/retry`, undefined],
      ] as const) {
        const response = await server.request(
          method,
          path,
          body === undefined ? as : { ...as, body },
        );
        assertProblem(response, 404, 'not-found');
      }
    });

    test('an unknown webhook or delivery is 404; a bad cursor 422', async () => {
      assertProblem(
        await server.request('GET', '/v1/webhooks/01HZZZZZZZZZZZZZZZZZZZZZZZ', { key: aliceKey }),
        404,
        'not-found',
      );
      const made = await create(aliceKey, { url: RECEIVER, events: ['link.created'] });
      assertProblem(
        await server.request(
          'POST',
          `/v1/webhooks/${made.json.id}/deliveries/01HZZZZZZZZZZZZZZZZZZZZZZZ/retry`,
          { key: aliceKey },
        ),
        404,
        'not-found',
      );
      assertProblem(
        await server.request('GET', `/v1/webhooks/${made.json.id}/deliveries?cursor=nope`, {
          key: aliceKey,
        }),
        422,
        'invalid-cursor',
      );
    });

    test('a key scoped without webhooks:write is 403; none is 401', async () => {
      const scoped = await server.request('POST', '/v1/keys', {
        body: { owner: 'alice-hooks', scopes: ['links:read'] },
      });
      assert.equal(scoped.status, 201, scoped.text);
      assertProblem(
        await server.request('GET', '/v1/webhooks', { key: scoped.json.key }),
        403,
        'insufficient-scope',
      );
      assertProblem(await server.request('GET', '/v1/webhooks', { key: null }), 401);
    });
  });
});
