import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isRecountDue,
  MIN_RECOUNT_AGE_MS,
  RECOUNT_COST_FACTOR,
} from '../../src/services/stats/link-counts.js';

const counted = (durationMs: number) => ({
  total: 0,
  active: 0,
  disabled: 0,
  expired: 0,
  deleted: 0,
  countedAt: 1_000_000,
  durationMs,
});

test('a cheap census is counted again after a second, never sooner', () => {
  assert.equal(isRecountDue(counted(2), 1_000_000 + MIN_RECOUNT_AGE_MS - 1), false);
  assert.equal(isRecountDue(counted(2), 1_000_000 + MIN_RECOUNT_AGE_MS), true);
});

test('a costly census waits a hundred times what it took (1% of the store at most)', () => {
  const tenSeconds = counted(10_000);
  const due = 1_000_000 + RECOUNT_COST_FACTOR * 10_000;
  assert.equal(isRecountDue(tenSeconds, due - 1), false);
  assert.equal(isRecountDue(tenSeconds, due), true);
});
