import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clientAtAddress } from '../support/client-at-address.js';
import { createLink } from '../support/create-link.js';
import { landing, visit } from '../support/smart-visits.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import {
  ANDROID_SAMSUNG,
  DESKTOP,
  IPAD,
  IPHONE,
  LINUX_FIREFOX,
  MAC_SAFARI,
  WINDOWS_EDGE,
} from '../support/user-agents.js';

/**
 * Issue 21's rules, from outside: each condition alone, all of them in one rule, the first
 * match winning, a rule's status code over the link's. Country only through
 * HOP_COUNTRY_HEADER (the lookup by address is tested where it lives).
 */

const FALLTHROUGH = 'https://example.com/everyone';
const HIT = 'https://example.com/matched';
const hit = `302 ${HIT}`;
const miss = `302 ${FALLTHROUGH}`;

describe('smart-link rules over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ HOP_COUNTRY_HEADER: 'cf-ipcountry' });
  });
  after(async () => {
    await server.close();
  });

  /** A link with one rule sending `when` to HIT, everyone else to FALLTHROUGH. */
  const oneRule = async (when: Record<string, unknown>) =>
    (await createLink(server, { destination: FALLTHROUGH, rules: [{ destination: HIT, when }] }))
      .code;

  test('device: mobile, tablet, desktop', async () => {
    const mobile = await oneRule({ device: ['mobile'] });
    assert.equal(await landing(server, mobile, { 'user-agent': IPHONE }), hit);
    assert.equal(await landing(server, mobile, { 'user-agent': ANDROID_SAMSUNG }), hit);
    assert.equal(await landing(server, mobile, { 'user-agent': IPAD }), miss);
    assert.equal(await landing(server, mobile, { 'user-agent': DESKTOP }), miss);
    const tablet = await oneRule({ device: ['tablet'] });
    assert.equal(await landing(server, tablet, { 'user-agent': IPAD }), hit);
    assert.equal(await landing(server, tablet, { 'user-agent': IPHONE }), miss);
    const desktop = await oneRule({ device: ['desktop'] });
    for (const agent of [DESKTOP, LINUX_FIREFOX, MAC_SAFARI]) {
      assert.equal(await landing(server, desktop, { 'user-agent': agent }), hit, agent);
    }
    assert.equal(await landing(server, desktop, { 'user-agent': IPHONE }), miss);
    // A visitor without a user agent is no device a rule names.
    assert.equal(await landing(server, desktop, { 'user-agent': '' }), miss);
    const either = await oneRule({ device: ['mobile', 'tablet'] });
    assert.equal(await landing(server, either, { 'user-agent': IPAD }), hit);
    assert.equal(await landing(server, either, { 'user-agent': IPHONE }), hit);
    assert.equal(await landing(server, either, { 'user-agent': DESKTOP }), miss);
  });

  /** For each [value, agent]: a rule naming the value sends that agent, and only it, to HIT. */
  const eachAgentAlone = async (key: 'os' | 'browser', cases: [string, string][]) => {
    for (const [value, agent] of cases) {
      const code = await oneRule({ [key]: [value] });
      for (const [, other] of cases) {
        const expected = other === agent ? hit : miss;
        assert.equal(await landing(server, code, { 'user-agent': other }), expected, value);
      }
    }
  };

  test('os', async () => {
    await eachAgentAlone('os', [
      ['ios', IPHONE],
      ['android', ANDROID_SAMSUNG],
      ['windows', DESKTOP],
      ['macos', MAC_SAFARI],
      ['linux', LINUX_FIREFOX],
    ]);
  });

  test('browser', async () => {
    await eachAgentAlone('browser', [
      ['chrome', DESKTOP],
      ['firefox', LINUX_FIREFOX],
      ['safari', MAC_SAFARI],
      ['edge', WINDOWS_EDGE],
      ['samsung', ANDROID_SAMSUNG],
    ]);
  });

  test('language: a prefix matches a region, q=0 never matches, * names none', async () => {
    const code = await oneRule({ language: ['de'] });
    const visitAs = (acceptLanguage: string) =>
      landing(server, code, { 'accept-language': acceptLanguage });
    assert.equal(await visitAs('de'), hit);
    assert.equal(await visitAs('de-AT'), hit);
    assert.equal(await visitAs('en-US,en;q=0.9,de-CH;q=0.5'), hit);
    assert.equal(await visitAs('en-US,de;q=0'), miss);
    assert.equal(await visitAs('de;q=0.000, en'), miss);
    assert.equal(await visitAs('deu'), miss);
    assert.equal(await visitAs('*'), miss);
    assert.equal(await landing(server, code), miss, 'no Accept-Language');
    const regional = await oneRule({ language: ['pt-BR'] });
    assert.equal(await landing(server, regional, { 'accept-language': 'pt-br' }), hit);
    assert.equal(await landing(server, regional, { 'accept-language': 'pt-PT' }), miss);
    assert.equal(await landing(server, regional, { 'accept-language': 'pt' }), miss);
  });

  test('country, from HOP_COUNTRY_HEADER', async () => {
    const code = await oneRule({ country: ['de', 'AT'] });
    assert.equal(await landing(server, code, { 'cf-ipcountry': 'DE' }), hit);
    assert.equal(await landing(server, code, { 'cf-ipcountry': 'at' }), hit);
    assert.equal(await landing(server, code, { 'cf-ipcountry': 'CH' }), miss);
    assert.equal(await landing(server, code, { 'cf-ipcountry': 'XX' }), miss);
    assert.equal(await landing(server, code), miss, 'no header, no country');
    // Another header is not the edge's: it says nothing.
    assert.equal(await landing(server, code, { 'x-country': 'DE' }), miss);
  });

  test('query: a value, or true for present with any value', async () => {
    const valued = await oneRule({ query: { ref: 'newsletter' } });
    assert.equal(await landing(server, `${valued}?ref=newsletter`), hit);
    assert.equal(await landing(server, `${valued}?x=1&ref=newsletter`), hit);
    assert.equal(await landing(server, `${valued}?ref=twitter`), miss);
    assert.equal(await landing(server, `${valued}?ref`), miss);
    assert.equal(await landing(server, valued), miss);
    const present = await oneRule({ query: { beta: true } });
    assert.equal(await landing(server, `${present}?beta`), hit);
    assert.equal(await landing(server, `${present}?beta=1`), hit);
    assert.equal(await landing(server, `${present}?beta=`), hit);
    assert.equal(await landing(server, `${present}?alpha=1`), miss);
    const both = await oneRule({ query: { a: '1', b: true } });
    assert.equal(await landing(server, `${both}?b=x&a=1`), hit);
    assert.equal(await landing(server, `${both}?a=1`), miss);
  });

  test('ip: IPv4 addresses and CIDRs, by the socket address', async () => {
    const code = await oneRule({ ip: ['127.0.0.0/30', '127.0.9.9'] });
    const where = async (address: string) => {
      const client = clientAtAddress(server.url, address);
      try {
        const answer = await client.get(`/${code}`);
        return `${answer.status} ${answer.location}`;
      } finally {
        client.close();
      }
    };
    assert.equal(await where('127.0.0.1'), hit);
    assert.equal(await where('127.0.0.3'), hit);
    assert.equal(await where('127.0.0.4'), miss);
    assert.equal(await where('127.0.9.9'), hit);
    assert.equal(await where('127.0.9.8'), miss);
    const v6Only = await oneRule({ ip: ['::/0'] });
    assert.equal(await landing(server, v6Only), miss, 'an IPv4 visitor is in no IPv6 range');
  });

  test('after and before, by the clock', async () => {
    const now = server.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const HOUR = 3_600_000;
    const window = await oneRule({ after: iso(now + HOUR), before: iso(now + 2 * HOUR) });
    const from = await oneRule({ after: iso(now + HOUR) });
    const until = await oneRule({ before: iso(now + HOUR) });
    assert.equal(await landing(server, window), miss);
    assert.equal(await landing(server, from), miss);
    assert.equal(await landing(server, until), hit);
    server.clock.advance(HOUR); // `after` is inclusive, `before` exclusive
    assert.equal(await landing(server, window), hit);
    assert.equal(await landing(server, from), hit);
    assert.equal(await landing(server, until), miss);
    server.clock.advance(HOUR);
    assert.equal(await landing(server, window), miss);
    assert.equal(await landing(server, from), hit);
  });

  test('all conditions in one rule: every one must hold', async () => {
    const now = server.clock.now();
    const when = {
      device: ['mobile'],
      os: ['ios'],
      browser: ['safari'],
      language: ['fr'],
      country: ['FR'],
      query: { promo: 'spring', beta: true },
      ip: ['127.0.0.0/8'],
      after: new Date(now - 1000).toISOString(),
      before: new Date(now + 3_600_000).toISOString(),
    };
    const code = await oneRule(when);
    const all = { 'user-agent': IPHONE, 'accept-language': 'fr-CA', 'cf-ipcountry': 'FR' };
    const path = `${code}?promo=spring&beta`;
    assert.equal(await landing(server, path, all), hit);
    // Take away one condition at a time: the rule no longer matches.
    assert.equal(await landing(server, path, { ...all, 'user-agent': IPAD }), miss, 'device');
    assert.equal(
      await landing(server, path, { ...all, 'user-agent': ANDROID_SAMSUNG }),
      miss,
      'os and browser',
    );
    assert.equal(await landing(server, path, { ...all, 'accept-language': 'en' }), miss, 'lang');
    assert.equal(await landing(server, path, { ...all, 'cf-ipcountry': 'BE' }), miss, 'country');
    assert.equal(await landing(server, `${code}?promo=spring`, all), miss, 'query present');
    assert.equal(await landing(server, `${code}?promo=fall&beta`, all), miss, 'query value');
    server.clock.advance(3_600_000);
    assert.equal(await landing(server, path, all), miss, 'before');
    const elsewhere = await oneRule({ ...when, ip: ['10.0.0.0/8'], before: undefined });
    assert.equal(await landing(server, `${elsewhere}?promo=spring&beta`, all), miss, 'ip');
  });

  test('the first matching rule wins; a rule status code overrides the link one', async () => {
    const created = await createLink(server, {
      destination: FALLTHROUGH,
      status_code: 301,
      rules: [
        {
          destination: 'https://example.com/de-mobile',
          status_code: 307,
          when: { country: ['DE'], device: ['mobile'] },
        },
        { destination: 'https://example.com/de', when: { country: ['DE'] } },
        {
          destination: 'https://example.com/mobile',
          status_code: 308,
          when: { device: ['mobile'] },
        },
        { destination: 'https://example.com/never', when: { country: ['DE'] } },
      ],
    });
    const code = created.code;
    assert.equal(
      await landing(server, code, { 'cf-ipcountry': 'DE', 'user-agent': IPHONE }),
      '307 https://example.com/de-mobile',
    );
    assert.equal(
      await landing(server, code, { 'cf-ipcountry': 'DE', 'user-agent': DESKTOP }),
      '301 https://example.com/de',
      "a rule without a status code takes the link's",
    );
    assert.equal(
      await landing(server, code, { 'cf-ipcountry': 'FR', 'user-agent': IPHONE }),
      '308 https://example.com/mobile',
    );
    assert.equal(await landing(server, code, { 'cf-ipcountry': 'FR' }), `301 ${FALLTHROUGH}`);
    // A smart answer depends on its visitor: no browser or shared cache keeps it.
    const answer = await visit(server, code, { 'cf-ipcountry': 'DE' });
    assert.equal(answer.headers.get('cache-control'), 'private, no-store');
  });

  test('HEAD answers as GET does', async () => {
    const code = await oneRule({ device: ['mobile'] });
    const head = await visit(server, code, { 'user-agent': IPHONE }, 'HEAD');
    assert.equal(head.status, 302);
    assert.equal(head.headers.get('location'), HIT);
    assert.equal(head.text, '');
  });

  test('rules given and shown back in the link JSON; PATCH replaces them, [] clears', async () => {
    const created = await server.request('POST', '/v1/links', {
      body: {
        destination: FALLTHROUGH,
        rules: [
          {
            destination: HIT,
            status_code: 307,
            when: { country: ['de'], language: ['pt-BR'], ip: ['10.0.0.0/8'], query: { a: true } },
          },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.rules, [
      {
        destination: HIT,
        status_code: 307,
        when: { language: ['pt-br'], country: ['DE'], query: { a: true }, ip: ['10.0.0.0/8'] },
      },
    ]);
    const read = await server.request('GET', `/v1/links/${created.json.id}`);
    assert.deepEqual(read.json.rules, created.json.rules);
    const patched = await server.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { rules: [{ destination: 'https://example.com/new', when: { query: { b: 'x' } } }] },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json.rules, [
      { destination: 'https://example.com/new', when: { query: { b: 'x' } } },
    ]);
    assert.equal(await landing(server, `${created.json.code}?b=x`), '302 https://example.com/new');
    const cleared = await server.request('PATCH', `/v1/links/${created.json.id}`, {
      body: { rules: [] },
    });
    assert.deepEqual(cleared.json.rules, []);
    assert.equal(await landing(server, `${created.json.code}?b=x`), miss);
  });
});

describe('smart-link rules behind a trusted proxy', () => {
  test('ip rules see the forwarded client address, IPv6 included', async (t) => {
    const server = await startTestServer({ HOP_TRUST_PROXY: 'loopback' });
    t.after(() => server.close());
    const { code } = await createLink(server, {
      destination: FALLTHROUGH,
      rules: [
        { destination: 'https://example.com/v6', when: { ip: ['2001:db8::/32'] } },
        { destination: 'https://example.com/v4', when: { ip: ['203.0.113.0/24'] } },
        { destination: 'https://example.com/host', when: { ip: ['2001:db9::1'] } },
      ],
    });
    const from = (address: string) => landing(server, code, { 'x-forwarded-for': address });
    assert.equal(await from('2001:db8:1::42'), '302 https://example.com/v6');
    assert.equal(await from('2001:db9::1'), '302 https://example.com/host');
    assert.equal(await from('2001:db9::2'), miss);
    assert.equal(await from('203.0.113.7'), '302 https://example.com/v4');
    assert.equal(await from('198.51.100.7'), miss);
    // The socket's own address, when no proxy forwarded one.
    assert.equal(await landing(server, code), miss);
  });
});
