import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually } from '../support/eventually.js';
import { requireRedis } from '../support/require-redis.js';
import { requestOnHost } from '../support/request-on-host.js';
import { startSharedPair } from '../support/shared-pair.js';
import { startTestServer } from '../support/test-server.js';

const SLOW_MACHINE_CACHE_TIMEOUT = '5s';

describe('two instances sharing one store and Redis', () => {
  test('a change on one instance reaches the other one before its L1 TTL', async (t) => {
    if (!(await requireRedis(t))) return;
    // What is tested is how changes travel, not the cache timeout: a generous one, so a
    // Redis slowed by a busy machine still answers as L2 and the hit below is certain. It
    // must outlast the longest event-loop stall of this test process (CI saw 1.01 s, which
    // fired 250 ms timers before the replies were read and opened the breaker).
    const { a, b } = await startSharedPair(t, { HOP_CACHE_TIMEOUT: SLOW_MACHINE_CACHE_TIMEOUT });

    // B learns that the alias does not exist yet (negative entries in L1 and L2).
    assert.equal((await b.request('GET', '/shared-alias', { key: null })).status, 404);
    const created = await a.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/shared', alias: 'shared-alias' },
    });
    assert.equal(created.status, 201);
    await eventually(
      async () => (await b.request('GET', '/shared-alias', { key: null })).status === 302,
      'the create reaching B',
    );

    const disabled = await a.request('POST', `/v1/links/${created.json.id}/disable`);
    assert.equal(disabled.status, 200);
    await eventually(
      async () => (await b.request('GET', '/shared-alias', { key: null })).status === 404,
      'the disable reaching B',
    );

    await a.request('POST', `/v1/links/${created.json.id}/enable`);
    await a.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { destination: 'https://example.com/moved' },
    });
    await eventually(
      async () =>
        (await b.request('GET', '/shared-alias', { key: null })).headers.get('location') ===
        'https://example.com/moved',
      'the edit reaching B',
    );
    const metrics = await b.request('GET', '/metrics', { key: null });
    assert.match(metrics.text, /^hop_l2_breaker_state 0$/m);
    assert.match(metrics.text, /^hop_l2_requests_total\{result="hit"\} [1-9]\d*$/m);
  });

  test('links on two domains with one alias travel apart between instances (issue 22)', async (t) => {
    if (!(await requireRedis(t))) return;
    const { a, b } = await startSharedPair(t, { HOP_CACHE_TIMEOUT: SLOW_MACHINE_CACHE_TIMEOUT });
    const now = Date.now();
    await a.runtime.store.domains.insertDomain({
      host: 'go.shared.test',
      rootRedirect: null,
      notFoundRedirect: null,
      https: true,
      createdAt: now,
      updatedAt: now,
    });
    await a.runtime.domainRoutes.reload();
    await b.runtime.domainRoutes.reload();
    const onB = (host: string) => requestOnHost(b.url, 'GET', '/twin', host);
    // B caches both as absent first (L1 and L2), under their own keys.
    assert.equal((await onB('go.shared.test')).status, 404);
    assert.equal((await onB('hop.test')).status, 404);
    const created = await a.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/go', alias: 'twin', domain: 'go.shared.test' },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(
      async () => (await onB('go.shared.test')).location === 'https://example.com/go',
      'the create on go.shared.test reaching B',
    );
    // The default domain's "twin" was never created: still the one 404 on B.
    assert.equal((await onB('hop.test')).status, 404);
    await a.request('POST', `/v1/links/${created.json.id}/disable`);
    await eventually(
      async () => (await onB('go.shared.test')).status === 404,
      'the disable reaching B',
    );
  });

  test('with Redis unreachable, redirects still work from L1 and the store', async (t) => {
    const server = await startTestServer({ HOP_REDIS_URL: 'redis://127.0.0.1:1' });
    t.after(() => server.close());
    const created = await server.request('POST', '/v1/links', {
      body: { destination: 'https://example.com/no-redis' },
    });
    assert.equal(created.status, 201);
    for (let i = 0; i < 10; i++) {
      const code = i % 2 === 0 ? created.json.code : `Missing${i}`;
      const response = await server.request('GET', `/${code}`, { key: null });
      assert.equal(response.status, i % 2 === 0 ? 302 : 404);
    }
    const metrics = await server.request('GET', '/metrics', { key: null });
    assert.match(metrics.text, /^hop_l2_breaker_state 2$/m, 'the breaker opened');
  });
});
