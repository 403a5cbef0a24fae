import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLink } from '../support/create-link.js';
import { settleClicks } from '../support/settle-clicks.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DESKTOP, IPHONE } from '../support/user-agents.js';

/** Issue 21: a click's country from its address, when no edge sends one (ADR 0109). */
describe('built-in geolocation', () => {
  describe('behind a trusted proxy, no country header', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ HOP_TRUST_PROXY: 'loopback' });
    });
    after(async () => {
      await server.close();
    });

    test('well-known addresses in X-Forwarded-For are counted in their countries', async () => {
      const link = await createLink(server, { destination: 'https://example.com/geo' });
      const visit = (address: string, userAgent = DESKTOP) =>
        server.request('GET', `/${link.code}`, {
          key: null,
          headers: { 'user-agent': userAgent, 'x-forwarded-for': address },
        });
      for (const address of [
        '8.8.8.8',
        '2001:4860:4860::8888',
        '193.99.144.80',
        '81.2.69.160',
        '133.242.0.1',
        '127.0.0.1',
      ]) {
        assert.equal((await visit(address)).status, 302, address);
      }
      // A client's own claim before the proxy's: the proxy's nearest untrusted address wins.
      assert.equal((await visit('81.2.69.160, 193.99.144.80', IPHONE)).status, 302);
      await settleClicks(server);

      const analytics = (await server.request('GET', `/v1/links/${link.id}/analytics`)).json;
      assert.equal(analytics.total, 7);
      assert.deepEqual(analytics.by_country, [
        { country: 'DE', clicks: 2 },
        { country: 'US', clicks: 2 },
        { country: 'GB', clicks: 1 },
        { country: 'JP', clicks: 1 },
        { country: 'ZZ', clicks: 1 },
      ]);
      assert.deepEqual(analytics.by_browser, [
        { browser: 'chrome', clicks: 6 },
        { browser: 'safari', clicks: 1 },
      ]);
      assert.deepEqual(analytics.by_os, [
        { os: 'windows', clicks: 6 },
        { os: 'ios', clicks: 1 },
      ]);
      assert.deepEqual(analytics.by_city, [], 'the bundled database names no cities');
    });

    test('the OpenAPI document describes the new breakdowns', async () => {
      const doc = (await server.request('GET', '/openapi.json', { key: null })).json;
      const schema =
        doc.paths['/v1/links/{id}/analytics'].get.responses['200'].content['application/json']
          .schema;
      for (const key of ['by_browser', 'by_os', 'by_city']) {
        assert.ok(schema.required.includes(key), key);
        assert.equal(schema.properties[key].type, 'array', key);
      }
    });
  });

  test('a country header, when configured, still wins over the address', async () => {
    const server = await startTestServer({
      HOP_TRUST_PROXY: 'loopback',
      HOP_COUNTRY_HEADER: 'cf-ipcountry',
    });
    try {
      const link = await createLink(server, { destination: 'https://example.com/edge' });
      for (const headers of [
        { 'cf-ipcountry': 'FR', 'x-forwarded-for': '8.8.8.8' },
        { 'x-forwarded-for': '8.8.8.8' },
      ]) {
        const response = await server.request('GET', `/${link.code}`, {
          key: null,
          headers: { 'user-agent': DESKTOP, ...headers },
        });
        assert.equal(response.status, 302);
      }
      await settleClicks(server);
      const analytics = (await server.request('GET', `/v1/links/${link.id}/analytics`)).json;
      assert.deepEqual(analytics.by_country, [
        { country: 'FR', clicks: 1 },
        { country: 'ZZ', clicks: 1 },
      ]);
    } finally {
      await server.close();
    }
  });
});
