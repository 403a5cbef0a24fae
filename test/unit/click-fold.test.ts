import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { clicksPerHour, HOUR_MS, linkHourKey, planFold } from '../../src/domain/click-fold.js';
import { tallyOfEvent } from '../../src/domain/click-tally.js';
import { tallyOfBatch } from '../support/click-tallies.js';
import { hasSeq, insertRange, overlaps } from '../../src/domain/seq-intervals.js';
import { batchOf } from '../support/click-batches.js';

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
    browser: 'firefox',
    os: 'linux',
    city: '',
    ...overrides,
  };
}

const EMPTY = { seen: new Map(), referrers: new Map() };

describe('sequence intervals', () => {
  test('ranges join their neighbours, in any order', () => {
    const set: [number, number][] = [];
    insertRange(set, 3, 5);
    insertRange(set, 10, 10);
    assert.deepEqual(set, [
      [3, 5],
      [10, 10],
    ]);
    insertRange(set, 6, 9);
    assert.deepEqual(set, [[3, 10]]);
    insertRange(set, 0, 1);
    insertRange(set, 12, 20);
    assert.deepEqual(set, [
      [0, 1],
      [3, 10],
      [12, 20],
    ]);
    insertRange(set, 11, 11);
    insertRange(set, 2, 2);
    assert.deepEqual(set, [[0, 20]]);
    assert.ok(hasSeq(set, 0) && hasSeq(set, 20) && !hasSeq(set, 21) && !hasSeq(set, -1));
    assert.ok(overlaps(set, 20, 30) && overlaps(set, -5, 0) && !overlaps(set, 21, 30));
  });

  test('a million clicks folded one by one, in order, stay one interval', () => {
    const set: [number, number][] = [];
    for (let seq = 0; seq < 1_000_000; seq++) insertRange(set, seq, seq);
    assert.deepEqual(set, [[0, 999_999]]);
  });
});

describe('tallies', () => {
  test('a batch sums to one row per link, hour and dimensions, with its run of ids', () => {
    const tally = tallyOfBatch(
      batchOf([
        event(0),
        event(1),
        event(2, { country: 'FR' }),
        event(3, { at: HOUR + HOUR_MS + 5 }),
        event(4, { linkId: 'link-2' }),
      ]),
    );
    assert.equal(tally.fromSeq, 0);
    assert.equal(tally.toSeq, 4);
    assert.equal(tally.oldestAt, HOUR);
    assert.equal(tally.newestAt, HOUR + HOUR_MS + 5);
    const rows = tally.buckets.map((b) => `${b.linkId} ${b.hour - HOUR} ${b.country} ${b.clicks}`);
    assert.deepEqual(rows.sort(), [
      `link-1 0 DE 2`,
      `link-1 0 FR 1`,
      `link-1 ${HOUR_MS} DE 1`,
      `link-2 0 DE 1`,
    ]);
  });
});

describe('planFold', () => {
  test('adds tallies to buckets and per-link totals, and remembers their ids', () => {
    const plan = planFold(
      [tallyOfBatch(batchOf([event(0), event(1), event(2, { linkId: 'link-2' })]))],
      EMPTY,
      50,
    );
    assert.equal(plan.counted, 3);
    assert.equal(plan.duplicates, 0);
    assert.deepEqual(
      [...plan.totals],
      [
        ['link-1', { clicks: 2, botClicks: 0 }],
        ['link-2', { clicks: 1, botClicks: 0 }],
      ],
    );
    assert.equal(plan.newestAt, HOUR + 2);
    assert.deepEqual(plan.seen.get('inst-a'), [[0, 2]]);
  });

  test("bots' clicks go to their own total and to no hour of the dashboard (ADR 0094)", () => {
    const plan = planFold(
      [
        tallyOfBatch(
          batchOf([event(0), event(1, { device: 'bot' }), event(2, { device: 'bot' }), event(3)]),
        ),
      ],
      EMPTY,
      50,
    );
    assert.equal(plan.counted, 4, 'every event is folded');
    assert.deepEqual([...plan.totals], [['link-1', { clicks: 2, botClicks: 2 }]]);
    assert.deepEqual(
      plan.buckets.map((bucket) => [bucket.device, bucket.clicks]).sort(),
      [
        ['bot', 2],
        [event(0).device, 2],
      ].sort(),
      "bots' buckets are kept, under their device class",
    );
    assert.deepEqual([...clicksPerHour(plan.buckets)], [[HOUR, 2]]);
  });

  test('a tally folded before, or twice in one fold, is counted once', () => {
    const plan = planFold(
      [
        tallyOfEvent(event(0)),
        tallyOfEvent(event(1)),
        tallyOfEvent(event(1)),
        tallyOfEvent(event(2)),
        tallyOfEvent(event(0, { instance: 'inst-b' })),
      ],
      { seen: new Map([['inst-a', [[0, 0]] as const]]), referrers: new Map() },
      50,
    );
    assert.equal(plan.counted, 3, 'inst-a 1 and 2, and inst-b 0');
    assert.equal(plan.duplicates, 2);
    assert.deepEqual(plan.seen.get('inst-a'), [[0, 2]]);
    assert.deepEqual(plan.seen.get('inst-b'), [[0, 0]]);
  });

  test('a batch redelivered whole is skipped whole', () => {
    const batch = tallyOfBatch(batchOf([event(5), event(6), event(7)]));
    const plan = planFold(
      [batch],
      { seen: new Map([['inst-a', [[0, 9]] as const]]), referrers: new Map() },
      50,
    );
    assert.equal(plan.counted, 0);
    assert.equal(plan.duplicates, 3);
    assert.equal(plan.buckets.length, 0);
    assert.equal(plan.newestAt, null);
  });

  test('referrer hosts are bounded per link and hour; the rest count as other', () => {
    const events = Array.from({ length: 10 }, (_, seq) =>
      event(seq, { referrer: `site${seq}.example` }),
    );
    const stored = new Map([[linkHourKey('link-1', HOUR), new Set(['site0.example', 'other'])]]);
    const plan = planFold(
      [tallyOfBatch(batchOf(events))],
      { seen: new Map(), referrers: stored },
      3,
    );
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

  test('browser, os and city are counted apart, people only; cities bounded like referrers', () => {
    const events = [
      ...Array.from({ length: 6 }, (_, seq) => event(seq, { city: `City ${seq}` })),
      event(6, { browser: 'chrome', os: 'android', city: 'City 0' }),
      event(7, { device: 'bot', browser: 'other', os: 'other', city: 'City 9' }),
      event(8, { city: '' }),
    ];
    const stored = new Map([[linkHourKey('link-1', HOUR), new Set(['City 5'])]]);
    const plan = planFold(
      [tallyOfBatch(batchOf(events))],
      { seen: new Map(), referrers: new Map(), cities: stored },
      3,
    );
    const facets = Object.fromEntries(
      plan.facets.map((f) => [`${f.facet}:${f.value}`, f.clicks] as const),
    );
    // City 5 was stored; City 0 and City 1 fit under the bound of 3; the bot is in none.
    assert.deepEqual(facets, {
      'agent:firefox/linux': 7,
      'agent:chrome/android': 1,
      'city:City 0': 2,
      'city:City 1': 1,
      'city:other': 3,
      'city:City 5': 1,
    });
    assert.ok(plan.facets.every((f) => f.linkId === 'link-1' && f.hour === HOUR));
    // click_hourly's rows are unchanged by the facets: one per country, device, referrer.
    assert.deepEqual(
      plan.buckets.map((b) => [b.device, b.clicks]),
      [
        ['desktop', 8],
        ['bot', 1],
      ],
    );
  });
});
