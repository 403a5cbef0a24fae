import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FlushTally } from '../../src/wire/flush-tally.js';
import {
  BROWSER_CLASSES,
  OS_CLASSES,
  type ClickEvent,
  type DeviceClass,
} from '../../src/domain/click-event.js';
import type { ClickBucket } from '../../src/domain/click-fold.js';
import { decodeTallyWire, TallyWireWriter } from '../../src/wire/click-tally-wire.js';
import { tallyOfBatch } from '../support/click-tallies.js';
import { batchOf } from '../support/click-batches.js';

const HOUR = Date.UTC(2026, 11, 3, 10);
const DEVICES: DeviceClass[] = ['desktop', 'mobile', 'tablet', 'bot', 'other'];

/** `count` clicks from `firstSeq` over `links` links, three hours, and mixed dimensions. */
function clicks(firstSeq: number, count: number, links: number, prefix = 'link'): ClickEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const seq = firstSeq + index;
    return {
      instance: 'inst-a',
      seq,
      linkId: `${prefix}-${(seq * 7) % links}`,
      code: `code${seq % links}`,
      at: HOUR + (seq % 3) * 3_600_000 + seq,
      country: seq % 2 === 0 ? 'DE' : 'FR',
      device: DEVICES[seq % DEVICES.length] ?? 'other',
      referrer: seq % 7 === 0 ? '' : seq % 5 === 0 ? 'bücher.example' : 'news.example.com',
      browser: BROWSER_CLASSES[seq % BROWSER_CLASSES.length] ?? 'other',
      os: OS_CLASSES[seq % OS_CLASSES.length] ?? 'other',
      city: seq % 3 === 0 ? '' : seq % 4 === 0 ? 'München' : 'Berlin',
    };
  });
}

/** Buckets in a canonical order, for comparing sums made in a different order. */
function sorted(buckets: readonly ClickBucket[]): string[] {
  return buckets.map((bucket) => JSON.stringify(bucket)).sort();
}

