import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Registry } from 'prom-client';
import { LeanHistogram } from '../../src/observability/lean-histogram.js';
import { quantileMs, RecentRedirectsWindow } from '../../src/observability/recent-redirects.js';

/** The dashboard's live redirect rate and p99 (ADR 0068), from the redirect histogram. */

/** Seconds, as the histogram keeps them: buckets (0, 5 ms], (5, 10], (10, 25], (25, 50], +Inf. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05] as const;

/** Per-bucket counts (not cumulative), +Inf last, and their total. */
function counts(...perBucket: number[]): [Float64Array, number] {
  assert.equal(perBucket.length, BOUNDS.length + 1);
  return [Float64Array.from(perBucket), perBucket.reduce((sum, n) => sum + n, 0)];
}

function p(q: number, ...perBucket: number[]): number {
  const [buckets, total] = counts(...perBucket);
  return quantileMs(buckets, BOUNDS, total, q);
}

function assertClose(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `expected ${expected}, got ${actual}`);
}

function histogram(outcomes: readonly string[] = ['hit', 'miss']): LeanHistogram<string> {
  return new LeanHistogram<string>({
    name: 'test_redirect_duration_seconds',
    help: 'test',
    label: 'outcome',
    values: outcomes,
    bounds: BOUNDS,
    registry: new Registry(),
  });
}

function windowOver(
  t: TestContext,
  lean: LeanHistogram<string>,
  outcomes: ReadonlySet<string> = new Set(['hit', 'miss']),
): RecentRedirectsWindow<string> {
  const window = new RecentRedirectsWindow(lean, outcomes);
  t.after(() => {
    window.stop();
  });
  return window;
}

describe('quantileMs', () => {
  test('the first bucket interpolates from 0', () => {
    // rank 5 of 10, all in (0, 5 ms]: halfway → 2.5 ms; rank 9.9 → 4.95 ms
    assertClose(p(0.5, 10, 0, 0, 0, 0), 2.5);
    assertClose(p(0.99, 10, 0, 0, 0, 0), 4.95);
  });

  test('within a later bucket, from its lower bound', () => {
    // rank 99 of 100: 60 below 25 ms, 39 of the 40 in (25, 50] → 25 + 25 × 39/40 = 49.375
    assertClose(p(0.99, 10, 20, 30, 40, 0), 49.375);
    // rank 25 of 100: 15 of the 20 in (5, 10] → 5 + 5 × 15/20 = 8.75
    assertClose(p(0.25, 10, 20, 30, 40, 0), 8.75);
  });

  test('a rank exactly at a bucket edge answers that bucket’s upper bound', () => {
    // rank 50 of 100 is the last of the first bucket: 5 ms, not the next full bucket's 10 ms
    assertClose(p(0.5, 50, 0, 50, 0, 0), 5);
    // rank 75 of 100: the cumulative count reaches it at the end of (10, 25]
    assertClose(p(0.75, 25, 25, 25, 25, 0), 25);
  });

  test('empty buckets before the rank are skipped', () => {
    // rank 0.99 of 1 in (25, 50] → 25 + 25 × 0.99 = 49.75
    assertClose(p(0.99, 0, 0, 0, 1, 0), 49.75);
  });

  test('a single observation: interpolated within its bucket', () => {
    // rank 0.99 of 1 in (10, 25] → 10 + 15 × 0.99 = 24.85
    assertClose(p(0.99, 0, 0, 1, 0, 0), 24.85);
    assertClose(p(0.5, 0, 0, 1, 0, 0), 17.5);
  });

  test('everything in +Inf answers the largest finite bound', () => {
    assert.equal(p(0.99, 0, 0, 0, 0, 7), 50);
    assert.equal(p(0.5, 0, 0, 0, 0, 1), 50);
  });

  test('a rank that falls in +Inf answers the largest finite bound', () => {
    assert.equal(p(0.99, 1, 0, 0, 0, 99), 50);
    assert.equal(p(0.99, 98, 0, 0, 0, 2), 50);
  });
});

