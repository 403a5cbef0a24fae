import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertProblem } from '../support/problem-assertions.js';
import { requestOnHost } from '../support/request-on-host.js';
import { settleClicks } from '../support/settle-clicks.js';
import { DESKTOP, IPHONE } from '../support/user-agents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const GOOGLEBOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const SHORT_HOST = 'go.analytics.test';

interface Made {
  id: string;
  code: string;
}

/**
 * `GET /v1/analytics` (issue 23, ADR 0126): clicks made by real redirects over loopback,
 * folded as `hop serve` folds them, summed across the caller's links. Runs on PostgreSQL
 * too (test/http/on-postgres.test.ts).
 */
describe("GET /v1/analytics: clicks across all the caller's links", () => {
  let server: TestServer;
  let aliceKey: string;
  let bobKey: string;
  let launch: Made;
  let docs: Made;
  let short: Made;
  let bobs: Made;

  before(async () => {
    server = await startTestServer({ HOP_COUNTRY_HEADER: 'cf-ipcountry' });
    aliceKey = await server.ownerKey('alice-all');
    bobKey = await server.ownerKey('bob-all');
    const domain = await server.request('POST', '/v1/domains', { body: { host: SHORT_HOST } });
    assert.equal(domain.status, 201, domain.text);
    const create = async (key: string, body: Record<string, unknown>): Promise<Made> => {
      const created = await server.request('POST', '/v1/links', { key, body });
      assert.equal(created.status, 201, created.text);
      return created.json as Made;
    };
    launch = await create(aliceKey, {
      destination: 'https://example.com/launch',
      title: 'Launch',
      tags: ['campaign', 'spring'],
    });
    docs = await create(aliceKey, { destination: 'https://example.com/docs', tags: ['docs'] });
    short = await create(aliceKey, {
      destination: 'https://example.com/short',
      domain: SHORT_HOST,
      tags: ['campaign'],
    });
    bobs = await create(bobKey, { destination: 'https://example.com/bob' });

    const click = async (code: string, headers: Record<string, string>) => {
      const response = await server.request('GET', `/${code}`, { key: null, headers });
      assert.equal(response.status, 302);
    };
    for (let i = 0; i < 3; i++) {
      await click(launch.code, {
        'user-agent': IPHONE,
        referer: 'https://news.example.com/item?id=1',
        'cf-ipcountry': 'DE',
      });
    }
    // A crawler gets the link's card (ADR 0121), and is counted apart (ADR 0094).
    const bot = await server.request('GET', `/${launch.code}`, {
      key: null,
      headers: { 'user-agent': GOOGLEBOT },
    });
    assert.equal(bot.status, 200);
    await click(docs.code, { 'user-agent': DESKTOP, 'cf-ipcountry': 'FR' });
    for (let i = 0; i < 2; i++) {
      const response = await requestOnHost(server.url, 'GET', `/${short.code}`, SHORT_HOST, {
        'user-agent': DESKTOP,
        'cf-ipcountry': 'US',
      });
      assert.equal(response.status, 302);
    }
    for (let i = 0; i < 5; i++) await click(bobs.code, { 'user-agent': DESKTOP });
    await settleClicks(server);
  });
  after(async () => {
    await server.close();
  });

  const analytics = (query: string, key: string | null = aliceKey) =>
    server.request('GET', `/v1/analytics${query}`, { key });
  const codesOf = (body: { top_links: { code: string; clicks: number }[] }) =>
    body.top_links.map((link) => [link.code, link.clicks]);

  describe('happy', () => {
    test("an owner's key sums its own links only: totals, series, top links, breakdowns", async () => {
      const response = await analytics('');
      assert.equal(response.status, 200, response.text);
      const body = response.json;
      assert.equal(body.total, 6);
      assert.equal(body.bot_clicks, 1, "the bot's click is counted apart (ADR 0094)");
      assert.equal(body.bucket, 'hour');
      assert.equal(body.series.length, 7 * 24 + 1, 'the last 7 days by hour, now included');
      assert.equal(
        body.series.reduce((sum: number, point: { clicks: number }) => sum + point.clicks, 0),
        6,
      );
      const now = body.series.find((point: { clicks: number }) => point.clicks > 0);
      assert.deepEqual(now, { start: '2026-06-01T12:00:00.000Z', clicks: 6, bot_clicks: 1 });
      assert.deepEqual(body.top_links, [
        {
          id: launch.id,
          code: launch.code,
          domain: 'hop.test',
          short_url: `http://hop.test/${launch.code}`,
          title: 'Launch',
          clicks: 3,
          bot_clicks: 1,
        },
        {
          id: short.id,
          code: short.code,
          domain: SHORT_HOST,
          short_url: `https://${SHORT_HOST}/${short.code}`,
          title: null,
          clicks: 2,
          bot_clicks: 0,
        },
        {
          id: docs.id,
          code: docs.code,
          domain: 'hop.test',
          short_url: `http://hop.test/${docs.code}`,
          title: null,
          clicks: 1,
          bot_clicks: 0,
        },
      ]);
      assert.deepEqual(body.by_country, [
        { country: 'DE', clicks: 3 },
        { country: 'US', clicks: 2 },
        { country: 'FR', clicks: 1 },
      ]);
      assert.deepEqual(body.by_device, [
        { device: 'desktop', clicks: 3 },
        { device: 'mobile', clicks: 3 },
      ]);
      assert.deepEqual(body.by_referrer, [
        { referrer: '', clicks: 3 },
        { referrer: 'news.example.com', clicks: 3 },
      ]);
      assert.deepEqual(body.by_browser, [
        { browser: 'chrome', clicks: 3 },
        { browser: 'safari', clicks: 3 },
      ]);
      assert.deepEqual(body.by_os, [
        { os: 'ios', clicks: 3 },
        { os: 'windows', clicks: 3 },
      ]);
      assert.equal(typeof body.freshness, 'string');
    });

    test('an admin sums every owner’s links; another owner sees only its own', async () => {
      const all = await analytics('', server.adminKey);
      assert.equal(all.status, 200, all.text);
      assert.equal(all.json.total, 11);
      assert.equal(all.json.top_links[0].code, bobs.code);
      const bob = await analytics('', bobKey);
      assert.equal(bob.json.total, 5);
      assert.deepEqual(codesOf(bob.json), [[bobs.code, 5]]);
    });

    test('filters: domain (the default by its host), tags (any, all), link ids', async () => {
      const onShort = await analytics(`?domain=${SHORT_HOST}`);
      assert.equal(onShort.status, 200, onShort.text);
      assert.deepEqual(codesOf(onShort.json), [[short.code, 2]]);
      const onDefault = await analytics('?domain=HOP.test');
      assert.deepEqual(codesOf(onDefault.json), [
        [launch.code, 3],
        [docs.code, 1],
      ]);
      const tagged = await analytics('?tag=campaign');
      assert.deepEqual(codesOf(tagged.json), [
        [launch.code, 3],
        [short.code, 2],
      ]);
      const either = await analytics('?tag=docs&tag=spring');
      assert.deepEqual(codesOf(either.json), [
        [launch.code, 3],
        [docs.code, 1],
      ]);
      const both = await analytics('?tag=campaign&tag=spring&tags_mode=all');
      assert.deepEqual(codesOf(both.json), [[launch.code, 3]]);
      const one = await analytics(`?link=${docs.id}`);
      assert.equal(one.json.total, 1);
      assert.deepEqual(codesOf(one.json), [[docs.code, 1]]);
      const two = await analytics(`?link=${docs.id}&link=${short.id}`);
      assert.equal(two.json.total, 3);
      const mixed = await analytics(`?domain=${SHORT_HOST}&tag=docs`);
      assert.equal(mixed.json.total, 0);
      assert.deepEqual(mixed.json.top_links, []);
    });

    test('a range by day, and a range with no clicks', async () => {
      const daily = await analytics(
        '?bucket=day&from=2026-05-25T00:00:00Z&to=2026-06-02T00:00:00Z',
      );
      assert.equal(daily.status, 200, daily.text);
      assert.equal(daily.json.series.length, 8);
      assert.deepEqual(daily.json.series.at(-1), {
        start: '2026-06-01T00:00:00.000Z',
        clicks: 6,
        bot_clicks: 1,
      });
      const before = await analytics('?from=2026-05-01T00:00:00Z&to=2026-05-02T00:00:00Z');
      assert.equal(before.json.total, 0);
      assert.equal(before.json.series.length, 24);
      assert.deepEqual(before.json.by_country, []);
    });
  });

  describe('security', () => {
    test('a key limited to a domain sums only that domain’s links', async () => {
      const issued = await server.request('POST', '/v1/keys', {
        body: { owner: 'alice-all', domains: [SHORT_HOST] },
      });
      assert.equal(issued.status, 201, issued.text);
      const limited = await analytics('', issued.json.key);
      assert.equal(limited.status, 200, limited.text);
      assert.deepEqual(codesOf(limited.json), [[short.code, 2]]);
      // The default domain is one this key cannot use: as if it did not exist (ADR 0118).
      assertProblem(await analytics('?domain=hop.test', issued.json.key), 422, 'invalid-request');
      // Nor can it name a link elsewhere.
      const elsewhere = await analytics(`?link=${launch.id}`, issued.json.key);
      assertProblem(elsewhere, 422, 'invalid-request');
      assert.equal(elsewhere.json.errors[0].field, 'link');
    });

    test('no key is 401; a key without analytics:read is 403 naming the scope', async () => {
      assertProblem(await analytics('', null), 401, 'unauthorized');
      const issued = await server.request('POST', '/v1/keys', {
        body: { owner: 'alice-all', scopes: ['links:read'] },
      });
      assert.equal(issued.status, 201, issued.text);
      const refused = await analytics('', issued.json.key);
      assertProblem(refused, 403, 'insufficient-scope');
      assert.match(refused.json.detail, /analytics:read/);
    });

    test("another owner's link is refused exactly like an unknown id", async () => {
      const theirs = await analytics(`?link=${bobs.id}`);
      const unknown = await analytics('?link=01J00000000000000000000000');
      for (const response of [theirs, unknown]) {
        assertProblem(response, 422, 'invalid-request');
        assert.equal(response.json.errors[0].field, 'link');
      }
      assert.equal(
        theirs.json.detail.replace(bobs.id, 'X'),
        unknown.json.detail.replace('01J00000000000000000000000', 'X'),
      );
    });
  });

  describe('errors', () => {
    const fieldOf = async (query: string, status = 422) => {
      const response = await analytics(query);
      assertProblem(response, status);
      return (response.json.errors ?? []).map((e: { field: string }) => e.field);
    };

    test('from after to', async () => {
      assert.deepEqual(await fieldOf('?from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z'), [
        'from',
      ]);
    });
    test('dates that are not RFC 3339', async () => {
      assert.deepEqual(await fieldOf('?from=yesterday'), ['from']);
      assert.deepEqual(await fieldOf('?to=2026-13-45'), ['to']);
    });
    test('an unknown bucket', async () => {
      assert.ok((await fieldOf('?bucket=week')).some((f: string) => f.includes('bucket')));
    });
    test('more buckets than the bound', async () => {
      assert.deepEqual(
        await fieldOf('?bucket=hour&from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z'),
        ['from'],
      );
    });
    test('an unknown domain, and a domain that is no host name', async () => {
      assert.deepEqual(await fieldOf('?domain=nowhere.example'), ['domain']);
      assert.deepEqual(await fieldOf('?domain=not%20a%20host!'), ['domain']);
    });
    test('a link that is no id', async () => {
      assert.deepEqual(await fieldOf('?link=nope'), ['link']);
    });
    test('a tags_mode that does not exist', async () => {
      assert.ok(
        (await fieldOf('?tag=a&tags_mode=some')).some((f: string) => f.includes('tags_mode')),
      );
    });
  });
});
