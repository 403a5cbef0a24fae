import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { HOUR_MS, linkHourKey, planFold } from '../../src/domain/click-fold.js';
import { addSeqs, hasSeq } from '../../src/domain/seq-intervals.js';

const HOUR = Date.UTC(2026, 11, 3, 10);

function event(seq: number, overrides: Partial<ClickEvent> = {}): ClickEvent {
  return {
    instance: 'inst-a',
    seq,
    linkId: 'link-1',
    code: 'abc1234',
    at: HOUR + seq,
    country: 'DE',
    device: 'desktop',
    referrer: 'news.example.com',
    ...overrides,
  };
}

const EMPTY = { seen: new Map(), referrers: new Map() };

describe('sequence intervals', () => {
  test('merge runs, out of order and duplicated, into the fewest intervals', () => {
    let set = addSeqs([], [5, 3, 4, 4, 10]);
    assert.deepEqual(set, [
      [3, 5],
      [10, 10],
    ]);
    set = addSeqs(set, [6, 7, 8, 9]);
    assert.deepEqual(set, [[3, 10]]);
    set = addSeqs(set, [0, 1]);
    assert.deepEqual(set, [
      [0, 1],
      [3, 10],
    ]);
    assert.ok(hasSeq(set, 0) && hasSeq(set, 1) && hasSeq(set, 7) && hasSeq(set, 10));
    assert.ok(!hasSeq(set, 2) && !hasSeq(set, 11) && !hasSeq(set, -1));
  });

  test('a million events in order stay one interval', () => {
    const seqs = Array.from({ length: 1_000_000 }, (_, index) => index);
    assert.deepEqual(addSeqs([], seqs), [[0, 999_999]]);
  });
});

describe('planFold', () => {
  test('sums clicks per link, hour and dimensions, and per link in all', () => {
    const events = [
      event(0),
      event(1),
      event(2, { country: 'FR' }),
      event(3, { at: HOUR + HOUR_MS + 5 }),
      event(4, { linkId: 'link-2' }),
    ];
    const plan = planFold(events, EMPTY, 50);
    assert.equal(plan.counted, 5);
    assert.equal(plan.duplicates, 0);
    const rows = plan.buckets.map((b) => `${b.linkId} ${b.hour - HOUR} ${b.country} ${b.clicks}`);
    assert.deepEqual(rows.sort(), [
      `link-1 0 DE 2`,
      `link-1 0 FR 1`,
      `link-1 ${HOUR_MS} DE 1`,
      `link-2 0 DE 1`,
    ]);
    assert.deepEqual(
      [...plan.totals],
      [
        ['link-1', 4],
        ['link-2', 1],
      ],
    );
    assert.equal(plan.newestAt, HOUR + HOUR_MS + 5);
    assert.deepEqual(plan.seen.get('inst-a'), [[0, 4]]);
  });

  test('an event folded before, or twice in one batch, is counted once', () => {
    const plan = planFold(
      [event(0), event(1), event(1), event(2), event(0, { instance: 'inst-b' })],
      { seen: new Map([['inst-a', [[0, 0]] as const]]), referrers: new Map() },
      50,
    );
    assert.equal(plan.counted, 3, 'inst-a 1 and 2, and inst-b 0');
    assert.equal(plan.duplicates, 2);
    assert.deepEqual(plan.seen.get('inst-a'), [[0, 2]]);
    assert.deepEqual(plan.seen.get('inst-b'), [[0, 0]]);
  });

  test('a batch of nothing but duplicates changes nothing', () => {
    const seen = new Map([['inst-a', [[0, 9]] as const]]);
    const plan = planFold([event(3), event(9)], { seen, referrers: new Map() }, 50);
    assert.equal(plan.counted, 0);
    assert.equal(plan.buckets.length, 0);
    assert.equal(plan.newestAt, null);
    assert.equal(plan.seen.size, 0);
  });

  test('referrer hosts are bounded per link and hour; the rest count as other', () => {
    const events = Array.from({ length: 10 }, (_, seq) =>
      event(seq, { referrer: `site${seq}.example` }),
    );
    const stored = new Map([[linkHourKey('link-1', HOUR), new Set(['site0.example', 'other'])]]);
    const plan = planFold(events, { seen: new Map(), referrers: stored }, 3);
    const byReferrer = new Map(plan.buckets.map((b) => [b.referrer, b.clicks]));
    // site0 was stored already; two more fit under the bound of 3; `other` is not counted.
    assert.deepEqual([...byReferrer.keys()].sort(), [
      'other',
      'site0.example',
      'site1.example',
      'site2.example',
    ]);
    assert.equal(byReferrer.get('other'), 7);
    assert.equal(plan.counted, 10);
  });
});
