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
      (await admin.keys(`${prefix}ratelimit:create:*`)).length > 0,
      'the bucket is in Redis',
    );
  });
});
