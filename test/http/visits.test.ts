/**
 * Issue 23's visit log (ADR 0125) through a real hop on loopback: every counted click is
 * one visit and in one per-second click event, the API pages visits newest first, and
 * retention drops old ones. On SQLite here; test/http/visits-on-postgres.test.ts runs this
 * file again on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { secondOf } from '../../src/domain/click-fold.js';
import type { ClickEventRecord } from '../../src/ports/event-log.js';
import { trimVisits } from '../../src/services/lifecycle/trim-visits.js';
import { sendClicks } from '../support/click-load.js';
import { createLink } from '../support/create-link.js';
import { assertProblem } from '../support/problem-assertions.js';
import { settleClicks } from '../support/settle-clicks.js';
import { readUntil } from '../support/settled-events.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** A bot (isbot) that is no link crawler, so it gets the redirect, not a card (ADR 0121). */
const BOT = 'curl/8.4.0';

type Visit = { at: string; language: string | null; bot: boolean; browser: string };

/**
 * The link's click events, once they count `total` clicks, bots included. On PostgreSQL
 * an event is readable only when no older transaction in the shared cluster still runs
 * (ADR 0127): other test files' transactions may hold it back a moment.
 */
async function clickEventsAddingUpTo(
  server: TestServer,
  linkId: string,
  total: number,
): Promise<ClickEventRecord[]> {
  const mineOf = (events: readonly ClickEventRecord[]) => events.filter((e) => e.linkId === linkId);
  const events = await readUntil(
    server.runtime.store.clickEvents,
    '',
    (read) => mineOf(read).reduce((n, e) => n + e.clicks + e.botClicks, 0) >= total,
    `click events of ${total} clicks`,
  );
  return mineOf(events);
}

/**
 * Click events are written only while someone reads them (ADR 0131): a webhook taking
 * `link.clicked` does.
 */
async function readClicksByWebhook(server: TestServer): Promise<void> {
  const hook = await server.request('POST', '/v1/webhooks', {
    body: { url: 'https://example.com/hooks', events: ['link.clicked'] },
  });
  assert.equal(hook.status, 201, hook.text);
}

