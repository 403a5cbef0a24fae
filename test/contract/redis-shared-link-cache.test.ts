import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import { RedisSharedLinkCache } from '../../src/adapters/redis/redis-shared-link-cache.js';
import { createLogger } from '../../src/observability/logger.js';
import { ABSENT_ENTRY } from '../../src/domain/cache-entry.js';
import type { CacheEntry, CachedLink } from '../../src/ports/near-link-cache.js';
import { startRedisCluster, type RedisClusterHandle } from '../support/redis-cluster.js';
import { eventually } from '../support/eventually.js';
import { requireRedisServer, startOwnRedis } from '../support/own-redis.js';
import { REDIS_URL, requireRedis, uniquePrefix } from '../support/require-redis.js';

function entry(
  version: number,
  location = `https://example.com/v${version}`,
  code = 'temp001',
): CachedLink {
  return {
    found: true,
    linkId: '01JCLICKSLINKID0000000000A',
    code,
    version,
    state: 'active',
    expiresAt: null,
    status: 302,
    location,
    fixedOutcome: null,
    smart: null,
    crawlable: false,
  };
}

type Target = { url: string } | { clusterNodes: readonly string[] };

/** The lookup timeout of the busy-instance test; its blocks last twice as long. */
const BUSY_TIMEOUT_MS = 150;

async function openCache(
  t: TestContext,
  prefix: string,
  target: Target,
  maxPending?: number,
  timeoutMs = 50,
) {
  const cache = new RedisSharedLinkCache({
    target,
    prefix,
    positiveTtlMs: 60_000,
    negativeTtlMs: 10_000,
    floorTtlMs: 60_000,
    jitter: 0.1,
    timeoutMs,
    ...(maxPending === undefined ? {} : { maxPending }),
    logger: createLogger('silent'),
  });
  t.after(() => cache.close());
  return cache;
}

/** Deletes every key of this run, so the shared server is left as it was. */
async function cleanUp(t: TestContext, prefix: string, target: Target) {
  // A cluster of the test's own is thrown away whole.
  if (!('url' in target)) return;
  const admin = new Redis(target.url);
  t.after(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });
}

