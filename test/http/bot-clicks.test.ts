import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLink } from '../support/create-link.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DESKTOP, IPHONE, UNFURLERS } from '../support/user-agents.js';

describe("bots' clicks, counted apart (ADR 0094)", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  test('unfurlers get the card (ADR 0121), counted in bot_clicks and never in clicks', async () => {
    const link = await createLink(server, { destination: 'https://example.com/shared' });
    const visit = (userAgent: string) =>
      server.request('GET', `/${link.code}`, { key: null, headers: { 'user-agent': userAgent } });
    const person = await visit(DESKTOP);
    assert.equal(person.status, 302);
    assert.equal((await visit(IPHONE)).status, 302);
    for (const unfurler of UNFURLERS) {
      const response = await visit(unfurler);
      assert.equal(response.status, 200, unfurler);
      assert.ok(response.text.includes('<meta property="og:url"'), unfurler);
    }
    // A script's client (fetch's own user agent) is a bot too, as isbot says.
    assert.equal((await server.request('GET', `/${link.code}`, { key: null })).status, 302);
    await settleClicks(server);

    const json = (await server.request('GET', `/v1/links/${link.id}`)).json;
    assert.equal(json.clicks, 2);
    assert.equal(json.bot_clicks, 4);
    const listed = (await server.request('GET', '/v1/links?limit=1')).json.items[0];
    assert.equal(listed.id, link.id);
    assert.equal(listed.clicks, 2);
    assert.equal(listed.bot_clicks, 4);

    const analytics = (await server.request('GET', `/v1/links/${link.id}/analytics`)).json;
    assert.equal(analytics.total, 2);
    assert.equal(analytics.bot_clicks, 4);
    const hour = analytics.series.filter(
      (point: { clicks: number; bot_clicks: number }) => point.clicks + point.bot_clicks > 0,
    );
    assert.deepEqual(hour, [{ start: '2026-06-01T12:00:00.000Z', clicks: 2, bot_clicks: 4 }]);
    assert.deepEqual(analytics.by_device, [
      { device: 'desktop', clicks: 1 },
      { device: 'mobile', clicks: 1 },
    ]);
    for (const breakdown of ['by_country', 'by_referrer']) {
      const rows = analytics[breakdown] as { clicks: number }[];
      assert.equal(
        rows.reduce((sum, row) => sum + row.clicks, 0),
        2,
        `${breakdown} sums to the total`,
      );
    }

    // The console's dashboard counts people too: today's clicks and the busiest links.
    const dashboard = (await server.request('GET', '/admin/api/dashboard')).json;
    assert.equal(dashboard.clicks.today, 2);
    assert.equal(dashboard.clicks.week, 2);
    const busiest = dashboard.busiest.find(
      (entry: { link: { id: string } }) => entry.link.id === link.id,
    );
    assert.equal(busiest.clicks, 2);
    assert.equal(busiest.link.bot_clicks, 4);
  });

  test('a link only bots have followed has 0 clicks', async () => {
    const link = await createLink(server, { destination: 'https://example.com/unfurled' });
    const response = await server.request('GET', `/${link.code}`, {
      key: null,
      headers: { 'user-agent': UNFURLERS[0] },
    });
    assert.equal(response.status, 200);
    await settleClicks(server);
    const json = (await server.request('GET', `/v1/links/${link.id}`)).json;
    assert.deepEqual([json.clicks, json.bot_clicks], [0, 1]);
  });

  test('the OpenAPI description names bot_clicks on links and in analytics', async () => {
    const text = (await server.request('GET', '/openapi.json', { key: null })).text;
    const spec = JSON.parse(text);
    const linkSchema =
      spec.paths['/v1/links/{id}'].get.responses['200'].content['application/json'].schema;
    assert.ok(linkSchema.required.includes('bot_clicks'));
    const analytics =
      spec.paths['/v1/links/{id}/analytics'].get.responses['200'].content['application/json']
        .schema;
    assert.ok(analytics.required.includes('bot_clicks'));
    assert.ok(analytics.properties.series.items.required.includes('bot_clicks'));
  });
});
