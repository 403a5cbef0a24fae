import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClickBucket } from '../../src/domain/click-fold.js';
import type { Link } from '../../src/domain/link.js';
import type { LinkSelection } from '../../src/ports/click-analytics-queries.js';
import type { Store } from '../../src/ports/store.js';
import {
  BASE_MS,
  HOUR_MS,
  makeLink,
  makeOwner,
  openFresh,
  type OpenStore,
} from './store-factories.js';

type Bucket = Omit<ClickBucket, 'linkId' | 'hour'> & { linkId: string; hour: number };

const people = (linkId: string, hour: number, clicks: number, extra: Partial<Bucket> = {}) => ({
  linkId,
  hour,
  country: 'DE',
  device: 'desktop' as const,
  referrer: '',
  browser: 'chrome' as const,
  os: 'windows' as const,
  city: '',
  clicks,
  ...extra,
});

let instance = 0;
async function fold(store: Store, buckets: readonly Bucket[]): Promise<void> {
  instance += 1;
  await store.clicks.fold(
    [
      {
        instance: `analytics-${instance}-${Math.random()}`,
        fromSeq: 1,
        toSeq: 1,
        oldestAt: BASE_MS,
        newestAt: BASE_MS,
        buckets,
      },
    ],
    50,
  );
}

async function insertAll(store: Store, links: readonly Link[]): Promise<void> {
  for (const link of links) {
    assert.equal((await store.links.insertLink(link)).kind, 'inserted');
  }
}

/** ClickAnalyticsQueries (issue 23, ADR 0126): clicks summed across the links chosen. */
export function clickAnalyticsContract(openStore: OpenStore): void {
  describe('ClickAnalyticsQueries.summarizeLinks', () => {
    const H0 = BASE_MS;
    const H1 = BASE_MS + HOUR_MS;
    async function setUp(store: Store) {
      const owner = makeOwner();
      const other = makeOwner();
      const a = makeLink({ owner, tags: ['work', 'launch'], title: 'Launch' });
      const b = makeLink({ owner, tags: ['work'], domain: 'go.example.com' });
      const c = makeLink({ owner, tags: [] });
      const gone = makeLink({ owner, state: 'deleted', deletedAt: 1 });
      const theirs = makeLink({ owner: other, tags: ['work'] });
      await insertAll(store, [a, b, c, gone, theirs]);
      await fold(store, [
        people(a.id, H0, 5, { country: 'FR', referrer: 'news.example' }),
        people(a.id, H1, 2, { device: 'mobile', browser: 'safari', os: 'ios' }),
        people(a.id, H1, 4, { device: 'bot', browser: 'other', os: 'other' }),
        people(b.id, H0, 3),
        people(c.id, H0 - HOUR_MS, 100),
        people(gone.id, H0, 50),
        people(theirs.id, H0, 70),
      ]);
      return { owner, other, a, b, c, theirs };
    }
    const sum = (store: Store, selection: LinkSelection, from = H0, to = H1 + HOUR_MS) =>
      store.clickAnalytics.summarizeLinks(selection, from, to, { topLinks: 10, maxValues: 50 });

    test("sums the owner's links in the range: hours, dimensions, bots apart, top links", async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, a, b } = await setUp(store);
      const summary = await sum(store, { owner });
      assert.deepEqual(summary.hours, [
        { hour: H0, clicks: 8, botClicks: 0 },
        { hour: H1, clicks: 2, botClicks: 4 },
      ]);
      assert.deepEqual(
        summary.countries,
        [
          { value: 'FR', clicks: 5 },
          { value: 'DE', clicks: 5 },
        ].sort((x, y) => y.clicks - x.clicks || (x.value < y.value ? -1 : 1)),
      );
      assert.deepEqual(summary.devices, [
        { value: 'desktop', clicks: 8 },
        { value: 'mobile', clicks: 2 },
      ]);
      assert.deepEqual(
        summary.referrers,
        [
          { value: 'news.example', clicks: 5 },
          { value: '', clicks: 5 },
        ].sort((x, y) => y.clicks - x.clicks || (x.value < y.value ? -1 : 1)),
      );
      // Bots are in no dimension (ADR 0094).
      assert.deepEqual(summary.browsers, [
        { value: 'chrome', clicks: 8 },
        { value: 'safari', clicks: 2 },
      ]);
      assert.deepEqual(summary.oses, [
        { value: 'windows', clicks: 8 },
        { value: 'ios', clicks: 2 },
      ]);
      assert.deepEqual(summary.topLinks, [
        { linkId: a.id, code: a.code, domain: '', title: 'Launch', clicks: 7, botClicks: 4 },
        {
          linkId: b.id,
          code: b.code,
          domain: 'go.example.com',
          title: null,
          clicks: 3,
          botClicks: 0,
        },
      ]);
    });

    test('every owner for an admin; deleted links left out', async (t) => {
      const store = await openFresh(t, openStore);
      const { theirs } = await setUp(store);
      const summary = await sum(store, {});
      assert.equal(
        summary.hours.reduce((n, h) => n + h.clicks, 0),
        10 + 70,
      );
      assert.equal(summary.topLinks[0]?.linkId, theirs.id);
    });

    test('filters by domain, tag (any and all), and link id', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, a, b, c } = await setUp(store);
      const clicks = async (selection: LinkSelection) =>
        (await sum(store, { owner, ...selection }, H0 - HOUR_MS)).topLinks.map((l) => [
          l.code,
          l.clicks,
        ]);
      assert.deepEqual(await clicks({ domains: ['go.example.com'] }), [[b.code, 3]]);
      assert.deepEqual(await clicks({ domains: [''] }), [
        [c.code, 100],
        [a.code, 7],
      ]);
      assert.deepEqual(await clicks({ domains: [] }), []);
      assert.deepEqual(await clicks({ tags: ['work'] }), [
        [a.code, 7],
        [b.code, 3],
      ]);
      assert.deepEqual(await clicks({ tags: ['launch', 'nothing'] }), [[a.code, 7]]);
      assert.deepEqual(await clicks({ tags: ['launch', 'work'], tagsMode: 'all' }), [[a.code, 7]]);
      assert.deepEqual(await clicks({ tags: ['launch', 'nothing'], tagsMode: 'all' }), []);
      assert.deepEqual(await clicks({ linkIds: [b.id, c.id] }), [
        [c.code, 100],
        [b.code, 3],
      ]);
    });

    test('the range is [from, to); limits bound the top links and each dimension', async (t) => {
      const store = await openFresh(t, openStore);
      const { owner, a } = await setUp(store);
      const later = await sum(store, { owner }, H1, H1 + HOUR_MS);
      assert.deepEqual(later.hours, [{ hour: H1, clicks: 2, botClicks: 4 }]);
      const few = await store.clickAnalytics.summarizeLinks({ owner }, H0, H1 + HOUR_MS, {
        topLinks: 1,
        maxValues: 1,
      });
      assert.deepEqual(
        few.topLinks.map((l) => l.linkId),
        [a.id],
      );
      assert.deepEqual(few.devices, [{ value: 'desktop', clicks: 8 }]);
      assert.equal(few.browsers.length, 1);
      const none = await sum(store, { owner: makeOwner() });
      assert.deepEqual(none, {
        hours: [],
        countries: [],
        devices: [],
        referrers: [],
        browsers: [],
        oses: [],
        topLinks: [],
      });
    });
  });
}
