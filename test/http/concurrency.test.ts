import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { makeLink } from '../contract/store-factories.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('concurrent creates', () => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startTestServer();
    key = await server.ownerKey('racer');
  });
  after(async () => {
    await server.close();
  });

  test('one Idempotency-Key from 8 concurrent requests makes one link', async () => {
    const body = { destination: 'https://example.com/once', title: 'once' };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.request('POST', '/v1/links', {
          key,
          body,
          headers: { 'idempotency-key': 'checkout-42' },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(responses.map((r) => r.json.id as string));
    assert.equal(ids.size, 1, 'every response names the same link');
    for (const response of responses) {
      const replayed = response.headers.get('idempotent-replayed');
      assert.equal(replayed, response.status === 200 ? 'true' : null);
      assert.deepEqual(response.json, responses[0]!.json);
    }
    const list = await server.request('GET', '/v1/links?q=once', { key });
    assert.equal(list.json.items.length, 1, 'exactly one link exists');
  });

  test('a replay after the link changed still answers the original response', async () => {
    const headers = { 'idempotency-key': 'replay-later' };
    const body = { destination: 'https://example.com/later' };
    const first = await server.request('POST', '/v1/links', { key, body, headers });
    await server.request('PATCH', `/v1/links/${first.json.id}`, {
      key,
      body: { title: 'edited' },
    });
    const replay = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.json, first.json);
  });

  test('a replay answers even when the expiry has passed since', async () => {
    const headers = { 'idempotency-key': 'expiry-passed' };
    const expiresAt = new Date(server.clock.now() + 60_000).toISOString();
    const body = { destination: 'https://example.com/soon', expires_at: expiresAt };
    const first = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(first.status, 201);
    server.clock.advance(120_000);
    const replay = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.json.id, first.json.id);
  });

  test('an Idempotency-Key is scoped to its owner', async () => {
    const otherKey = await server.ownerKey('other-racer');
    const headers = { 'idempotency-key': 'shared-name' };
    const body = { destination: 'https://example.com/scoped' };
    const mine = await server.request('POST', '/v1/links', { key, body, headers });
    const theirs = await server.request('POST', '/v1/links', { key: otherKey, body, headers });
    assert.equal(mine.status, 201);
    assert.equal(theirs.status, 201);
    assert.notEqual(mine.json.id, theirs.json.id);
  });

  test('a record kept by an earlier hop still replays: the request fingerprint is stable', async () => {
    // The fingerprint as earlier versions of hop wrote it: SHA-256 of the JSON array of the
    // request's fields. A change to it would refuse every retry across an upgrade (24 h).
    const destination = 'https://example.com/from-before';
    const earlierHash = createHash('sha256')
      .update(JSON.stringify([destination, null, null, null, null, null, []]))
      .digest('hex');
    const link = makeLink({ owner: 'racer', destination, createdAt: server.clock.now() });
    const claim = { owner: 'racer', key: 'from-before', requestHash: earlierHash, notBefore: 0 };
    assert.equal((await server.runtime.store.links.insertLink(link, claim)).kind, 'inserted');
    const retry = await server.request('POST', '/v1/links', {
      key,
      body: { destination },
      headers: { 'idempotency-key': 'from-before' },
    });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.id, link.id);
  });

  test('an idempotency record expires after 24 hours', async () => {
    const headers = { 'idempotency-key': 'day-old' };
    const body = { destination: 'https://example.com/day' };
    const first = await server.request('POST', '/v1/links', { key, body, headers });
    server.clock.advance(24 * 3_600_000 + 1000);
    const second = await server.request('POST', '/v1/links', { key, body, headers });
    assert.equal(second.status, 201);
    assert.notEqual(second.json.id, first.json.id);
  });

  test('one alias requested by 8 concurrent requests: one 201, seven 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        server.request('POST', '/v1/links', {
          key,
          body: { destination: `https://example.com/race/${i}`, alias: 'contested' },
        }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = responses.find((r) => r.status === 201)!;
    const redirect = await server.request('GET', '/contested');
    assert.equal(redirect.headers.get('location'), winner.json.destination);
  });
});
