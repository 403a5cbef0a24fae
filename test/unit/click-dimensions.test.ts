import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';
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
    assert.equal(dimensions.knownDevice(IPHONE), undefined, 'not parsed until asked');
    assert.equal(dimensions.device(DESKTOP), 'desktop');
    assert.equal(dimensions.device(IPHONE), 'mobile');
    assert.equal(dimensions.device(IPAD), 'tablet');
    assert.equal(dimensions.device(GOOGLEBOT), 'bot');
    assert.equal(dimensions.device('curl/8.5.0'), 'bot');
    assert.equal(dimensions.device(undefined), 'other');
    assert.equal(dimensions.device(''), 'other');
    assert.equal(dimensions.device('x'.repeat(5000)), 'other', 'too long to parse');
    assert.equal(dimensions.knownDevice(IPHONE), 'mobile', 'remembered once parsed');
    assert.equal(dimensions.knownDevice(undefined), 'other');
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
  };

  test('round-trips one event and a tally; the event id joins instance and sequence', () => {
    assert.deepEqual(decodeEvent(encodeEvent(sample)), sample);
    const tally = tallyOfBatch(batchOf([sample, { ...sample, seq: 43, device: 'bot' as const }]));
    assert.deepEqual(decodeTally(legacyTallyJson(tally)), tally);
    assert.equal(eventIdOf(sample), 'Abc123.42');
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
    ]) {
      assert.equal(decodeEvent(text), null, text);
    }
  });
});
