import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HopError } from '../../src/domain/errors.js';
import {
  describeDuration,
  parseTimestamp,
  resolveExpiry,
  resolveExpiryChange,
  type ExpiryPolicy,
} from '../../src/domain/expiry.js';

/** SPEC §3: expires_at (RFC 3339) or ttl_seconds, in the future and within HOP_MAX_TTL. */

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const YEAR = 365 * DAY;
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0); // 2025-01-01T12:00:00Z

const POLICY: ExpiryPolicy = { defaultTtlMs: 2 * YEAR, maxTtlMs: 10 * YEAR };
const NEVER_EXPIRES: ExpiryPolicy = { defaultTtlMs: null, maxTtlMs: null };

function assertInvalidExpiry(run: () => unknown, field: string, detail?: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof HopError, 'a HopError');
    assert.equal(error.kind, 'invalid-expiry');
    assert.equal(error.fields.length, 1);
    assert.equal(error.fields[0]?.field, field);
    assert.equal(error.fields[0]?.detail, error.detail);
    // The field, a colon, then the sentence: never "expires_at give either…" (issue 20).
    assert.ok(error.detail.startsWith(`${field}: `), error.detail);
    if (detail !== undefined) assert.match(error.detail, detail);
    return true;
  });
}

describe('resolveExpiry: neither expires_at nor ttl_seconds', () => {
  test('the default lifetime applies', () => {
    assert.equal(resolveExpiry({}, NOW, POLICY), NOW + 2 * YEAR);
  });
  test('explicit nulls and undefineds count as absent', () => {
    assert.equal(resolveExpiry({ expiresAt: null, ttlSeconds: null }, NOW, POLICY), NOW + 2 * YEAR);
    assert.equal(
      resolveExpiry({ expiresAt: undefined, ttlSeconds: undefined }, NOW, POLICY),
      NOW + 2 * YEAR,
    );
  });
  test('a null default means the link never expires', () => {
    assert.equal(resolveExpiry({}, NOW, NEVER_EXPIRES), null);
    assert.equal(resolveExpiry({}, NOW, { defaultTtlMs: null, maxTtlMs: 10 * YEAR }), null);
  });
  test('the default is counted from now', () => {
    assert.equal(resolveExpiry({}, NOW + DAY, POLICY), NOW + DAY + 2 * YEAR);
  });
});

describe('resolveExpiry: ttl_seconds', () => {
  test('is counted from now', () => {
    assert.equal(resolveExpiry({ ttlSeconds: 3600 }, NOW, POLICY), NOW + 3600 * SECOND);
    assert.equal(resolveExpiry({ ttlSeconds: 1 }, NOW, POLICY), NOW + SECOND);
  });
  test('exactly the maximum lifetime is allowed, one second more is not', () => {
    const max = (10 * YEAR) / SECOND;
    assert.equal(resolveExpiry({ ttlSeconds: max }, NOW, POLICY), NOW + 10 * YEAR);
    assertInvalidExpiry(
      () => resolveExpiry({ ttlSeconds: max + 1 }, NOW, POLICY),
      'ttl_seconds',
      /maximum lifetime/,
    );
  });
  test('any lifetime is allowed without a maximum', () => {
    const ttl = 1000 * (YEAR / SECOND);
    assert.equal(resolveExpiry({ ttlSeconds: ttl }, NOW, NEVER_EXPIRES), NOW + ttl * SECOND);
  });
  test('without a maximum, a lifetime past year 9999 is still refused', () => {
    // RFC 3339 (the API's own format for expires_at) ends at 9999-12-31T23:59:59.999Z, and
    // Date cannot even hold MAX_SAFE_INTEGER seconds from now: such a link could never be
    // shown (toISOString throws).
    const toEndOf9999 = (Date.UTC(9999, 11, 31, 23, 59, 59) - NOW) / SECOND;
    assert.equal(
      resolveExpiry({ ttlSeconds: toEndOf9999 }, NOW, NEVER_EXPIRES),
      Date.UTC(9999, 11, 31, 23, 59, 59),
    );
    for (const ttlSeconds of [toEndOf9999 + 1, 1e13, Number.MAX_SAFE_INTEGER]) {
      assertInvalidExpiry(() => resolveExpiry({ ttlSeconds }, NOW, NEVER_EXPIRES), 'ttl_seconds');
    }
  });
  test('zero, negative, fractional and non-finite values are refused', () => {
    for (const ttlSeconds of [
      0,
      -1,
      -3600,
      1.5,
      0.001,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 2,
    ]) {
      assertInvalidExpiry(
        () => resolveExpiry({ ttlSeconds }, NOW, POLICY),
        'ttl_seconds',
        /positive whole number/,
      );
    }
  });
});

