import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  SecondChanceNearLinkCache,
  type SecondChanceNearLinkCacheOptions,
} from '../../src/adapters/memory-cache/second-chance-near-link-cache.js';
import { ABSENT_ENTRY, cachedLinkOf } from '../../src/domain/cache-entry.js';

/** A cache on a clock the test moves: `clock.ms`. */
function cacheWith(options: Partial<SecondChanceNearLinkCacheOptions> = {}) {
  const clock = { ms: 1_000 };
  const cache = new SecondChanceNearLinkCache({
    maxEntries: 10,
    maxBytes: 1 << 20,
    positiveTtlMs: 60_000,
    negativeTtlMs: 10_000,
    jitter: 0.1,
    now: () => clock.ms,
    ...options,
  });
  return { cache, clock };
}

const link = (code: string, version = 1, location = `https://example.com/${code}`) =>
  cachedLinkOf(`id-${code}`, code, version, 'active', null, 302, location);

describe('SecondChanceNearLinkCache', () => {
  test('any whole TTL is accepted, even where TTL × (1 + jitter) is not whole (HOP_L1_TTL=1h, 90s)', () => {
    for (const ttl of [3_600_000, 90_000, 7_000, 1]) {
      const { cache } = cacheWith({ positiveTtlMs: ttl });
      assert.equal(cache.set('abc1234', link('abc1234', 2)), true);
      cache.invalidate('abc1234', 3);
      assert.equal(cache.get('abc1234'), undefined);
    }
  });

  test('set refuses, and says so, an entry older than one held or than an invalidation', () => {
    const { cache } = cacheWith();
    const v = (version: number) => link('abc1234', version, `https://example.com/${version}`);
    assert.equal(cache.set('abc1234', v(2)), true);
    assert.equal(cache.set('abc1234', v(1)), false, 'older than the entry held');
    cache.invalidate('abc1234', 3);
    assert.equal(cache.set('abc1234', v(2)), false, 'older than the invalidation');
    assert.equal(cache.set('abc1234', v(3)), true);
    assert.equal(cache.get('abc1234')?.location, 'https://example.com/3');
  });

  test('a link is kept for its TTL ± jitter, an absence for the negative TTL', () => {
    const { cache, clock } = cacheWith();
    cache.set('abc1234', link('abc1234'));
    cache.set('nothere', ABSENT_ENTRY);
    clock.ms += 9_999;
    assert.equal(cache.get('nothere'), ABSENT_ENTRY);
    clock.ms += 1;
    assert.equal(cache.get('nothere'), undefined, 'gone after 10 s');
    clock.ms += 54_000 - 10_000 - 1;
    assert.equal(cache.get('abc1234')?.code, 'abc1234', 'kept at least TTL × 0.9');
    clock.ms += 66_000 - 54_000 + 1;
    assert.equal(cache.get('abc1234'), undefined, 'gone by TTL × 1.1');
    assert.equal(cache.size, 0);
  });

  test('an invalidation outlives the entry for one positive TTL with jitter, then older fills are taken again', () => {
    const { cache, clock } = cacheWith();
    cache.invalidate('abc1234', 5);
    clock.ms += 66_000 - 1;
    assert.equal(cache.set('abc1234', link('abc1234', 4)), false);
    clock.ms += 1;
    assert.equal(cache.set('abc1234', link('abc1234', 4)), true);
  });

  test('over its count, the oldest entry not read since the last pass goes first; a read one gets a second chance', () => {
    const { cache } = cacheWith({ maxEntries: 3 });
    for (const code of ['aaaaaaa', 'bbbbbbb', 'ccccccc']) cache.set(code, link(code));
    assert.ok(cache.get('aaaaaaa'));
    cache.set('ddddddd', link('ddddddd'));
    assert.equal(cache.size, 3);
    assert.equal(cache.get('bbbbbbb'), undefined, 'the oldest unread one went');
    assert.ok(cache.get('aaaaaaa'), 'read, so kept');
    // a was read again since it was passed; c and d were not: c, then d, go first.
    cache.set('eeeeeee', link('eeeeeee'));
    assert.equal(cache.get('ccccccc'), undefined);
    assert.deepEqual(
      ['aaaaaaa', 'ddddddd', 'eeeeeee'].map((code) => cache.get(code)?.code),
      ['aaaaaaa', 'ddddddd', 'eeeeeee'],
    );
  });

  test('over its bytes, entries go until the rest fit', () => {
    // 160 bytes of overhead plus two per character of the code and of the destination.
    const long = `https://example.com/${'x'.repeat(400)}`;
    const size = 160 + 2 * (7 + long.length);
    const { cache } = cacheWith({ maxBytes: 2 * size });
    for (const code of ['aaaaaaa', 'bbbbbbb', 'ccccccc']) cache.set(code, link(code, 1, long));
    assert.equal(cache.size, 2);
    assert.equal(cache.get('aaaaaaa'), undefined);
    // One larger than the whole bound is not kept.
    cache.set('zzzzzzz', link('zzzzzzz', 1, `${long}${'y'.repeat(2 * size)}`));
    assert.equal(cache.get('zzzzzzz'), undefined);
  });

  test('when every entry was read, one pass clears them and the oldest goes', () => {
    const { cache } = cacheWith({ maxEntries: 2 });
    cache.set('aaaaaaa', link('aaaaaaa'));
    cache.set('bbbbbbb', link('bbbbbbb'));
    cache.get('aaaaaaa');
    cache.get('bbbbbbb');
    cache.set('ccccccc', link('ccccccc'));
    assert.equal(cache.size, 2);
    assert.equal(cache.get('aaaaaaa'), undefined);
    assert.ok(cache.get('bbbbbbb') && cache.get('ccccccc'));
  });
});
