import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { tallyOfEvent } from '../../src/domain/click-tally.js';
import type { ClickStore } from '../../src/ports/click-store.js';
import { isEventPosition, type ClickEventLog } from '../../src/ports/event-log.js';
import type { VisitLog, VisitPosition } from '../../src/ports/visit-log.js';
import { batchOf } from '../support/click-batches.js';
import { readSettled } from '../support/settled-events.js';
import { tallyOfBatch } from '../support/click-tallies.js';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 5, 20, 12);

export interface ClickLogs {
  readonly clicks: ClickStore;
  readonly clickEvents: ClickEventLog;
  readonly visits: VisitLog;
}

function clicksOf(
  count: number,
  from: number,
  at: (index: number) => number,
  overrides: Partial<ClickEvent> = {},
): ClickEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    instance: 'inst1',
    seq: from + index,
    linkId: 'link-a',
    code: 'abc1234',
    at: at(index),
    country: index % 3 === 0 ? 'ZZ' : 'DE',
    device: 'mobile' as const,
    referrer: index % 2 === 0 ? 'news.example' : '',
    browser: 'safari' as const,
    os: 'ios' as const,
    city: '',
    language: index % 2 === 0 ? 'fr' : '',
    ...overrides,
  }));
}

/** link-a's visits, the first 100, newest first. */
function visitsOfLinkA(logs: ClickLogs) {
  return logs.visits.page({
    linkId: 'link-a',
    fromMs: 0,
    toMs: NOW + DAY_MS,
    after: null,
    limit: 100,
  });
}

/**
 * Issue 23's logs of counted clicks (ADR 0125), for every engine: the per-second click
 * events (the ClickEventLog port) and the visit log, both written by ClickStore.fold.
 * `open` gives each test fresh, empty logs and cleans them up after it.
 */