describe('LeanHistogram.addCountsInto', () => {
  test('every outcome added per bucket, not cumulative, +Inf last; the array is reset first', () => {
    const lean = histogram();
    for (const seconds of [0.001, 0.004, 0.007, 0.02, 1]) lean.observe('hit', seconds);
    for (const seconds of [0.005, 0.05, 0.06]) lean.observe('miss', seconds);
    lean.observe('unknown-outcome', 0.001);
    const into = Float64Array.from([9, 9, 9, 9, 9]);
    lean.addCountsInto(into);
    // ≤5 ms: 0.001, 0.004, 0.005 (a bound is inclusive); ≤10: 0.007; ≤25: 0.02; ≤50: 0.05
    assert.deepEqual([...into], [3, 1, 1, 1, 2]);
  });

  test('reset empties every bucket', () => {
    const lean = histogram();
    lean.observe('hit', 0.001);
    lean.observe('miss', 5);
    lean.reset();
    const into = new Float64Array(BOUNDS.length + 1);
    lean.addCountsInto(into);
    assert.deepEqual([...into], [0, 0, 0, 0, 0]);
  });
});

describe('RecentRedirectsWindow', () => {
  test('no observations: no rate, no p99', (t) => {
    const window = windowOver(t, histogram());
    const recent = window.read();
    assert.equal(recent.perSecond, 0);
    assert.equal(recent.p99Ms, null);
    assert.equal(typeof recent.windowSeconds, 'number');
    assert.ok(recent.windowSeconds >= 0);
  });

  test('observations since it started: a rate above 0 and the p99 in the right bucket', (t) => {
    const lean = histogram();
    const window = windowOver(t, lean);
    // 50 fast hits, 50 store reads in (10, 25 ms]: the p99 lies in (10, 25]
    for (let i = 0; i < 50; i++) {
      lean.observe('hit', 0.002);
      lean.observe('miss', 0.02);
    }
    const recent = window.read();
    assert.ok(recent.perSecond > 0, `perSecond ${recent.perSecond}`);
    assert.ok(recent.p99Ms !== null);
    assert.ok(recent.p99Ms > 10 && recent.p99Ms <= 25, `p99 ${recent.p99Ms}`);
  });

  test('slow outliers beyond the last bound: the p99 is the largest bound', (t) => {
    const lean = histogram();
    const window = windowOver(t, lean);
    for (let i = 0; i < 90; i++) lean.observe('hit', 0.001);
    for (let i = 0; i < 10; i++) lean.observe('miss', 2);
    assert.equal(window.read().p99Ms, 50);
  });

  test('only the outcomes it is given count: 404s never move the redirect p99', (t) => {
    const lean = histogram();
    const window = windowOver(t, lean, new Set(['hit']));
    for (let i = 0; i < 100; i++) lean.observe('miss', 2);
    assert.deepEqual([window.read().perSecond, window.read().p99Ms], [0, null]);
    lean.observe('hit', 0.002);
    const recent = window.read();
    assert.ok(recent.perSecond > 0);
    assert.ok(recent.p99Ms !== null && recent.p99Ms <= 5, `p99 ${recent.p99Ms}`);
  });

  test('observations from before it started are not counted', (t) => {
    const lean = histogram();
    for (let i = 0; i < 100; i++) lean.observe('hit', 0.003);
    const window = windowOver(t, lean);
    const recent = window.read();
    assert.equal(recent.perSecond, 0);
    assert.equal(recent.p99Ms, null);

    lean.observe('hit', 0.03);
    const later = window.read();
    assert.ok(later.perSecond > 0);
    // One observation in (25, 50 ms], whatever came before the window
    assertClose(later.p99Ms ?? Number.NaN, 25 + 25 * 0.99);
  });

  test('read does not consume: two reads see the same observations', (t) => {
    const lean = histogram();
    const window = windowOver(t, lean);
    lean.observe('hit', 0.007);
    const first = window.read();
    const second = window.read();
    assert.equal(first.p99Ms, second.p99Ms);
    assert.ok(second.perSecond > 0);
  });
});