describe('the visit log', () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;

  before(async () => {
    server = await startTestServer({ HOP_VISIT_LOG: 'on' });
    aliceKey = await server.ownerKey('alice');
    bobKey = await server.ownerKey('bob');
  });
  after(() => server.close());

  /** Every visit of a link, page by page through the API. */
  const allVisits = async (id: string, query = '', key = server.adminKey) => {
    const visits: Visit[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const extra: string = cursor === null ? '' : `&cursor=${cursor}`;
      const response = await server.request(
        'GET',
        `/v1/links/${id}/visits?limit=1000${query}${extra}`,
        { key },
      );
      assert.equal(response.status, 200, response.text);
      visits.push(...(response.json.visits as Visit[]));
      cursor = response.json.next_cursor as string | null;
      pages++;
      assert.ok(pages < 100, 'the cursor ends');
    } while (cursor !== null);
    return visits;
  };

  test('after 20,000 redirects a link has exactly as many visits as counted clicks, and its click events say so per second', async () => {
    const link = await createLink(server, { destination: 'https://example.com/load' });
    await readClicksByWebhook(server);
    const url = `${server.url}/${link.code}`;
    const runs = [
      {
        count: 12_000,
        headers: { 'user-agent': CHROME, 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' },
      },
      { count: 6_000, headers: { 'user-agent': CHROME } },
      { count: 2_000, headers: { 'user-agent': BOT, 'accept-language': 'en-US' } },
    ];
    const firstSecond = secondOf(server.clock.now());
    for (const [index, run] of runs.entries()) {
      const result = await sendClicks(url, run.count, 16, run.headers);
      assert.equal(result.redirected, run.count);
      // Each run in a second of its own: the click events are per second.
      if (index < runs.length - 1) server.clock.advance(1_000);
      await settleClicks(server);
    }
    const counted = await server.runtime.store.clicks.totals([link.id]);
    const totals = counted.get(link.id);
    assert.deepEqual(totals, { clicks: 18_000, botClicks: 2_000 });

    const visits = await allVisits(link.id);
    assert.equal(visits.length, 20_000, 'visits equal counted clicks');
    assert.equal(visits.filter((v) => v.bot).length, 2_000);
    assert.equal(visits.filter((v) => v.language === 'fr').length, 12_000);
    assert.equal(visits.filter((v) => v.language === null).length, 6_000);
    assert.equal(visits.filter((v) => v.browser === 'chrome').length, 18_000);
    // Newest first: the bots' second, then the 6,000, then the 12,000.
    const times = visits.map((v) => Date.parse(v.at));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    assert.equal(times[0], firstSecond + 2_000);
    assert.equal(times.at(-1), firstSecond);

    const mine = await clickEventsAddingUpTo(server, link.id, 20_000);
    const perSecond = new Map<number, { clicks: number; bots: number; fr: number }>();
    for (const event of mine) {
      const sums = perSecond.get(event.second) ?? { clicks: 0, bots: 0, fr: 0 };
      sums.clicks += event.clicks;
      sums.bots += event.botClicks;
      sums.fr += event.languages['fr'] ?? 0;
      perSecond.set(event.second, sums);
    }
    assert.deepEqual(
      [...perSecond].sort(([a], [b]) => a - b),
      [
        [firstSecond, { clicks: 12_000, bots: 0, fr: 12_000 }],
        [firstSecond + 1_000, { clicks: 6_000, bots: 0, fr: 0 }],
        [firstSecond + 2_000, { clicks: 0, bots: 2_000, fr: 0 }],
      ],
    );
    assert.equal(new Set(mine.map((e) => e.position)).size, mine.length, 'one position each');
    const { clickEvents } = server.runtime.store;
    assert.deepEqual(await clickEvents.after(await clickEvents.latest(), 100), []);
  });

  test('pages newest first with a cursor, within from/to', async () => {
    const link = await createLink(server, { destination: 'https://example.com/pages' });
    const start = server.clock.now();
    for (let index = 0; index < 5; index++) {
      await sendClicks(`${server.url}/${link.code}`, 1, 1, {
        'accept-language': index % 2 === 0 ? 'de' : 'it',
      });
      server.clock.advance(60_000);
    }
    await settleClicks(server);
    const first = await server.request('GET', `/v1/links/${link.id}/visits?limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      first.json.visits.map((v: Visit) => [Date.parse(v.at), v.language]),
      [
        [secondOf(start + 4 * 60_000), 'de'],
        [secondOf(start + 3 * 60_000), 'it'],
      ],
    );
    assert.equal(typeof first.json.next_cursor, 'string');
    const second = await server.request(
      'GET',
      `/v1/links/${link.code}/visits?limit=2&cursor=${first.json.next_cursor}`,
    );
    assert.deepEqual(
      second.json.visits.map((v: Visit) => Date.parse(v.at)),
      [secondOf(start + 2 * 60_000), secondOf(start + 60_000)],
    );
    const last = await server.request(
      'GET',
      `/v1/links/${link.id}/visits?limit=2&cursor=${second.json.next_cursor}`,
    );
    assert.equal(last.json.visits.length, 1);
    assert.equal(last.json.next_cursor, null);
    const from = new Date(start + 60_000).toISOString();
    const to = new Date(start + 3 * 60_000).toISOString();
    const ranged = await allVisits(link.id, `&from=${from}&to=${to}`);
    assert.equal(ranged.length, 2);
    const visit = first.json.visits[0];
    assert.deepEqual(Object.keys(visit).sort(), [
      'at',
      'bot',
      'browser',
      'city',
      'country',
      'device',
      'language',
      'os',
      'referrer_host',
    ]);
  });

  test('bad from, to, cursor or limit is a 422 naming the field', async () => {
    const link = await createLink(server, { destination: 'https://example.com/bad' });
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['to=2026-13-01T00:00:00Z', 'to'],
      ['from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z', 'from'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('v1.x.y').toString('base64url')}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
    ] as const) {
      const response = await server.request('GET', `/v1/links/${link.id}/visits?${query}`);
      assertProblem(response, 422, 'invalid-request');
      assert.deepEqual(
        response.json.errors.map((e: { field: string }) => e.field),
        [field],
        query,
      );
    }
    const tooLong = await server.request(
      'GET',
      `/v1/links/${link.id}/visits?cursor=${'a'.repeat(65)}`,
    );
    assert.ok(tooLong.status === 400 || tooLong.status === 422, tooLong.text);
    assert.equal(tooLong.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  });

  test("another owner's link is 404 like an unknown one; a key without analytics:read is 403", async () => {
    const mine = await server.request('POST', '/v1/links', {
      key: aliceKey,
      body: { destination: 'https://example.com/alice' },
    });
    assert.equal(mine.status, 201, mine.text);
    const id = mine.json.id as string;
    assert.equal(
      (await server.request('GET', `/v1/links/${id}/visits`, { key: aliceKey })).status,
      200,
    );
    assertProblem(
      await server.request('GET', `/v1/links/${id}/visits`, { key: bobKey }),
      404,
      'not-found',
    );
    assertProblem(await server.request('GET', '/v1/links/nosuchlink/visits'), 404, 'not-found');
    assertProblem(await server.request('GET', `/v1/links/${id}/visits`, { key: null }), 401);
    const narrow = await server.request('POST', '/v1/keys', {
      body: { owner: 'alice', scopes: ['links:read'] },
    });
    assert.equal(narrow.status, 201, narrow.text);
    assertProblem(
      await server.request('GET', `/v1/links/${id}/visits`, { key: narrow.json.key as string }),
      403,
      'insufficient-scope',
    );
  });

  test('retention removes visits older than HOP_VISIT_RETENTION, and keeps the rest', async () => {
    // The day partitions ahead (PostgreSQL; nothing on SQLite): these clicks land in one.
    await server.runtime.store.visits.prepare(server.clock.now());
    const link = await createLink(server, { destination: 'https://example.com/old' });
    await sendClicks(`${server.url}/${link.code}`, 30, 4);
    await settleClicks(server);
    server.clock.advance(10 * 86_400_000);
    await sendClicks(`${server.url}/${link.code}`, 20, 4);
    await settleClicks(server);
    const query = `&from=${new Date(server.clock.now() - 30 * 86_400_000).toISOString()}`;
    assert.equal((await allVisits(link.id, query)).length, 50);
    // Retention of 5 days, 10 days later: the first 30 go.
    const report = await trimVisits(
      server.runtime.store.visits,
      server.clock.now(),
      5 * 86_400_000,
    );
    assert.ok(report.removed > 0);
    assert.equal(report.more, false);
    assert.equal((await allVisits(link.id, query)).length, 20);
    const again = await trimVisits(server.runtime.store.visits, server.clock.now(), 5 * 86_400_000);
    assert.equal(again.removed, 0);
  });
});

describe('with HOP_VISIT_LOG=off', () => {
  test('clicks are counted and their click events written, but no visit', async (t) => {
    const server = await startTestServer({ HOP_VISIT_LOG: 'off' });
    t.after(() => server.close());
    const link = await createLink(server, { destination: 'https://example.com/off' });
    await readClicksByWebhook(server);
    await sendClicks(`${server.url}/${link.code}`, 25, 4);
    await settleClicks(server);
    assert.deepEqual((await server.runtime.store.clicks.totals([link.id])).get(link.id), {
      clicks: 25,
      botClicks: 0,
    });
    const response = await server.request('GET', `/v1/links/${link.id}/visits`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.json.visits, []);
    const events = await clickEventsAddingUpTo(server, link.id, 25);
    assert.equal(
      events.reduce((n, e) => n + e.clicks, 0),
      25,
    );
  });
});
