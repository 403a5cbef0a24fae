import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LruNearLinkCache } from '../../src/adapters/memory-cache/lru-near-link-cache.js';
import { cachedLinkOf } from '../../src/domain/cache-entry.js';

function cacheWithTtl(positiveTtlMs: number): LruNearLinkCache {
  return new LruNearLinkCache({
    maxEntries: 10,
    maxBytes: 1 << 20,
    positiveTtlMs,
    negativeTtlMs: 10_000,
    jitter: 0.1,
  });
}

describe('LruNearLinkCache', () => {
  test('any whole TTL is accepted, even where TTL × (1 + jitter) is not whole (HOP_L1_TTL=1h, 90s)', () => {
    for (const ttl of [3_600_000, 90_000, 7_000, 1]) {
      const cache = cacheWithTtl(ttl);
      const entry = cachedLinkOf('id', 'abc1234', 2, 'active', null, 302, 'https://example.com/');
      assert.equal(cache.set('abc1234', entry), true);
      cache.invalidate('abc1234', 3);
      assert.equal(cache.get('abc1234'), undefined);
    }
  });

  test('set refuses, and says so, an entry older than one held or than an invalidation', () => {
    const cache = cacheWithTtl(60_000);
    const v = (version: number) =>
      cachedLinkOf('id', 'abc1234', version, 'active', null, 302, `https://example.com/${version}`);
    assert.equal(cache.set('abc1234', v(2)), true);
    assert.equal(cache.set('abc1234', v(1)), false, 'older than the entry held');
    cache.invalidate('abc1234', 3);
    assert.equal(cache.set('abc1234', v(2)), false, 'older than the invalidation');
    assert.equal(cache.set('abc1234', v(3)), true);
    assert.equal(cache.get('abc1234')?.location, 'https://example.com/3');
  });
});
