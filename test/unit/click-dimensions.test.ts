import type { ClickBucket } from '../../src/domain/click-fold.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';
import { openGeoDatabase } from '../../src/main/geo-database.js';
import { decodeEvent, decodeTally, encodeEvent } from '../../src/wire/click-event-codec.js';
import { legacyTallyJson, tallyOfBatch } from '../support/click-tallies.js';
import { batchOf } from '../support/click-batches.js';
import {
  boundCountry,
  eventIdOf,
  referrerHostOf,
  type ClickEvent,
} from '../../src/domain/click-event.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('click dimensions', () => {
  test('device class from the user agent: desktop, mobile, tablet, bot, other', () => {
    const dimensions = new ClickDimensions();
    const device = (userAgent: string | undefined) => dimensions.agent(userAgent).device;
    assert.equal(dimensions.knownAgent(IPHONE), undefined, 'not parsed until asked');
    assert.equal(device(DESKTOP), 'desktop');
    assert.equal(device(IPHONE), 'mobile');
    assert.equal(device(IPAD), 'tablet');
    assert.equal(device(GOOGLEBOT), 'bot');
    assert.equal(device('curl/8.5.0'), 'bot');
    assert.equal(device(undefined), 'other');
    assert.equal(device(''), 'other');
    assert.equal(device('x'.repeat(5000)), 'other', 'too long to parse');
    assert.equal(dimensions.knownAgent(IPHONE)?.device, 'mobile', 'remembered once parsed');
    assert.equal(dimensions.knownAgent(undefined)?.device, 'other');
  });

  test('browser and os by the names rules use (issue 21), from the same one parse', () => {
    const dimensions = new ClickDimensions();
    const agents = {
      [IPHONE]: { device: 'mobile', browser: 'safari', os: 'ios' },
      [DESKTOP]: { device: 'desktop', browser: 'chrome', os: 'windows' },
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15':
        { device: 'desktop', browser: 'safari', os: 'macos' },
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0': {
        device: 'desktop',
        browser: 'firefox',
        os: 'linux',
      },
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0':
        { device: 'desktop', browser: 'edge', os: 'windows' },
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36':
        { device: 'mobile', browser: 'samsung', os: 'android' },
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36':
        { device: 'desktop', browser: 'chrome', os: 'chromeos' },
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0':
        { device: 'desktop', browser: 'opera', os: 'windows' },
      [GOOGLEBOT]: { device: 'bot', browser: 'other', os: 'other' },
      'Mozilla/5.0 (PlayStation 4 3.11) AppleWebKit/537.73 (KHTML, like Gecko)': {
        device: 'other',
        browser: 'other',
        os: 'other',
      },
    };
    for (const [userAgent, expected] of Object.entries(agents)) {
      assert.deepEqual({ ...dimensions.agent(userAgent) }, expected, userAgent);
    }
    assert.equal(dimensions.agent(IPHONE), dimensions.agent(IPHONE.replace('17_0', '17_1')));
  });

  test('a click is placed by its address when a database is given, else ZZ', () => {
    const geo = openGeoDatabase(undefined);
    assert.deepEqual(new ClickDimensions(geo).place('81.2.69.160'), { country: 'GB', city: null });
    assert.equal(new ClickDimensions(geo).place('127.0.0.1'), null);
    assert.equal(new ClickDimensions().place('81.2.69.160'), null);
  });

  test('country: two letters from the edge, anything else ZZ', () => {
    assert.equal(boundCountry('de'), 'DE');
    assert.equal(boundCountry(' US '), 'US');
    assert.equal(boundCountry(undefined), 'ZZ');
    assert.equal(boundCountry('XX'), 'ZZ', "Cloudflare's unknown");
    assert.equal(boundCountry('DEU'), 'ZZ');
    assert.equal(boundCountry('1A'), 'ZZ');
    assert.equal(boundCountry('<script>'), 'ZZ');
  });

  test('referrer: the host only, never its path or query; junk is other', () => {
    assert.equal(
      referrerHostOf('https://News.Example.com:8443/a/b?token=secret#x'),
      'news.example.com',
    );
    assert.equal(referrerHostOf('http://user:pw@example.org/'), 'example.org');
    assert.equal(referrerHostOf(undefined), '');
    assert.equal(referrerHostOf(''), '');
    assert.equal(referrerHostOf('not a url'), 'other');
    assert.equal(referrerHostOf('android-app://com.google.android.gm/'), 'other');
    assert.equal(referrerHostOf('http://[::1]/'), 'other', 'an IP literal is not a host name');
    assert.equal(referrerHostOf('http://10.0.0.1/'), '10.0.0.1');
  });
});

