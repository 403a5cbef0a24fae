import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import type { Cluster, Redis } from 'ioredis';
import { connectRedis, type RedisTarget } from '../../src/adapters/redis/redis-connection.js';
import { RedisRateLimiter } from '../../src/adapters/redis/redis-rate-limiter.js';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import type { TokenBucketRule } from '../../src/domain/token-bucket.js';
import { ManualClock } from '../support/manual-clock.js';
import { startRedisCluster, type RedisClusterHandle } from '../support/redis-cluster.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';

const RULE: TokenBucketRule = { ratePerSecond: 2, burst: 5 };

function client(t: TestContext, target: RedisTarget): Redis | Cluster {
  const connection = connectRedis(target, {
    commandTimeout: 1000,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => 100,
  });
  connection.on('error', () => undefined);
  t.after(() => connection.disconnect());
  return connection;
}

/** One limiter as one instance holds it: its own connection, its own fallback. */
function instanceLimiter(
  t: TestContext,
  target: RedisTarget,
  prefix: string,
  clock: ManualClock,
): RedisRateLimiter {
  return new RedisRateLimiter({
    client: client(t, target),
    keyPrefix: prefix,
    rule: RULE,
    clock,
    fallback: new MemoryRateLimiter(RULE, clock),
    // What this suite proves is the shared bucket, not how long Redis may take on a busy run.
    timeoutMs: 1000,
  });
}

let cluster: RedisClusterHandle | null = null;
after(async () => {
  await cluster?.stop();
});

for (const [name, target] of [
  ['standalone Redis', async () => ({ url: REDIS_URL })],
  [
    'a 3-node Redis Cluster',
    async () => {
      cluster ??= await startRedisCluster();
      return { clusterNodes: cluster.nodes };
    },
  ],
] as const) {
  describe(`RedisRateLimiter on ${name}`, () => {
    test('instances share one bucket per subject: the burst is for all of them together', async (t) => {
      if (!(await requireRedis(t))) return;
      const where = await target();
      const prefix = uniquePrefix();
      const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
      const a = instanceLimiter(t, where, prefix, clock);
      const b = instanceLimiter(t, where, prefix, clock);
      const decisions = [];
      for (let i = 0; i < 6; i++) decisions.push(await (i % 2 === 0 ? a : b).take('key-1'));
      assert.deepEqual(
        decisions.map((decision) => decision.allowed),
        [true, true, true, true, true, false],
      );
      assert.deepEqual(
        decisions.map((decision) => decision.remaining),
        [4, 3, 2, 1, 0, 0],
      );
      assert.equal(decisions[5]?.limit, 5);
      assert.equal(decisions[5]?.retryAfterSeconds, 1, 'one token back in half a second');
      // Another subject has a bucket of its own.
      assert.equal((await b.take('key-2')).allowed, true);
      // Half a second refills one token, for whichever instance asks.
      clock.advance(500);
      assert.equal((await b.take('key-1')).allowed, true);
      assert.equal((await a.take('key-1')).allowed, false);
      // A full refill never exceeds the burst.
      clock.advance(60_000);
      const refilled = await a.take('key-1');
      assert.deepEqual([refilled.allowed, refilled.remaining], [true, 4]);
    });

    test('concurrent takes from two instances never hand out more than the burst', async (t) => {
      if (!(await requireRedis(t))) return;
      const where = await target();
      const prefix = uniquePrefix();
      const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
      const a = instanceLimiter(t, where, prefix, clock);
      const b = instanceLimiter(t, where, prefix, clock);
      const decisions = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).take('burst')),
      );
      assert.equal(decisions.filter((decision) => decision.allowed).length, RULE.burst);
    });
  });
}

describe('RedisRateLimiter when Redis is unreachable', () => {
  test('it limits from its fallback, per instance, and never throws', async (t) => {
    const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
    const unreachable = connectRedis(
      { url: 'redis://127.0.0.1:1' },
      {
        commandTimeout: 50,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => 1000,
      },
    ).on('error', () => undefined);
    t.after(() => unreachable.disconnect());
    const limiter = new RedisRateLimiter({
      client: unreachable,
      keyPrefix: uniquePrefix(),
      rule: RULE,
      clock,
      fallback: new MemoryRateLimiter(RULE, clock),
      timeoutMs: 50,
    });
    const allowed = [];
    for (let i = 0; i < 7; i++) allowed.push((await limiter.take('key')).allowed);
    assert.deepEqual(allowed, [true, true, true, true, true, false, false]);
  });
});
