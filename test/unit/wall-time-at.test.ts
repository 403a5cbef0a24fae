import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../../src/ports/clock.js';
import { wallTimeAt } from '../../src/main/wall-time-at.js';
import { ManualClock } from '../support/manual-clock.js';

test("the system clock's time at a performance.now() reading: whole ms, between Date.now() before and after", () => {
  const timeAt = wallTimeAt(systemClock);
  for (let round = 0; round < 3; round++) {
    const before = Date.now();
    const reading = performance.now();
    const at = timeAt(reading);
    const after = Date.now();
    assert.ok(Number.isInteger(at), `${at} is whole ms`);
    // Date.now() truncates, so the offset it gives may be up to a millisecond early.
    assert.ok(at >= before - 1 && at <= after, `${before - 1} <= ${at} <= ${after}`);
  }
});

test('a reading taken earlier gives the earlier time; one a second later re-reads the offset', () => {
  const timeAt = wallTimeAt(systemClock);
  const before = Date.now();
  const now = performance.now();
  const earlier = timeAt(now) - timeAt(now - 250);
  assert.ok(earlier >= 249 && earlier <= 251, `${earlier} ms apart`);
  const later = timeAt(now + 1500);
  const after = Date.now();
  assert.ok(
    later >= before + 1499 && later <= after + 1500,
    `${later} in ${before + 1499}..${after + 1500}`,
  );
});

test('any other clock answers its own now, whatever the reading: tests move theirs by hand', () => {
  const clock = new ManualClock(Date.parse('2026-06-01T12:00:00Z'));
  const timeAt = wallTimeAt(clock);
  assert.equal(timeAt(performance.now()), Date.parse('2026-06-01T12:00:00Z'));
  clock.advance(60_000);
  assert.equal(timeAt(0), Date.parse('2026-06-01T12:01:00Z'));
});
