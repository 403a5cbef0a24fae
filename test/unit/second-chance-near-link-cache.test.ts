import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  SecondChanceNearLinkCache,
  type SecondChanceNearLinkCacheOptions,
} from '../../src/adapters/memory-cache/second-chance-near-link-cache.js';
import { Doorkeeper } from '../../src/codes/doorkeeper.js';
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
    // 300 bytes of overhead plus one per character of the code and of the destination.
    const long = `https://example.com/${'x'.repeat(400)}`;
    const size = 300 + 7 + long.length;
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

  describe('with a doorkeeper: W-TinyLFU admission (ADR 0150)', () => {
    // 10 entries: a window of one.
    const withDoorkeeper = (window = 100, maxEntries = 10) =>
      cacheWith({ maxEntries, doorkeeper: new Doorkeeper(window, 7) });

    test('a code first set waits in the window, and moves into the cache when read there', () => {
      const { cache } = withDoorkeeper();
      assert.equal(cache.set('aaaaaaa', link('aaaaaaa')), true);
      assert.equal(cache.size, 1);
      assert.equal(cache.set('bbbbbbb', link('bbbbbbb')), true);
      assert.equal(cache.size, 1, 'the window holds one: a went');
      assert.equal(cache.get('aaaaaaa'), undefined);
      assert.equal(cache.get('bbbbbbb')?.code, 'bbbbbbb', 'read in the window');
      cache.set('ccccccc', link('ccccccc'));
      assert.equal(cache.get('bbbbbbb')?.code, 'bbbbbbb', 'since in the cache proper');
      assert.equal(cache.size, 2);
    });

    test('a code the doorkeeper has seen goes into the cache proper at its next fill', () => {
      const { cache } = withDoorkeeper();
      cache.set('aaaaaaa', link('aaaaaaa'));
      cache.set('bbbbbbb', link('bbbbbbb'));
      assert.equal(cache.get('aaaaaaa'), undefined, 'pushed out of the window');
      cache.set('aaaaaaa', link('aaaaaaa'));
      cache.set('ccccccc', link('ccccccc'));
      cache.set('ddddddd', link('ddddddd'));
      assert.equal(cache.get('aaaaaaa')?.code, 'aaaaaaa');
      assert.equal(cache.set('nothere', ABSENT_ENTRY), true);
      assert.equal(cache.get('nothere'), ABSENT_ENTRY, 'an absence waits in the window alike');
    });

    test('the window drops its oldest first, whatever left it from the middle', () => {
      // 300 entries: a window of three.
      const { cache } = withDoorkeeper(1_000, 300);
      for (const code of ['aaaaaaa', 'bbbbbbb', 'ccccccc']) cache.set(code, link(code));
      assert.ok(cache.get('bbbbbbb'), 'read: into the cache proper');
      cache.set('ddddddd', link('ddddddd'));
      cache.set('eeeeeee', link('eeeeeee'));
      cache.set('fffffff', link('fffffff'));
      // a, then c went; d, e and f wait; b is in the cache proper.
      assert.equal(cache.size, 4);
      assert.deepEqual(
        ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'ddddddd', 'eeeeeee', 'fffffff'].map(
          (code) => cache.get(code)?.code,
        ),
        [undefined, 'bbbbbbb', undefined, 'ddddddd', 'eeeeeee', 'fffffff'],
      );
    });

    test('codes asked for once do not push out the ones asked for again', () => {
      const { cache } = withDoorkeeper(1_000, 3);
      for (const code of ['aaaaaaa', 'bbbbbbb', 'ccccccc']) {
        cache.set(code, link(code));
        cache.get(code);
      }
      for (let i = 0; i < 100; i++) cache.set(`once${String(i).padStart(3, '0')}`, link('x'));
      assert.equal(cache.size, 4, 'three, and the window of one');
      assert.deepEqual(
        ['aaaaaaa', 'bbbbbbb', 'ccccccc'].map((code) => cache.get(code)?.code),
        ['aaaaaaa', 'bbbbbbb', 'ccccccc'],
      );
    });

    test('an entry in the window is replaced by a newer one (a create replaces an absence)', () => {
      const { cache } = withDoorkeeper();
      cache.set('abc1234', ABSENT_ENTRY);
      assert.equal(cache.set('abc1234', link('abc1234', 2)), true);
      assert.equal(cache.get('abc1234')?.version, 2);
      assert.equal(cache.set('abc1234', link('abc1234', 1)), false, 'older than the one held');
    });

    test('an invalidation drops an older entry from the window; a stale fill is refused', () => {
      const { cache } = withDoorkeeper();
      cache.set('abc1234', link('abc1234', 2));
      cache.invalidate('abc1234', 3);
      assert.equal(cache.get('abc1234'), undefined);
      assert.equal(cache.size, 0);
      assert.equal(cache.set('abc1234', link('abc1234', 2)), false);
    });

    test('an entry in the window expires like any other', () => {
      const { cache, clock } = withDoorkeeper();
      cache.set('nothere', ABSENT_ENTRY);
      clock.ms += 10_000;
      assert.equal(cache.get('nothere'), undefined);
      assert.equal(cache.size, 0);
    });

    test('an entry that expired while held in the cache goes back into it at its next fill', () => {
      const { cache, clock } = withDoorkeeper(2);
      cache.set('abc1234', link('abc1234'));
      cache.get('abc1234');
      // Two windows of other codes: the doorkeeper has forgotten the first sighting.
      for (const code of ['q000001', 'q000002', 'q000003', 'q000004', 'q000005']) {
        cache.set(code, link(code));
      }
      clock.ms += 66_001;
      assert.equal(cache.get('abc1234'), undefined, 'expired');
      cache.set('abc1234', link('abc1234', 2));
      cache.set('q000006', link('q000006'));
      assert.equal(cache.get('abc1234')?.version, 2, 'not in the window: the cache proper');
    });

    test('a code seen once is forgotten after two doorkeeper windows of other first sightings', () => {
      const { cache } = withDoorkeeper(2);
      cache.set('abc1234', link('abc1234'));
      for (const code of ['q000001', 'q000002', 'q000003', 'q000004']) {
        cache.set(code, link(code));
      }
      cache.set('abc1234', link('abc1234'));
      cache.set('q000005', link('q000005'));
      assert.equal(cache.get('abc1234'), undefined, 'a first sighting again: the window');
      cache.set('abc1234', link('abc1234'));
      cache.set('q000006', link('q000006'));
      assert.ok(cache.get('abc1234'), 'seen: the cache proper');
    });
  });
});