function sharedCacheContract(
  name: string,
  targetOf: () => Target,
  available: (t: TestContext) => Promise<boolean>,
) {
  describe(`RedisSharedLinkCache on ${name}`, () => {
    test('a reply that came in time is a hit even when the event loop ran late past the timeout', async (t) => {
      if (!(await available(t))) return;
      const target = targetOf();
      const prefix = uniquePrefix();
      await cleanUp(t, prefix, target);
      // A 150 ms timeout (ioredis's own command timeout 600 ms): a loaded machine's cluster
      // once took more than 100 ms to answer, which a 50 ms timeout's test blocked for.
      const cache = await openCache(t, prefix, target, undefined, BUSY_TIMEOUT_MS);
      await cache.ready();
      cache.set('busy001', entry(1, 'https://example.com/busy', 'busy001'));
      await eventually(async () => (await cache.get('busy001')) !== undefined);
      // More lookups than the breaker's threshold, each with the loop blocked for twice the
      // timeout right after it is sent: Redis answers meanwhile, and the timer fires late.
      // (The breaker opens after five failures in a row.)
      for (let i = 0; i < 6; i++) {
        const lookup = cache.get('busy001');
        const until = performance.now() + 2 * BUSY_TIMEOUT_MS;
        while (performance.now() < until) {
          // a busy instance: the event loop does not turn
        }
        assert.equal((await lookup)?.location, 'https://example.com/busy', `lookup ${i}`);
      }
      assert.equal(cache.breakerState, 'closed');
    });

    test('round-trips entries, permanent and temporary, and absences', async (t) => {
      if (!(await available(t))) return;
      const target = targetOf();
      const prefix = uniquePrefix();
      await cleanUp(t, prefix, target);
      const cache = await openCache(t, prefix, target);
      await cache.ready();
      assert.equal(await cache.get('nothing1'), undefined);
      const permanent: CacheEntry = {
        ...entry(3, 'https://example.com/a|b?c=1', 'perm001'),
        status: 301,
        expiresAt: 1_900_000_000_000,
      };
      cache.set('perm001', permanent);
      cache.set('absent1', ABSENT_ENTRY);
      // Each key's write lands on its own (on a cluster, on its own node): wait for both.
      await eventually(async () => (await cache.get('perm001')) !== undefined);
      await eventually(async () => (await cache.get('absent1')) !== undefined);
      assert.deepEqual(await cache.get('perm001'), permanent);
      const absent = await cache.get('absent1');
      assert.equal(absent?.found, false);
      cache.set('temp001', entry(1));
      await eventually(async () => (await cache.get('temp001')) !== undefined);
      const temporary = await cache.get('temp001');
      assert.deepEqual(temporary?.fixedOutcome, {
        kind: 'redirect',
        linkId: '01JCLICKSLINKID0000000000A',
        code: 'temp001',
        status: 302,
        location: 'https://example.com/v1',
        cacheControl: 'private, no-store',
        crawlable: false,
      });
    });

    test('an older version never overwrites a newer one; absence never hides a link', async (t) => {
      if (!(await available(t))) return;
      const target = targetOf();
      const prefix = uniquePrefix();
      await cleanUp(t, prefix, target);
      const cache = await openCache(t, prefix, target);
      await cache.ready();
      cache.set('code001', entry(5));
      await eventually(async () => (await cache.get('code001'))?.version === 5);
      cache.set('code001', entry(4));
      cache.set('code001', ABSENT_ENTRY);
      cache.set('code002', entry(1)); // a marker: once it is there, the writes before it are done
      await eventually(async () => (await cache.get('code002')) !== undefined);
      assert.equal((await cache.get('code001'))?.version, 5);
      cache.set('code001', entry(6));
      await eventually(async () => (await cache.get('code001'))?.version === 6);
    });

    test('an invalidation reads as a miss, refuses older fills and reaches every instance', async (t) => {
      if (!(await available(t))) return;
      const target = targetOf();
      const prefix = uniquePrefix();
      await cleanUp(t, prefix, target);
      const first = await openCache(t, prefix, target);
      const second = await openCache(t, prefix, target);
      await Promise.all([first.ready(), second.ready()]);
      const heard: string[] = [];
      second.onInvalidation((code, version) => heard.push(`${code}@${version}`));
      // Subscriptions are asynchronous: wait until a probe broadcast arrives.
      await eventually(async () => {
        first.invalidate('probe01', 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return heard.includes('probe01@1');
      });

      first.set('shared1', entry(1));
      await eventually(async () => (await second.get('shared1')) !== undefined);
      first.invalidate('shared1', 2);
      await eventually(async () => heard.includes('shared1@2'));
      assert.equal(await second.get('shared1'), undefined);
      second.set('shared1', entry(1)); // a slow reader with the old version
      second.set('marker1', entry(1));
      await eventually(async () => (await second.get('marker1')) !== undefined);
      assert.equal(await second.get('shared1'), undefined, 'version 1 did not come back');
      second.set('shared1', entry(2));
      await eventually(async () => (await first.get('shared1'))?.version === 2);
    });
  });
}

sharedCacheContract('the shared Redis server', () => ({ url: REDIS_URL }), requireRedis);

let cluster: RedisClusterHandle | null = null;
sharedCacheContract(
  'a 3-node Redis Cluster started by the test',
  () => ({ clusterNodes: cluster?.nodes ?? [] }),
  async () => {
    cluster ??= await startRedisCluster();
    return true;
  },
);
after(async () => {
  await cluster?.stop();
});

describe('RedisSharedLinkCache when Redis is unreachable', () => {
  test('an unreachable Redis is a miss, and the breaker opens', async (t) => {
    const cache = await openCache(t, uniquePrefix(), { url: 'redis://127.0.0.1:1' });
    for (let i = 0; i < 6; i++) assert.equal(await cache.get('any0001'), undefined);
    assert.equal(cache.breakerState, 'open');
    cache.set('any0001', entry(1));
    cache.invalidate('any0001', 2);
    assert.equal(await cache.get('any0001'), undefined);
  });
});

/** Generous poll budgets (10 ms apart): the breaker waits 2 s before a trial, ticks are 1 s. */
const RECOVERY_POLLS = 1500;

/** Reads against the frozen server until the breaker opens: from then on, writes are skipped. */
async function openBreaker(cache: RedisSharedLinkCache): Promise<void> {
  await eventually(async () => {
    await cache.get('stall01');
    return cache.breakerState === 'open';
  }, 'the breaker opening');
}

/**
 * Whether `cache` reads `marker` and none of `gone`, in one pipeline: the marker shows Redis
 * answered, since an open breaker or a timeout reads as a miss too.
 */
async function readsOnly(
  cache: RedisSharedLinkCache,
  marker: string,
  gone: readonly string[],
): Promise<boolean> {
  const [seen, ...others] = await Promise.all([marker, ...gone].map((code) => cache.get(code)));
  return seen !== undefined && others.every((other) => other === undefined);
}

describe('RedisSharedLinkCache when Redis stalls, then comes back with its data', () => {
  test('an invalidation and a create that missed it reach Redis and every instance after', async (t) => {
    if (!requireRedisServer(t)) return;
    const redis = await startOwnRedis(t);
    if (redis === null) return;
    const prefix = uniquePrefix();
    const first = await openCache(t, prefix, { url: redis.url });
    const second = await openCache(t, prefix, { url: redis.url });
    await Promise.all([first.ready(), second.ready()]);
    const heard: string[] = [];
    second.onInvalidation((code, version) => heard.push(`${code}@${version}`));
    await eventually(async () => {
      first.broadcast('probe01', 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return heard.includes('probe01@1');
    }, 'the subscription');
    first.set('stale01', entry(1));
    await eventually(async () => (await second.get('stale01'))?.version === 1);

    redis.freeze();
    await openBreaker(first);
    first.invalidate('stale01', 2); // an edit, while nothing reaches Redis
    first.broadcast('fresh01', 1); // a create
    redis.thaw();

    await eventually(
      async () => heard.includes('stale01@2') && heard.includes('fresh01@1'),
      'the missed invalidation and create reaching the other instance',
      RECOVERY_POLLS,
    );
    second.set('marker1', entry(1, undefined, 'marker1'));
    await eventually(() => readsOnly(second, 'marker1', ['stale01']), 'the floor in Redis');
    second.set('stale01', entry(1)); // a slow reader with the old version
    second.set('marker2', entry(1, undefined, 'marker2')); // once it is there, so is the above
    await eventually(() => readsOnly(second, 'marker2', ['stale01']), 'version 1 refused');
  });

  test('more changes than it keeps: the recovery flushes L2 for every instance', async (t) => {
    if (!requireRedisServer(t)) return;
    const redis = await startOwnRedis(t);
    if (redis === null) return;
    const prefix = uniquePrefix();
    const first = await openCache(t, prefix, { url: redis.url }, 2);
    const second = await openCache(t, prefix, { url: redis.url });
    await Promise.all([first.ready(), second.ready()]);
    const codes = ['keep001', 'chg0001', 'chg0002', 'chg0003'];
    for (const code of codes) first.set(code, entry(1, undefined, code));
    await eventually(async () => {
      const held = await Promise.all(codes.map((code) => second.get(code)));
      return held.every((one) => one?.version === 1);
    }, 'the entries in L2');

    redis.freeze();
    await openBreaker(first);
    for (const code of codes.slice(1)) first.invalidate(code, 2); // one more than it keeps
    redis.thaw();

    // The marker, written after the flush, is in the new generation; the others are not.
    await eventually(
      async () => {
        first.set('after01', entry(1, undefined, 'after01'));
        return (await readsOnly(first, 'after01', codes)) && readsOnly(second, 'after01', codes);
      },
      'the flush reaching both instances',
      RECOVERY_POLLS,
    );
    const third = await openCache(t, prefix, { url: redis.url });
    await third.ready();
    assert.ok(await readsOnly(third, 'after01', codes), 'an instance opened now');
  });

  test('a Redis restarted empty is given its generation back: instances keep sharing keys', async (t) => {
    if (!requireRedisServer(t)) return;
    const redis = await startOwnRedis(t);
    if (redis === null) return;
    const prefix = uniquePrefix();
    const first = await openCache(t, prefix, { url: redis.url }, 0); // keeps nothing: flushes
    await first.ready();
    first.set('old0001', entry(1, undefined, 'old0001'));
    await eventually(async () => (await first.get('old0001')) !== undefined);
    redis.freeze();
    await openBreaker(first);
    first.invalidate('gone001', 2);
    redis.thaw();
    await eventually(
      async () => {
        first.set('mark001', entry(1, undefined, 'mark001'));
        return readsOnly(first, 'mark001', ['old0001']);
      },
      'the flush',
      RECOVERY_POLLS,
    );

    await redis.restart();
    const late = await openCache(t, prefix, { url: redis.url });
    await late.ready();
    await eventually(
      async () => {
        first.set('again01', entry(1, undefined, 'again01'));
        return (await late.get('again01'))?.version === 1;
      },
      'the instance started after the restart on the same generation',
      RECOVERY_POLLS,
    );
  });
});
