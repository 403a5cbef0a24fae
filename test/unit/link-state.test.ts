import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  effectiveState,
  isPermanentRedirect,
  isRedirectable,
  REDIRECT_STATUSES,
  type Link,
  type StoredLinkState,
} from '../../src/domain/link.js';
import {
  cacheControlFor,
  MAX_PERMANENT_AGE_SECONDS,
  TEMPORARY_CACHE_CONTROL,
} from '../../src/domain/redirect-outcome.js';

/** SPEC §3: expiry is checked against the clock on every read; caching follows the status. */

const NOW = Date.UTC(2025, 0, 1, 12);
const SECOND = 1000;
const HOUR = 3600 * SECOND;

function link(state: StoredLinkState, expiresAt: number | null): Link {
  return {
    id: '01JGZ8Q3V4X5Y6Z7A8B9C0D1E2',
    code: 'aB3xY9z',
    owner: 'alice',
    destination: 'https://example.com/',
    statusCode: 302,
    state,
    custom: false,
    title: null,
    tags: [],
    createdAt: NOW - HOUR,
    updatedAt: NOW - HOUR,
    expiresAt,
    deletedAt: state === 'deleted' ? NOW - 1 : null,
    version: 1,
    smart: null,
    domain: '',
    preview: null,
    crawlable: false,
  };
}

describe('effectiveState and isRedirectable', () => {
  test('active without expiry stays active forever', () => {
    const l = link('active', null);
    assert.equal(effectiveState(l, NOW), 'active');
    assert.equal(effectiveState(l, NOW + 100 * 365 * 24 * HOUR), 'active');
    assert.equal(isRedirectable(l, NOW), true);
  });

  test('active with a future expiry is active until the expiry instant', () => {
    const l = link('active', NOW + HOUR);
    assert.equal(effectiveState(l, NOW), 'active');
    assert.equal(effectiveState(l, NOW + HOUR - 1), 'active');
    assert.equal(isRedirectable(l, NOW + HOUR - 1), true);
  });

  test('an active link is expired at its expiry instant and after, without any sweeper', () => {
    const l = link('active', NOW + HOUR);
    assert.equal(effectiveState(l, NOW + HOUR), 'expired');
    assert.equal(effectiveState(l, NOW + 2 * HOUR), 'expired');
    assert.equal(isRedirectable(l, NOW + HOUR), false);
  });

  test('the clock is consulted on every call: the same link changes state with time', () => {
    const l = link('active', NOW + SECOND);
    assert.deepEqual(
      [NOW, NOW + SECOND - 1, NOW + SECOND, NOW + 2 * SECOND].map((t) => effectiveState(l, t)),
      ['active', 'active', 'expired', 'expired'],
    );
  });

  test('a stored non-active state wins over the clock', () => {
    for (const state of ['disabled', 'expired', 'deleted'] as const) {
      for (const expiresAt of [null, NOW + HOUR, NOW - HOUR]) {
        const l = link(state, expiresAt);
        assert.equal(effectiveState(l, NOW), state, `${state}, expires ${String(expiresAt)}`);
        assert.equal(isRedirectable(l, NOW), false);
      }
    }
  });

  test('only active links redirect', () => {
    const redirectable = (['active', 'disabled', 'expired', 'deleted'] as const).filter((s) =>
      isRedirectable(link(s, null), NOW),
    );
    assert.deepEqual(redirectable, ['active']);
  });
});

describe('cacheControlFor', () => {
  test('301 and 308 are permanent, 302 and 307 temporary', () => {
    assert.deepEqual(
      REDIRECT_STATUSES.filter((s) => isPermanentRedirect(s)),
      [301, 308],
    );
  });

  test('temporary redirects are never stored by any cache', () => {
    assert.equal(TEMPORARY_CACHE_CONTROL, 'private, no-store');
    for (const status of [302, 307] as const) {
      for (const expiresAt of [null, NOW + 10 * HOUR, NOW + SECOND, NOW - SECOND]) {
        assert.equal(cacheControlFor(status, expiresAt, NOW), 'private, no-store');
      }
    }
  });

  test('permanent redirects without expiry get the one-hour cap', () => {
    assert.equal(MAX_PERMANENT_AGE_SECONDS, 3600);
    for (const status of [301, 308] as const) {
      assert.equal(cacheControlFor(status, null, NOW), 'public, max-age=3600');
    }
  });

  test('permanent redirects are capped at one hour even for a long life', () => {
    assert.equal(cacheControlFor(301, NOW + 10 * HOUR, NOW), 'public, max-age=3600');
    assert.equal(cacheControlFor(308, NOW + HOUR + SECOND, NOW), 'public, max-age=3600');
    assert.equal(cacheControlFor(301, NOW + HOUR, NOW), 'public, max-age=3600');
  });

  test('permanent redirects never outlive the link', () => {
    assert.equal(cacheControlFor(301, NOW + HOUR - SECOND, NOW), 'public, max-age=3599');
    assert.equal(cacheControlFor(301, NOW + 600 * SECOND, NOW), 'public, max-age=600');
    assert.equal(cacheControlFor(308, NOW + 1500, NOW), 'public, max-age=1');
  });

  test('max-age rounds down, so it is 0 when less than a second is left', () => {
    assert.equal(cacheControlFor(301, NOW + 999, NOW), 'public, max-age=0');
    assert.equal(cacheControlFor(301, NOW + 1, NOW), 'public, max-age=0');
    assert.equal(cacheControlFor(308, NOW + 1999, NOW), 'public, max-age=1');
  });

  test('an already expired link gets max-age 0, never a negative age', () => {
    assert.equal(cacheControlFor(301, NOW, NOW), 'public, max-age=0');
    assert.equal(cacheControlFor(301, NOW - HOUR, NOW), 'public, max-age=0');
  });

  test('property: for every remaining life, 0 ≤ max-age ≤ min(3600, remaining seconds)', () => {
    for (let remainingMs = -5000; remainingMs <= 2 * HOUR; remainingMs += 977) {
      for (const status of [301, 308] as const) {
        const header = cacheControlFor(status, NOW + remainingMs, NOW);
        const match = /^public, max-age=(\d+)$/.exec(header);
        assert.ok(match !== null, header);
        const age = Number(match[1]);
        assert.ok(age <= 3600, header);
        assert.ok(age * SECOND <= Math.max(0, remainingMs), `${header} for ${remainingMs} ms`);
      }
    }
  });
});
