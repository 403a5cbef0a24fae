import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { decodeTallyWire } from '../../src/wire/click-tally-wire.js';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { DESKTOP, IPHONE } from '../support/user-agents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('click analytics over HTTP (embedded)', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  let link: { id: string; code: string };
  before(async () => {
    server = await startTestServer({ HOP_COUNTRY_HEADER: 'cf-ipcountry' });
    aliceKey = await server.ownerKey('alice');
    bobKey = await server.ownerKey('bob');
    const created = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: { destination: 'https://example.com/landing?utm=1' },
    });
    link = created.json;
  });
  after(async () => {
    await server.close();
  });

  const analytics = (query = '', key?: string) =>
    server.request('GET', `/v1/links/${link.id}/analytics${query}`, {
      ...(key === undefined ? {} : { key }),
    });

  test('GET redirects are counted with their country, device and referrer host', async () => {
    const click = (headers: Record<string, string>) =>
      server.request('GET', `/${link.code}`, { key: null, headers });
    for (let index = 0; index < 3; index++) {
      const response = await click({
        'user-agent': IPHONE,
        referer: 'https://news.example.com/item?id=7&secret=1',
        'cf-ipcountry': 'de',
      });
      assert.equal(response.status, 302);
    }
    await click({ 'user-agent': DESKTOP, 'cf-ipcountry': 'XX' });
    server.clock.advance(60 * 60 * 1000);
    await click({ 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    // Not clicks (SPEC §3): HEAD, and prefetches as each browser announces them.
    assert.equal((await server.request('HEAD', `/${link.code}`, { key: null })).status, 302);
    for (const headers of [
      { 'sec-purpose': 'prefetch' },
      { purpose: 'prefetch' },
      { 'x-moz': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
    ]) {
      assert.equal((await click(headers)).status, 302);
    }
    await settleClicks(server);

    const response = await analytics('', aliceKey);
    assert.equal(response.status, 200);
    const body = response.json;
    // Googlebot gets the link's card (ADR 0121) and is counted apart (ADR 0094): in
    // bot_clicks, in no breakdown.
    assert.equal(body.total, 4);
    assert.equal(body.bot_clicks, 1);
    assert.equal(body.bucket, 'hour');
    assert.deepEqual(body.by_country, [
      { country: 'DE', clicks: 3 },
      { country: 'ZZ', clicks: 1 },
    ]);
    assert.deepEqual(body.by_device, [
      { device: 'mobile', clicks: 3 },
      { device: 'desktop', clicks: 1 },
    ]);
    assert.deepEqual(body.by_referrer, [
      { referrer: 'news.example.com', clicks: 3 },
      { referrer: '', clicks: 1 },
    ]);
    assert.ok(!response.text.includes('secret'), 'no referrer query is ever stored');
    // The default range is the week before now, hour by hour, empty hours included.
    assert.equal(body.series.length, 7 * 24 + 1);
    const nonEmpty = body.series.filter(
      (point: { clicks: number; bot_clicks: number }) => point.clicks + point.bot_clicks > 0,
    );
    assert.deepEqual(nonEmpty, [
      { start: '2026-06-01T12:00:00.000Z', clicks: 4, bot_clicks: 0 },
      { start: '2026-06-01T13:00:00.000Z', clicks: 0, bot_clicks: 1 },
    ]);
    assert.equal(body.freshness, '2026-06-01T13:00:00.000Z');

    const linkJson = await server.request('GET', `/v1/links/${link.id}`, { key: aliceKey });
    assert.equal(linkJson.json.clicks, 4);
    assert.equal(linkJson.json.bot_clicks, 1);
    const listed = await server.request('GET', '/v1/links', { key: aliceKey });
    assert.equal(listed.json.items[0].clicks, 4);
    assert.equal(listed.json.items[0].bot_clicks, 1);
  });

  test('by day, over a given range; from rounds down and to up', async () => {
    const response = await analytics(
      '?bucket=day&from=2026-05-30T17:00:00Z&to=2026-06-02T01:00:00%2B02:00',
      aliceKey,
    );
    assert.equal(response.status, 200);
    assert.equal(response.json.from, '2026-05-30T00:00:00.000Z');
    assert.equal(response.json.to, '2026-06-02T00:00:00.000Z');
    assert.deepEqual(response.json.series, [
      { start: '2026-05-30T00:00:00.000Z', clicks: 0, bot_clicks: 0 },
      { start: '2026-05-31T00:00:00.000Z', clicks: 0, bot_clicks: 0 },
      { start: '2026-06-01T00:00:00.000Z', clicks: 4, bot_clicks: 1 },
    ]);
    assert.equal(response.json.total, 4);
    assert.equal(response.json.bot_clicks, 1);
    const before = await analytics('?from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z', aliceKey);
    assert.equal(before.json.total, 0);
    assert.deepEqual(before.json.by_country, []);
  });

  test("another owner's link is not found, exactly like an unknown one; an admin sees it", async () => {
    assertProblem(await analytics('', bobKey), 404, 'not-found');
    assertProblem(
      await server.request('GET', '/v1/links/01JNOSUCHLINK0000000000000/analytics', {
        key: aliceKey,
      }),
      404,
      'not-found',
    );
    assert.equal((await analytics('')).status, 200, 'the admin key');
    assertProblem(await analytics('', null as unknown as string), 401, 'unauthorized');
  });

  test('a bad range or bucket is a 422 naming the field', async () => {
    for (const [query, field] of [
      ['?bucket=week', 'bucket'],
      ['?from=yesterday', 'from'],
      ['?to=2026-02-30T00:00:00Z', 'to'],
      ['?from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z', 'from'],
      ['?from=2026-06-01T00:00:00Z&to=2026-06-01T00:00:00Z', 'from'],
      ['?from=2020-01-01T00:00:00Z', 'from'],
      ['?bucket=day&from=2000-01-01T00:00:00Z', 'from'],
    ] as const) {
      const response = await analytics(query, aliceKey);
      assertProblem(response, 422, 'invalid-request');
      assert.equal(response.json.errors[0].field, field, query);
    }
  });
});

describe('HOP_ANALYTICS=off', () => {
  test('redirects record nothing and the counts stay zero', async () => {
    const server = await startTestServer({ HOP_ANALYTICS: 'off' });
    try {
      assert.equal(server.runtime.clicks, null);
      const created = await server.request('POST', '/v1/links', {
        body: { destination: 'https://example.com/' },
      });
      assert.equal(
        (await server.request('GET', `/${created.json.code}`, { key: null })).status,
        302,
      );
      const response = await server.request('GET', `/v1/links/${created.json.id}/analytics`);
      assert.equal(response.json.total, 0);
      assert.equal(response.json.freshness, null);
      const metrics = await server.request('GET', '/metrics', { key: null });
      assert.ok(!metrics.text.includes('hop_click_buffer_depth'));
    } finally {
      await server.close();
    }
  });

  test('embedded, a flush is one queue row of sums, however many HOP_CLICK_BATCH it spans', async () => {
    const server = await startTestServer({ HOP_CLICK_BATCH: '2' });
    try {
      const clicks = server.runtime.clicks;
      assert.ok(clicks !== null && clicks.aggregator !== null);
      const created = await server.request('POST', '/v1/links', {
        body: { destination: 'https://example.com/' },
      });
      for (let index = 0; index < 7; index++) {
        const response = await server.request('GET', `/${created.json.code}`, {
          key: null,
          headers: { 'user-agent': DESKTOP },
        });
        assert.equal(response.status, 302);
      }
      assert.equal(await clicks.flusher.flush(), true);
      const db = new Database(server.runtime.config.clicksDatabaseFile, { readonly: true });
      try {
        const rows = db.prepare('SELECT wire FROM click_queue').pluck().all() as Uint8Array[];
        assert.equal(rows.length, 1);
        const tally = decodeTallyWire(rows[0] ?? new Uint8Array(0));
        assert.ok(tally !== null);
        assert.equal(tally.toSeq - tally.fromSeq + 1, 7);
        assert.equal(tally.buckets.length, 1);
        assert.equal(tally.buckets[0]?.clicks, 7);
      } finally {
        db.close();
      }
      await clicks.aggregator.drain();
      const response = await server.request('GET', `/v1/links/${created.json.id}/analytics`);
      assert.equal(response.json.total, 7);
    } finally {
      await server.close();
    }
  });
});