export function runClickLogsContract(
  name: string,
  open: (t: TestContext) => Promise<ClickLogs>,
): void {
  describe(`click event log and visit log contract: ${name}`, () => {
    test('a fold writes one click event per link and second, read in order from a cursor', async (t) => {
      const logs = await open(t);
      assert.deepEqual(await logs.clickEvents.after(await logs.clickEvents.latest(), 10), []);
      assert.deepEqual(await logs.clickEvents.after('', 10), []);
      // Six clicks in second 0, four in second 1; a bot's in second 1; another link.
      const clicks = [
        ...clicksOf(6, 0, () => NOW + 100),
        ...clicksOf(4, 6, (i) => NOW + 1_000 + i),
        ...clicksOf(1, 10, () => NOW + 1_500, { device: 'bot' }),
        ...clicksOf(2, 11, () => NOW + 1_900, { linkId: 'link-b' }),
      ];
      const before = Date.now();
      const result = await logs.clicks.fold([tallyOfBatch(batchOf(clicks))], 50);
      assert.equal(result.counted, 13);
      const events = await readSettled(logs.clickEvents, '', 3);
      assert.equal(events.length, 3);
      assert.deepEqual(
        events.map((e) => [e.linkId, e.second, e.clicks, e.botClicks]).sort(),
        [
          ['link-a', NOW, 6, 0],
          ['link-a', NOW + 1_000, 4, 1],
          ['link-b', NOW + 1_000, 2, 0],
        ].sort(),
      );
      const first = events.find((e) => e.linkId === 'link-a' && e.second === NOW);
      assert.ok(first !== undefined);
      // Unknown values (ZZ, no referrer, no language) are in no count; bots in none at all.
      assert.deepEqual(first.countries, { DE: 4 });
      assert.deepEqual(first.referrers, { 'news.example': 3 });
      assert.deepEqual(first.languages, { fr: 3 });
      assert.deepEqual(first.devices, { mobile: 6 });
      assert.deepEqual(first.browsers, { safari: 6 });
      assert.deepEqual(first.oses, { ios: 6 });
      assert.ok(first.recordedAt >= before);
      assert.equal(new Set(events.map((e) => e.position)).size, events.length);
      for (const event of events) assert.ok(isEventPosition(event.position), event.position);
      // Nothing after the newest, nor after `latest` (which skips the past).
      assert.deepEqual(await logs.clickEvents.after(events.at(-1)?.position ?? '', 10), []);
      assert.deepEqual(await logs.clickEvents.after(await logs.clickEvents.latest(), 10), []);
      assert.deepEqual(
        (await logs.clickEvents.after(events[0]?.position ?? '', 10)).map((e) => e.position),
        events.slice(1).map((e) => e.position),
      );
    });

    test('a redelivered tally writes neither events nor visits again', async (t) => {
      const logs = await open(t);
      const tally = tallyOfBatch(batchOf(clicksOf(5, 0, () => NOW)));
      await logs.clicks.fold([tally], 50, { logVisits: true });
      const again = await logs.clicks.fold(
        [tally, tallyOfEvent(clicksOf(1, 2, () => NOW)[0]!)],
        50,
        {
          logVisits: true,
        },
      );
      assert.equal(again.counted, 0);
      assert.equal((await readSettled(logs.clickEvents, '', 1)).length, 1);
      const visits = await visitsOfLinkA(logs);
      assert.equal(visits.length, 5);
    });

    test('a fold told nobody reads click events writes none, and still counts and logs its visits', async (t) => {
      const logs = await open(t);
      const before = await logs.clickEvents.latest();
      const result = await logs.clicks.fold(
        [tallyOfBatch(batchOf(clicksOf(4, 0, () => NOW)))],
        50,
        {
          logVisits: true,
          logClickEvents: false,
        },
      );
      assert.equal(result.counted, 4);
      assert.equal((await logs.clicks.totals(['link-a'])).get('link-a')?.clicks, 4);
      const visits = await visitsOfLinkA(logs);
      assert.equal(visits.length, 4);
      assert.deepEqual(await logs.clickEvents.after(before, 10), [], 'no click event written');
      // Told again that someone reads them, the next fold writes its own.
      await logs.clicks.fold([tallyOfBatch(batchOf(clicksOf(2, 4, () => NOW + 1_000)))], 50, {
        logClickEvents: true,
      });
      // Read once the later fold's event is: an event of the first fold would come before it.
      const events = await readSettled(logs.clickEvents, before, 1);
      assert.deepEqual(
        events.map((e) => [e.second, e.clicks]),
        [[NOW + 1_000, 2]],
      );
    });

    test('forgetBefore deletes events recorded before a time, at most limit at once', async (t) => {
      const logs = await open(t);
      for (let seq = 0; seq < 5; seq++) {
        await logs.clicks.fold([tallyOfEvent(clicksOf(1, seq, () => NOW + seq * 1_000)[0]!)], 50);
      }
      const latest = await logs.clickEvents.latest();
      assert.equal(await logs.clickEvents.forgetBefore(0, 10), 0);
      assert.equal(await logs.clickEvents.forgetBefore(Date.now() + 1, 3), 3);
      assert.equal((await readSettled(logs.clickEvents, '', 2)).length, 2);
      assert.equal(await logs.clickEvents.forgetBefore(Date.now() + 1, 3), 2);
      assert.equal(await logs.clickEvents.forgetBefore(Date.now() + 1, 3), 0);
      // A seq is never given again.
      await logs.clicks.fold([tallyOfEvent(clicksOf(1, 5, () => NOW)[0]!)], 50);
      assert.ok((await logs.clickEvents.latest()) > latest);
    });

    test('visits: one per counted click, newest first by (at, id), only with logVisits', async (t) => {
      const logs = await open(t);
      await logs.clicks.fold([tallyOfBatch(batchOf(clicksOf(3, 0, () => NOW)))], 50);
      const page = (after: VisitPosition | null, limit = 100) =>
        logs.visits.page({
          linkId: 'link-a',
          fromMs: NOW - DAY_MS,
          toMs: NOW + DAY_MS,
          after,
          limit,
        });
      assert.deepEqual(await page(null), [], 'the visit log was off');
      await logs.clicks.fold([tallyOfBatch(batchOf(clicksOf(4, 3, (i) => NOW + i * 1_000)))], 50, {
        logVisits: true,
      });
      const visits = await page(null);
      assert.deepEqual(
        visits.map((v) => v.at),
        [NOW + 3_000, NOW + 2_000, NOW + 1_000, NOW],
      );
      const newest = visits[0];
      assert.ok(newest !== undefined);
      assert.deepEqual(
        { ...newest, id: 0 },
        {
          id: 0,
          ordinal: 1,
          linkId: 'link-a',
          at: NOW + 3_000,
          country: null,
          city: null,
          device: 'mobile',
          os: 'ios',
          browser: 'safari',
          language: null,
          referrerHost: null,
          bot: false,
        },
      );
      const firstTwo = await page(null, 2);
      const rest = await page(firstTwo[1] ?? null, 10);
      assert.deepEqual(
        [...firstTwo, ...rest].map((v) => v.id),
        visits.map((v) => v.id),
      );
    });

    test('alike clicks of one second are one row of visits, paged one visit at a time', async (t) => {
      const logs = await open(t);
      // Five alike clicks in one second, then two in the next: two rows, seven visits.
      const alike = { country: 'DE', referrer: '', language: '' };
      await logs.clicks.fold(
        [
          tallyOfBatch(
            batchOf([
              ...clicksOf(5, 0, () => NOW, alike),
              ...clicksOf(2, 5, () => NOW + 1_000, alike),
            ]),
          ),
        ],
        50,
        { logVisits: true },
      );
      const page = (after: VisitPosition | null, limit: number) =>
        logs.visits.page({ linkId: 'link-a', fromMs: NOW, toMs: NOW + DAY_MS, after, limit });
      const all = await page(null, 100);
      assert.deepEqual(
        all.map((v) => [v.at, v.ordinal]),
        [
          [NOW + 1_000, 1],
          [NOW + 1_000, 2],
          [NOW, 1],
          [NOW, 2],
          [NOW, 3],
          [NOW, 4],
          [NOW, 5],
        ],
      );
      const paged = [];
      let after: VisitPosition | null = null;
      for (;;) {
        const next = await page(after, 3);
        paged.push(...next);
        const last = next.at(-1);
        if (next.length < 3 || last === undefined) break;
        after = last;
      }
      assert.deepEqual(paged, all);
      assert.deepEqual(await page(all.at(-1) ?? null, 3), []);
    });

    test('retention removes visits older than a time and keeps the rest, also across day partitions', async (t) => {
      const logs = await open(t);
      const old = NOW - 10 * DAY_MS;
      // Days made ahead for the old day (PostgreSQL: its partition), then its clicks.
      await logs.visits.prepare(old);
      await logs.clicks.fold([tallyOfBatch(batchOf(clicksOf(7, 0, () => old)))], 50, {
        logVisits: true,
      });
      // Today's clicks before today's partition exists: the safety net holds them...
      await logs.clicks.fold([tallyOfBatch(batchOf(clicksOf(3, 7, () => NOW)))], 50, {
        logVisits: true,
      });
      // ... and making it moves them in.
      await logs.visits.prepare(NOW);
      await logs.visits.prepare(NOW);
      const count = async () =>
        (
          await logs.visits.page({
            linkId: 'link-a',
            fromMs: 0,
            toMs: NOW + DAY_MS,
            after: null,
            limit: 100,
          })
        ).length;
      assert.equal(await count(), 10);
      let removed = 0;
      for (let round = 0; round < 10; round++) {
        const step = await logs.visits.forgetBefore(NOW - 5 * DAY_MS, 2);
        if (step === 0) break;
        removed += step;
      }
      assert.ok(removed > 0);
      assert.equal(await count(), 3);
    });
  });
}