describe('click event codec', () => {
  const sample: ClickEvent = {
    instance: 'Abc123',
    seq: 42,
    linkId: '01JABCDEFGHJKMNPQRSTVWXYZ0',
    code: 'abc1234',
    at: Date.UTC(2026, 11, 3),
    country: 'DE',
    device: 'mobile',
    referrer: 'news.example.com',
    browser: 'safari',
    os: 'ios',
    city: 'Berlin',
  };

  test('round-trips one event and a tally; the event id joins instance and sequence', () => {
    assert.deepEqual(decodeEvent(encodeEvent(sample)), sample);
    // Queue rows of JSON tallies predate issue 21: no browser, os or city.
    const before = { ...sample, browser: 'other', os: 'other', city: '' } as const;
    const tally = tallyOfBatch(batchOf([before, { ...before, seq: 43, device: 'bot' as const }]));
    // ... nor a second or language (issue 23): their clicks stand at the hour's start.
    const legacy = {
      ...tally,
      buckets: tally.buckets.map((bucket) => {
        const copy: { -readonly [K in keyof ClickBucket]?: ClickBucket[K] } = { ...bucket };
        delete copy.second;
        delete copy.language;
        return copy;
      }),
    };
    assert.deepEqual(decodeTally(legacyTallyJson(tally)), legacy);
    assert.equal(eventIdOf(sample), 'Abc123.42');
  });

  test('an event an earlier hop published (no browser, os, city) still decodes', () => {
    const { b, o, y, ...earlier } = JSON.parse(encodeEvent(sample)) as Record<string, unknown>;
    assert.deepEqual([b, o, y], ['safari', 'ios', 'Berlin']);
    assert.deepEqual(decodeEvent(JSON.stringify(earlier)), {
      ...sample,
      browser: 'other',
      os: 'other',
      city: '',
    });
  });

  test('a queue row that is not a tally decodes to null, never throws', () => {
    const good = JSON.parse(legacyTallyJson(tallyOfBatch(batchOf([sample])))) as Record<
      string,
      unknown
    >;
    for (const text of [
      '',
      '{',
      'null',
      JSON.stringify({ ...good, t: 41 }),
      JSON.stringify({ ...good, t: 43 }),
      JSON.stringify({ ...good, b: [['l', 0, 'DE', 'toaster', '', 1]] }),
      JSON.stringify({ ...good, b: [['l', 0, 'DE', 'bot', '', 0]] }),
      JSON.stringify({ ...good, b: 'rows' }),
      JSON.stringify({ ...good, i: '../etc' }),
    ]) {
      assert.equal(decodeTally(text), null, text);
    }
  });

  test('anything that is not an event decodes to null, never throws', () => {
    for (const text of [
      '',
      'null',
      '{',
      '[]',
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), d: 'toaster' }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), s: -1 }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), s: 1.5 }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), i: 'a b' }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), l: '' }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), b: 'netscape' }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), o: 'beos' }),
      JSON.stringify({ ...JSON.parse(encodeEvent(sample)), y: 7 }),
    ]) {
      assert.equal(decodeEvent(text), null, text);
    }
  });
});