describe('resolveExpiry: expires_at', () => {
  test('a future timestamp is taken as given', () => {
    assert.equal(
      resolveExpiry({ expiresAt: '2030-01-01T00:00:00Z' }, NOW, POLICY),
      Date.UTC(2030, 0, 1),
    );
  });
  test('offsets and fractions are honoured', () => {
    assert.equal(
      resolveExpiry({ expiresAt: '2030-01-01T02:00:00+02:00' }, NOW, POLICY),
      Date.UTC(2030, 0, 1),
    );
    assert.equal(
      resolveExpiry({ expiresAt: '2029-12-31T19:00:00-05:00' }, NOW, POLICY),
      Date.UTC(2030, 0, 1),
    );
    assert.equal(
      resolveExpiry({ expiresAt: '2030-01-01T00:00:00.250Z' }, NOW, POLICY),
      Date.UTC(2030, 0, 1) + 250,
    );
  });
  test('one millisecond in the future is allowed', () => {
    assert.equal(resolveExpiry({ expiresAt: '2025-01-01T12:00:00.001Z' }, NOW, POLICY), NOW + 1);
  });
  test('now and the past are refused', () => {
    for (const expiresAt of [
      '2025-01-01T12:00:00Z', // exactly now
      '2025-01-01T13:00:00+01:00', // now, another offset
      '2025-01-01T11:59:59.999Z',
      '2020-01-01T00:00:00Z',
      '1970-01-01T00:00:00Z',
    ]) {
      assertInvalidExpiry(() => resolveExpiry({ expiresAt }, NOW, POLICY), 'expires_at', /future/);
    }
  });
  test('exactly the maximum lifetime is allowed, beyond it is refused', () => {
    const atMax = new Date(NOW + 10 * YEAR).toISOString();
    assert.equal(resolveExpiry({ expiresAt: atMax }, NOW, POLICY), NOW + 10 * YEAR);
    const beyond = new Date(NOW + 10 * YEAR + 1).toISOString();
    assertInvalidExpiry(
      () => resolveExpiry({ expiresAt: beyond }, NOW, POLICY),
      'expires_at',
      /maximum lifetime/,
    );
    assertInvalidExpiry(
      () => resolveExpiry({ expiresAt: '2999-01-01T00:00:00Z' }, NOW, POLICY),
      'expires_at',
      /maximum lifetime/,
    );
  });
  test('without a maximum, any future timestamp is allowed', () => {
    assert.equal(
      resolveExpiry({ expiresAt: '2999-01-01T00:00:00Z' }, NOW, NEVER_EXPIRES),
      Date.UTC(2999, 0, 1),
    );
  });
  test('both expires_at and ttl_seconds is refused', () => {
    assertInvalidExpiry(
      () => resolveExpiry({ expiresAt: '2030-01-01T00:00:00Z', ttlSeconds: 3600 }, NOW, POLICY),
      'expires_at',
      /not both/,
    );
  });
  test('a malformed expires_at is refused naming the field', () => {
    assertInvalidExpiry(
      () => resolveExpiry({ expiresAt: 'tomorrow' }, NOW, POLICY),
      'expires_at',
      /RFC 3339/,
    );
  });
});

describe('describeDuration', () => {
  test('whole units, singular or plural', () => {
    assert.equal(describeDuration(10 * YEAR), '10 years');
    assert.equal(describeDuration(86_400_000), '1 day');
    assert.equal(describeDuration(90_000), '90 seconds');
    assert.equal(describeDuration(1_500), '1500 ms');
  });
});

describe('resolveExpiryChange', () => {
  test('a future timestamp becomes the new expiry', () => {
    assert.equal(resolveExpiryChange('2026-06-01T00:00:00Z', NOW, POLICY), Date.UTC(2026, 5, 1));
  });
  test('null (never expire) is refused while a maximum lifetime applies', () => {
    assertInvalidExpiry(
      () => resolveExpiryChange(null, NOW, POLICY),
      'expires_at',
      /^expires_at: null \(never expire\) is refused because HOP_MAX_TTL limits every link to 10 years; an operator may set HOP_MAX_TTL=0 to allow links that never expire\.$/,
    );
  });
  test('null (never expire) is allowed without a maximum', () => {
    assert.equal(resolveExpiryChange(null, NOW, NEVER_EXPIRES), null);
  });
  test('now, the past and beyond the maximum are refused', () => {
    for (const expiresAt of [
      '2025-01-01T12:00:00Z',
      '2024-12-31T00:00:00Z',
      new Date(NOW + 10 * YEAR + 1).toISOString(),
    ]) {
      assertInvalidExpiry(() => resolveExpiryChange(expiresAt, NOW, POLICY), 'expires_at');
    }
  });
  test('a malformed timestamp is refused', () => {
    assertInvalidExpiry(
      () => resolveExpiryChange('2030-01-01', NOW, POLICY),
      'expires_at',
      /RFC 3339/,
    );
  });
});

