import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { requireRedis } from '../support/require-redis.js';
import { startSharedPair } from '../support/shared-pair.js';

describe('create rate limits shared through Redis', () => {
  test('a key gets one burst across two instances, not one each', async (t) => {
    if (!(await requireRedis(t))) return;
    const { a, b, prefix, admin } = await startSharedPair(t, { HOP_CREATE_RATE: '1/m:3' });

    const key = await a.ownerKey('shared-burst');
    const body = { destination: 'https://example.com/limited' };
    const statuses = [];
    for (const server of [a, b, a, b]) {
      statuses.push((await server.request('POST', '/v1/links', { key, body })).status);
    }
    assert.deepEqual(statuses, [201, 201, 201, 429]);
    const limited = await a.request('POST', '/v1/links', { key, body });
    assertProblem(limited, 429, 'rate-limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    // Admin keys are exempt on every instance.
    assert.equal((await b.request('POST', '/v1/links', { body })).status, 201);
    assert.ok(
      (await admin.keys(`${prefix}ratelimit:create:key:*`)).length > 0,
      'the bucket is in Redis',
    );
  });

  test('an address gets one burst across two instances, whichever keys it uses', async (t) => {
    if (!(await requireRedis(t))) return;
    const { a, b, prefix, admin } = await startSharedPair(t, {
      HOP_CREATE_RATE: '1/m:2',
      HOP_TRUST_PROXY: 'loopback',
    });
    const body = { destination: 'https://example.com/limited-address' };
    const headers = { 'x-forwarded-for': '198.51.100.77' };
    const keys = [
      await a.ownerKey('tenant-1'),
      await a.ownerKey('tenant-2'),
      await a.ownerKey('tenant-3'),
    ];
    const statuses = [];
    for (const [server, key] of [
      [a, keys[0] as string],
      [b, keys[1] as string],
      [a, keys[2] as string],
    ] as const) {
      statuses.push((await server.request('POST', '/v1/links', { key, body, headers })).status);
    }
    assert.deepEqual(statuses, [201, 201, 429]);
    assert.deepEqual(await admin.keys(`${prefix}ratelimit:create:ip:198.51.100.77`), [
      `${prefix}ratelimit:create:ip:198.51.100.77`,
    ]);
  });
});
