import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { assertProblem } from '../support/problem-assertions.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';
import { startTestServer } from '../support/test-server.js';

describe('create rate limits shared through Redis', () => {
  test('a key gets one burst across two instances, not one each', async (t) => {
    if (!(await requireRedis(t))) return;
    const dataDir = mkdtempSync(join(tmpdir(), 'hop-shared-limit-'));
    const prefix = uniquePrefix();
    const env = { HOP_REDIS_URL: REDIS_URL, HOP_REDIS_PREFIX: prefix, HOP_CREATE_RATE: '1/m:3' };
    const a = await startTestServer(env, { dataDir });
    const b = await startTestServer(env, { dataDir });
    const admin = new Redis(REDIS_URL);
    t.after(async () => {
      await a.close();
      await b.close();
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length > 0) await admin.del(...keys);
      admin.disconnect();
      rmSync(dataDir, { recursive: true, force: true });
    });

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