describe('flush tally', () => {
  test('sums a batch as tallyOfBatch does, through bytes and back', () => {
    const batch = batchOf(clicks(0, 5_000, 301));
    const decoded = decodeTallyWire(new FlushTally().encode(batch));
    assert.ok(decoded !== null);
    const expected = tallyOfBatch(batch);
    assert.equal(decoded.instance, 'inst-a');
    assert.equal(decoded.fromSeq, 0);
    assert.equal(decoded.toSeq, 4_999);
    assert.equal(decoded.oldestAt, expected.oldestAt);
    assert.equal(decoded.newestAt, expected.newestAt);
    assert.deepEqual(sorted(decoded.buckets), sorted(expected.buckets));
  });

  test('flush after flush, with the same memory: no bucket of one leaks into the next', () => {
    const tally = new FlushTally();
    let firstSeq = 0;
    for (const [count, links, prefix] of [
      [1_000, 50, 'a'],
      [10, 3, 'a'],
      [3_000, 2_000, 'b'],
      [1, 1, 'a'],
    ] as const) {
      const batch = batchOf(clicks(firstSeq, count, links, prefix));
      const decoded = decodeTallyWire(tally.encode(batch));
      assert.ok(decoded !== null);
      assert.equal(decoded.fromSeq, firstSeq);
      assert.equal(decoded.toSeq, firstSeq + count - 1);
      assert.deepEqual(sorted(decoded.buckets), sorted(tallyOfBatch(batch).buckets));
      firstSeq += count;
    }
  });

  test('one batch summed in slices encodes as the batch summed at once (ADR 0143)', () => {
    const events = clicks(40, 2_500, 97);
    const whole = decodeTallyWire(new FlushTally().encode(batchOf(events)));
    assert.ok(whole !== null);
    const tally = new FlushTally();
    // A send that failed part way: forgotten, and the next one sums from its own first slice.
    tally.add(batchOf(clicks(0, 40, 5)));
    tally.discard();
    assert.equal(tally.added, 0);
    for (let from = 0; from < events.length; from += 1_000) {
      tally.add(batchOf(events.slice(from, from + 1_000)));
    }
    assert.equal(tally.added, 2_500);
    const sliced = decodeTallyWire(tally.finish());
    assert.ok(sliced !== null);
    assert.equal(sliced.fromSeq, 40);
    assert.equal(sliced.toSeq, 2_539);
    assert.equal(sliced.oldestAt, whole.oldestAt);
    assert.equal(sliced.newestAt, whole.newestAt);
    assert.deepEqual(sorted(sliced.buckets), sorted(whole.buckets));
    assert.equal(tally.added, 0, 'finish begins the next tally');
    // encode is a whole send of its own, whatever was added before it.
    tally.add(batchOf(clicks(0, 10, 3, 'stray')));
    const next = decodeTallyWire(tally.encode(batchOf(clicks(2_540, 5, 2))));
    assert.ok(next !== null);
    assert.equal(next.fromSeq, 2_540);
    assert.ok(next.buckets.every((bucket) => !bucket.linkId.startsWith('stray')));
  });

  test('bytes that are not a tally decode to null, never throw', () => {
    const writer = new TallyWireWriter();
    writer.begin('inst-a', 10, 12, HOUR, HOUR + 5);
    writer.bucket(
      'link-1',
      HOUR,
      'DE',
      'mobile',
      'news.example.com',
      'safari',
      'ios',
      'Berlin',
      'de',
      2,
    );
    writer.bucket('link-2', HOUR, 'ZZ', 'bot', '', 'other', 'other', '', '', 1);
    const good = writer.finish();
    const decoded = decodeTallyWire(good);
    assert.ok(decoded !== null);
    assert.deepEqual(decoded.buckets, [
      {
        linkId: 'link-1',
        hour: HOUR,
        country: 'DE',
        device: 'mobile',
        referrer: 'news.example.com',
        browser: 'safari',
        os: 'ios',
        city: 'Berlin',
        second: HOUR,
        language: 'de',
        clicks: 2,
      },
      {
        linkId: 'link-2',
        hour: HOUR,
        country: 'ZZ',
        device: 'bot',
        referrer: '',
        browser: 'other',
        os: 'other',
        city: '',
        second: HOUR,
        language: '',
        clicks: 1,
      },
    ]);
    const bytes = new Uint8Array(good);
    const altered = (change: (copy: Uint8Array) => void) => {
      const copy = bytes.slice();
      change(copy);
      return copy.buffer;
    };
    assert.equal(decodeTallyWire(new ArrayBuffer(0)), null);
    // The instance id's first byte (after the version and its length) made 0xff: not UTF-8.
    assert.equal(decodeTallyWire(altered((copy) => (copy[3] = 0xff))), null, 'not UTF-8');
    assert.equal(decodeTallyWire(good.slice(0, good.byteLength - 1)), null, 'cut short');
    assert.equal(decodeTallyWire(altered((copy) => (copy[0] = 9))), null, 'another version');
    const longer = new Uint8Array(good.byteLength + 1);
    longer.set(bytes);
    assert.equal(decodeTallyWire(longer.buffer), null, 'something after the tally');
    // One click fewer than the run of ids claims: the last bucket's count, 1 → 0.
    assert.equal(decodeTallyWire(altered((copy) => (copy[copy.length - 4] = 0))), null);
    for (let index = 0; index < 200; index++) {
      const noise = altered((copy) => {
        const at = (index * 31) % copy.length;
        copy[at] = (copy[at] ?? 0) ^ (1 + (index % 255));
      });
      const result = decodeTallyWire(noise);
      if (result !== null) {
        const sum = result.buckets.reduce((total, bucket) => total + bucket.clicks, 0);
        assert.equal(sum, result.toSeq - result.fromSeq + 1);
      }
    }
  });

  test('a country or referrer is written once per tally, then referred to by number', () => {
    const writer = new TallyWireWriter();
    writer.begin('inst-a', 0, 2, HOUR, HOUR);
    writer.bucket('link-1', HOUR, 'DE', 'mobile', 'news.example.com', 'safari', 'ios', '', '', 1);
    writer.bucket(
      'link-2',
      HOUR,
      'DE',
      'desktop',
      'news.example.com',
      'edge',
      'windows',
      '',
      '',
      1,
    );
    writer.bucket(
      'link-3',
      HOUR,
      'FR',
      'desktop',
      'news.example.com',
      'edge',
      'windows',
      '',
      '',
      1,
    );
    const bytes = writer.finish();
    const text = Buffer.from(bytes).toString('latin1');
    assert.equal(text.split('news.example.com').length - 1, 1, 'the referrer once');
    assert.equal(text.split('DE').length - 1, 1, 'the country once');
    const decoded = decodeTallyWire(bytes);
    assert.ok(decoded !== null);
    const [first, second, third] = decoded.buckets;
    assert.ok(first !== undefined && second !== undefined && third !== undefined);
    assert.equal(second.country, 'DE');
    assert.equal(third.country, 'FR');
    assert.equal(third.referrer, 'news.example.com');
    // A word that was never said: the number after link-2's hour points past the table.
    const view = new DataView(bytes);
    const secondCountryAt = text.indexOf('link-2') + 'link-2'.length + 8;
    assert.equal(view.getUint32(secondCountryAt, true), 0, 'the first word, DE');
    view.setUint32(secondCountryAt, 7, true);
    assert.equal(decodeTallyWire(bytes), null);
  });

  test('a tally an earlier hop queued (version 2: no browser, os, city) still decodes', () => {
    // Version 2, written by hand: instance, run, times, one bucket.
    const parts: number[] = [2];
    const string = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      parts.push(bytes.length & 0xff, bytes.length >> 8, ...bytes);
    };
    const float = (value: number) => {
      parts.push(...new Uint8Array(new Float64Array([value]).buffer));
    };
    const uint32 = (value: number) => {
      parts.push(...new Uint8Array(new Uint32Array([value]).buffer));
    };
    string('inst-a');
    float(0);
    float(1);
    float(HOUR);
    float(HOUR);
    uint32(1);
    string('link-1');
    float(HOUR);
    uint32(0xffffffff);
    string('DE');
    parts.push(1); // mobile
    uint32(0xffffffff);
    string('');
    uint32(2);
    const decoded = decodeTallyWire(new Uint8Array(parts));
    assert.ok(decoded !== null);
    assert.deepEqual(decoded.buckets, [
      {
        linkId: 'link-1',
        hour: HOUR,
        country: 'DE',
        device: 'mobile',
        referrer: '',
        browser: 'other',
        os: 'other',
        city: '',
        clicks: 2,
      },
    ]);
  });
});