describe('parseTimestamp', () => {
  test('RFC 3339 date-times with Z or an offset', () => {
    const cases: readonly (readonly [string, number])[] = [
      ['2030-01-01T00:00:00Z', Date.UTC(2030, 0, 1)],
      ['2030-01-01T00:00:00z', Date.UTC(2030, 0, 1)],
      ['2030-01-01t00:00:00Z', Date.UTC(2030, 0, 1)],
      ['2030-01-01 00:00:00Z', Date.UTC(2030, 0, 1)],
      ['2030-01-01T00:00:00+00:00', Date.UTC(2030, 0, 1)],
      ['2030-01-01T00:00:00-00:00', Date.UTC(2030, 0, 1)],
      ['2030-01-01T05:30:00+05:30', Date.UTC(2030, 0, 1)],
      ['2030-01-31T12:00:00Z', Date.UTC(2030, 0, 31, 12)],
      ['2030-12-31T23:59:59Z', Date.UTC(2030, 11, 31, 23, 59, 59)],
      ['2030-01-01T00:00:00.5Z', Date.UTC(2030, 0, 1) + 500],
      ['2030-01-01T00:00:00.123Z', Date.UTC(2030, 0, 1) + 123],
      ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)], // leap year
    ];
    for (const [value, expected] of cases) {
      assert.equal(parseTimestamp(value, 'expires_at'), expected, value);
    }
  });

  test('anything else is invalid-expiry for the named field', () => {
    for (const value of [
      '',
      ' ',
      'tomorrow',
      'now',
      '2030-01-01', // a date without a time
      '2030-01-01T00:00:00', // no offset: local time is ambiguous
      '2030-01-01T00:00Z', // no seconds
      '2030-13-01T00:00:00Z', // month 13
      '2030-00-10T00:00:00Z', // month 0
      '2030-01-32T00:00:00Z', // day 32
      '2030-01-00T00:00:00Z', // day 0
      '2030-01-01T24:00:00Z', // hour 24
      '2030-01-01T00:60:00Z', // minute 60
      '2030-01-01T00:00:00+0200', // offset without colon
      '2030-01-01T00:00:00+24:00', // offset out of range
      '2030-01-01T00:00:00 Z',
      ' 2030-01-01T00:00:00Z',
      '2030-01-01T00:00:00Z ',
      '+002030-01-01T00:00:00Z', // expanded year
      '30-01-01T00:00:00Z',
      '2030/01/01T00:00:00Z',
      '1893456000000', // epoch ms
      'Tue, 01 Jan 2030 00:00:00 GMT', // RFC 7231
      '2030-01-01T00:00:00.Z',
      '2030-01-01T00:00:00.1234567890Z', // more than nanoseconds
    ]) {
      assertInvalidExpiry(() => parseTimestamp(value, 'expires_at'), 'expires_at', /RFC 3339/);
    }
  });

  test('calendar dates that do not exist are refused, not rolled over', () => {
    // Date.parse('2030-02-30T00:00:00Z') is 2030-03-02: a typo must not become another day.
    for (const value of [
      '2030-02-30T00:00:00Z',
      '2030-02-31T00:00:00Z',
      '2029-02-29T00:00:00Z', // not a leap year
      '2100-02-29T00:00:00Z', // not a leap year (century)
      '2030-04-31T00:00:00Z',
      '2030-06-31T00:00:00Z',
      '2030-09-31T00:00:00Z',
      '2030-11-31T00:00:00Z',
    ]) {
      assertInvalidExpiry(() => parseTimestamp(value, 'expires_at'), 'expires_at', /RFC 3339/);
    }
  });

  test('the error names whichever field was given', () => {
    assertInvalidExpiry(() => parseTimestamp('tomorrow', 'valid_until'), 'valid_until');
  });
});
