import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { HOUR_MS } from '../../src/domain/click-fold.js';
import { tallyOfEvent } from '../../src/domain/click-tally.js';
import type { ClickStore } from '../../src/ports/click-store.js';
import { batchOf } from '../support/click-batches.js';
import { tallyOfBatch } from '../support/click-tallies.js';

const HOUR = Date.UTC(2026, 5, 1, 12);

export function events(count: number, from = 0, overrides: Partial<ClickEvent> = {}): ClickEvent[] {
  return Array.from({ length: count }, (_, index) => ({
    instance: 'inst1',
    seq: from + index,
    linkId: 'link-a',
    code: 'abc1234',
    at: HOUR + (from + index) * 1000,
    country: index % 2 === 0 ? 'DE' : 'FR',
    device: 'mobile' as const,
    referrer: '',
    browser: 'safari' as const,
    os: 'ios' as const,
    city: '',
    ...overrides,
  }));
}

/**
 * The ClickStore port's contract (SPEC §4, §6), for every adapter: `openClicks` gives each
 * test a fresh, empty click store and cleans it up after the test.
 */
export function runClickStoreContract(
  name: string,
  openClicks: (t: TestContext) => Promise<ClickStore>,
): void {
  describe(`ClickStore contract: ${name}`, () => {
    test('folds into hourly buckets; summarize, totals and freshness read them back', async (t) => {
      const store = { clicks: await openClicks(t) };
      assert.equal(await store.clicks.freshness(), null);
      await store.clicks.fold(
        [
          tallyOfBatch(
            batchOf([...events(4), ...events(2, 4, { at: HOUR + HOUR_MS, referrer: 'x.example' })]),
          ),
        ],
        50,
      );
      const summary = await store.clicks.summarize('link-a', HOUR, HOUR + 2 * HOUR_MS);
      assert.deepEqual(summary.hours, [
        { hour: HOUR, clicks: 4, botClicks: 0 },
        { hour: HOUR + HOUR_MS, clicks: 2, botClicks: 0 },
      ]);
      assert.deepEqual(summary.countries, [
        { value: 'DE', clicks: 3 },
        { value: 'FR', clicks: 3 },
      ]);
      assert.deepEqual(summary.devices, [{ value: 'mobile', clicks: 6 }]);
      assert.deepEqual(summary.referrers, [
        { value: '', clicks: 4 },
        { value: 'x.example', clicks: 2 },
      ]);
      const firstHourOnly = await store.clicks.summarize('link-a', HOUR, HOUR + HOUR_MS);
      assert.deepEqual(firstHourOnly.hours, [{ hour: HOUR, clicks: 4, botClicks: 0 }]);
      assert.deepEqual(
        [...(await store.clicks.totals(['link-a', 'link-b']))],
        [
          ['link-a', { clicks: 6, botClicks: 0 }],
          ['link-b', { clicks: 0, botClicks: 0 }],
        ],
      );
      assert.equal(await store.clicks.freshness(), HOUR + HOUR_MS);
    });

    test('clicksBetween sums every link per hour; rankBusiest ranks a window, busiest reads it', async (t) => {
      const clicks = await openClicks(t);
      assert.equal(await clicks.clicksBetween(HOUR, HOUR + HOUR_MS), 0);
      assert.deepEqual(await clicks.busiest(), { rankedAt: null, links: [] });
      const fold = (batch: ClickEvent[]) => clicks.fold([tallyOfBatch(batchOf(batch))], 50);
      await fold([
        ...events(3, 0, { linkId: 'link-a' }),
        ...events(5, 3, { linkId: 'link-b' }),
        ...events(5, 8, { linkId: 'link-c' }),
        // The next hour: outside the first window, inside the second.
        ...events(7, 13, { linkId: 'link-a', at: HOUR + HOUR_MS }),
      ]);
      // A second fold adds to the hours the first wrote.
      await fold(events(2, 20, { linkId: 'link-c' }));
      assert.equal(await clicks.clicksBetween(HOUR, HOUR + HOUR_MS), 15);
      assert.equal(await clicks.clicksBetween(HOUR, HOUR + 2 * HOUR_MS), 22);
      assert.equal(await clicks.clicksBetween(HOUR + 2 * HOUR_MS, HOUR + 3 * HOUR_MS), 0);

      await clicks.rankBusiest(HOUR, HOUR + HOUR_MS, 2, HOUR + 1000);
      assert.deepEqual(await clicks.busiest(), {
        rankedAt: HOUR + 1000,
        links: [
          { linkId: 'link-c', clicks: 7 },
          { linkId: 'link-b', clicks: 5 },
        ],
      });
      // A new ranking replaces the last one whole.
      await clicks.rankBusiest(HOUR, HOUR + 2 * HOUR_MS, 5, HOUR + 2000);
      assert.deepEqual(await clicks.busiest(), {
        rankedAt: HOUR + 2000,
        links: [
          { linkId: 'link-a', clicks: 10 },
          { linkId: 'link-c', clicks: 7 },
          { linkId: 'link-b', clicks: 5 },
        ],
      });
      await clicks.rankBusiest(HOUR + 2 * HOUR_MS, HOUR + 3 * HOUR_MS, 5, HOUR + 3000);
      assert.deepEqual(await clicks.busiest(), { rankedAt: HOUR + 3000, links: [] });
    });

    test('the same batch folded twice, or overlapping batches, count each event once', async (t) => {
      const store = { clicks: await openClicks(t) };
      const batch = [tallyOfBatch(batchOf(events(100)))];
      assert.deepEqual(await store.clicks.fold(batch, 50), { counted: 100, duplicates: 0 });
      assert.deepEqual(await store.clicks.fold(batch, 50), { counted: 0, duplicates: 100 });
      // One event a tally (as JetStream delivers them): the overlap is skipped event by event.
      const overlapping = events(100, 50).map(tallyOfEvent);
      assert.deepEqual(await store.clicks.fold(overlapping, 50), { counted: 50, duplicates: 50 });
      assert.deepEqual((await store.clicks.totals(['link-a'])).get('link-a'), {
        clicks: 150,
        botClicks: 0,
      });
    });

    test("bots' clicks are counted apart: in bot totals only, in no breakdown or ranking", async (t) => {
      const clicks = await openClicks(t);
      const fold = (batch: ClickEvent[]) => clicks.fold([tallyOfBatch(batchOf(batch))], 50);
      await fold([
        ...events(3, 0, { linkId: 'link-a' }),
        ...events(4, 3, { linkId: 'link-a', device: 'bot', referrer: 'bot.example' }),
        ...events(5, 7, { linkId: 'link-b', device: 'bot', at: HOUR + HOUR_MS }),
        ...events(1, 12, { linkId: 'link-b' }),
      ]);
      // A second fold adds to both totals.
      await fold(events(2, 13, { linkId: 'link-a', device: 'bot' }));
      assert.deepEqual(
        [...(await clicks.totals(['link-a', 'link-b']))],
        [
          ['link-a', { clicks: 3, botClicks: 6 }],
          ['link-b', { clicks: 1, botClicks: 5 }],
        ],
      );
      const a = await clicks.summarize('link-a', HOUR, HOUR + 2 * HOUR_MS);
      assert.deepEqual(a.hours, [{ hour: HOUR, clicks: 3, botClicks: 6 }]);
      assert.deepEqual(a.devices, [{ value: 'mobile', clicks: 3 }]);
      assert.deepEqual(a.referrers, [{ value: '', clicks: 3 }]);
      assert.equal(
        a.countries.reduce((sum, row) => sum + row.clicks, 0),
        3,
      );
      const b = await clicks.summarize('link-b', HOUR, HOUR + 2 * HOUR_MS);
      // An hour of bots only is still an hour with clicks.
      assert.deepEqual(b.hours, [
        { hour: HOUR, clicks: 1, botClicks: 0 },
        { hour: HOUR + HOUR_MS, clicks: 0, botClicks: 5 },
      ]);
      assert.equal(await clicks.clicksBetween(HOUR, HOUR + 2 * HOUR_MS), 4);
      await clicks.rankBusiest(HOUR, HOUR + 2 * HOUR_MS, 5, HOUR + 1000);
      assert.deepEqual((await clicks.busiest()).links, [
        { linkId: 'link-a', clicks: 3 },
        { linkId: 'link-b', clicks: 1 },
      ]);
    });

    test('the referrer bound holds across folds', async (t) => {
      const store = { clicks: await openClicks(t) };
      for (let round = 0; round < 4; round++) {
        const batch = Array.from({ length: 10 }, (_, index) => ({
          ...events(1, round * 10 + index)[0]!,
          at: HOUR,
          referrer: `r${round * 10 + index}.example`,
        }));
        await store.clicks.fold([tallyOfBatch(batchOf(batch))], 15);
      }
      const summary = await store.clicks.summarize('link-a', HOUR, HOUR + HOUR_MS);
      assert.equal(summary.referrers.length, 16, '15 hosts and other');
      assert.deepEqual(summary.referrers[0], { value: 'other', clicks: 25 });
    });

    test('browser, os and city (issue 21): people only, cities bounded across folds', async (t) => {
      const clicks = await openClicks(t);
      const fold = (batch: ClickEvent[]) => clicks.fold([tallyOfBatch(batchOf(batch))], 3);
      await fold([
        ...events(3, 0, { city: 'Berlin' }),
        ...events(2, 3, { browser: 'chrome', os: 'android', city: 'Hamburg' }),
        ...events(4, 5, { device: 'bot', browser: 'other', os: 'other', city: 'Bremen' }),
        ...events(1, 9, { at: HOUR + HOUR_MS, browser: 'edge', os: 'windows' }),
      ]);
      // Two more cities in the first hour: one fits the bound of 3, the other is `other`.
      await fold([
        ...events(1, 10, { city: 'Munich' }),
        ...events(2, 11, { city: 'Cologne' }),
        ...events(1, 13, { city: 'Berlin' }),
      ]);
      const summary = await clicks.summarize('link-a', HOUR, HOUR + 2 * HOUR_MS);
      assert.deepEqual(summary.browsers, [
        { value: 'safari', clicks: 7 },
        { value: 'chrome', clicks: 2 },
        { value: 'edge', clicks: 1 },
      ]);
      assert.deepEqual(summary.oses, [
        { value: 'ios', clicks: 7 },
        { value: 'android', clicks: 2 },
        { value: 'windows', clicks: 1 },
      ]);
      assert.deepEqual(summary.cities, [
        { value: 'Berlin', clicks: 4 },
        { value: 'Hamburg', clicks: 2 },
        { value: 'other', clicks: 2 },
        { value: 'Munich', clicks: 1 },
      ]);
      const secondHour = await clicks.summarize('link-a', HOUR + HOUR_MS, HOUR + 2 * HOUR_MS);
      assert.deepEqual(secondHour.browsers, [{ value: 'edge', clicks: 1 }]);
      assert.deepEqual(secondHour.cities, []);
      // The facets leave click_hourly's counts as they were.
      assert.deepEqual(summary.hours, [
        { hour: HOUR, clicks: 9, botClicks: 4 },
        { hour: HOUR + HOUR_MS, clicks: 1, botClicks: 0 },
      ]);
      const none = await clicks.summarize('link-b', HOUR, HOUR + 2 * HOUR_MS);
      assert.deepEqual([none.browsers, none.oses, none.cities], [[], [], []]);
    });
  });
}
