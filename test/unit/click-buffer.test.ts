import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';
import { openGeoDatabase } from '../../src/main/geo-database.js';

const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('ClickBuffer', () => {
  test('holds up to its bound, then drops and counts; sequence numbers go to accepted clicks', () => {
    const buffer = new ClickBuffer(3, new ClickDimensions());
    for (let index = 0; index < 5; index++) {
      buffer.push(`link-${index}`, 'code', 1000 + index, DESKTOP, undefined, 'de');
    }
    assert.equal(buffer.size, 3);
    assert.equal(buffer.dropped, 2);
    const batch = buffer.peek(10, 'inst');
    assert.equal(batch.firstSeq, 0);
    assert.equal(batch.size, 3);
    assert.deepEqual(batch.linkIds.slice(0, 3), ['link-0', 'link-1', 'link-2']);
    assert.deepEqual(batch.devices.slice(0, 3), ['desktop', 'desktop', 'desktop']);
    assert.deepEqual(batch.countries.slice(0, 3), ['DE', 'DE', 'DE']);
    assert.deepEqual(batch.referrers.slice(0, 3), ['', '', '']);
  });

  test('peek keeps clicks until discard; the ring wraps around and numbering goes on', () => {
    const buffer = new ClickBuffer(4, new ClickDimensions());
    const push = (linkId: string) =>
      buffer.push(linkId, 'c', 0, undefined, 'https://a.example/x?y=1', undefined);
    for (const linkId of ['a0', 'a1', 'a2']) push(linkId);
    assert.equal(buffer.peek(2, 'inst').size, 2);
    assert.equal(buffer.size, 3, 'peek takes nothing away');
    buffer.discard(2);
    for (const linkId of ['b0', 'b1', 'b2']) push(linkId);
    assert.equal(buffer.size, 4);
    const batch = buffer.peek(4, 'inst');
    assert.equal(batch.firstSeq, 2);
    assert.deepEqual(batch.linkIds.slice(0, 4), ['a2', 'b0', 'b1', 'b2']);
    assert.deepEqual(batch.referrers.slice(0, 4), [
      'a.example',
      'a.example',
      'a.example',
      'a.example',
    ]);
    buffer.discard(10);
    assert.equal(buffer.size, 0);
    assert.equal(buffer.peek(4, 'inst').size, 0);
    push('c0');
    assert.equal(buffer.peek(1, 'inst').firstSeq, 6);
  });

  test('peek from an offset: a slice of what is held, across the ring, numbered in place', () => {
    const buffer = new ClickBuffer(5, new ClickDimensions());
    const push = (linkId: string) => buffer.push(linkId, 'c', 0, DESKTOP, undefined, 'de');
    for (const linkId of ['a0', 'a1', 'a2', 'a3']) push(linkId);
    buffer.discard(3);
    for (const linkId of ['b0', 'b1', 'b2', 'b3']) push(linkId);
    // Held now: a3 b0 b1 b2 b3, the ring wrapped after b0.
    const slice = buffer.peek(2, 'inst', 1);
    assert.equal(slice.firstSeq, 4);
    assert.equal(slice.size, 2);
    assert.deepEqual(slice.linkIds.slice(0, 2), ['b0', 'b1']);
    const tail = buffer.peek(10, 'inst', 3);
    assert.equal(tail.firstSeq, 6);
    assert.deepEqual(tail.linkIds.slice(0, tail.size), ['b2', 'b3']);
    assert.equal(buffer.peek(2, 'inst', 5).size, 0, 'nothing past the newest');
    assert.equal(buffer.size, 5, 'peeking takes nothing away');
  });

  test('peek fills the same columns each time, growing them only for a larger batch', () => {
    const buffer = new ClickBuffer(100, new ClickDimensions());
    const push = (linkId: string, at: number) =>
      buffer.push(linkId, `c-${linkId}`, at, DESKTOP, undefined, 'fr');
    for (let index = 0; index < 10; index++) push(`x${index}`, index);
    const first = buffer.peek(10, 'inst');
    buffer.discard(10);
    for (let index = 0; index < 4; index++) push(`y${index}`, 100 + index);
    const second = buffer.peek(10, 'inst');
    assert.equal(second.size, 4);
    assert.equal(second.firstSeq, 10);
    assert.equal(second.linkIds, first.linkIds, 'the same column, not a new one');
    assert.equal(second.at, first.at);
    assert.deepEqual(second.linkIds.slice(0, 4), ['y0', 'y1', 'y2', 'y3']);
    assert.deepEqual(second.codes.slice(0, 4), ['c-y0', 'c-y1', 'c-y2', 'c-y3']);
    assert.deepEqual([...second.at.subarray(0, 4)], [100, 101, 102, 103]);
    buffer.discard(4);
    for (let index = 0; index < 30; index++) push(`z${index}`, 200 + index);
    const third = buffer.peek(30, 'inst');
    assert.equal(third.size, 30);
    assert.ok(third.linkIds.length >= 30);
    assert.equal(third.linkIds[29], 'z29');
    assert.equal(third.devices[29], 'desktop');
    assert.equal(third.countries[29], 'FR');
  });

  test('an address is placed at the flush, then forgotten; a header country needs none', () => {
    const buffer = new ClickBuffer(8, new ClickDimensions(openGeoDatabase(undefined)));
    buffer.push('l', 'c', 0, DESKTOP, undefined, undefined, '193.99.144.80');
    buffer.push('l', 'c', 0, DESKTOP, undefined, undefined, '::ffff:133.242.0.1');
    buffer.push('l', 'c', 0, DESKTOP, undefined, undefined, '127.0.0.1');
    buffer.push('l', 'c', 0, DESKTOP, undefined, 'fr');
    const first = buffer.peek(8, 'inst');
    assert.deepEqual(first.countries.slice(0, 4), ['DE', 'JP', 'ZZ', 'FR']);
    assert.deepEqual(first.cities.slice(0, 4), ['', '', '', '']);
    assert.deepEqual(first.browsers.slice(0, 4), ['chrome', 'chrome', 'chrome', 'chrome']);
    assert.deepEqual(first.oses.slice(0, 4), ['windows', 'windows', 'windows', 'windows']);
    // A send that failed peeks again: the places are kept, the addresses are not.
    assert.deepEqual(buffer.peek(8, 'inst').countries.slice(0, 4), ['DE', 'JP', 'ZZ', 'FR']);
  });
});

describe('ClickBuffer and Accept-Language (ADR 0152)', () => {
  test('a header first seen is kept raw and parsed at the flush; once known, its language is kept instead', () => {
    const dimensions = new ClickDimensions();
    const buffer = new ClickBuffer(8, dimensions);
    assert.equal(dimensions.knownLanguage('de-CH,de;q=0.9'), undefined);
    assert.equal(dimensions.knownLanguage(undefined), '');
    buffer.push('l', 'c', 0, DESKTOP, undefined, 'de', undefined, 'de-CH,de;q=0.9');
    buffer.push('l', 'c', 0, DESKTOP, undefined, 'de', undefined, undefined);
    assert.deepEqual(buffer.peek(8, 'inst').languages?.slice(0, 2), ['de', '']);
    // A send that failed peeks again: the language parsed at the first peek is kept.
    assert.deepEqual(buffer.peek(8, 'inst').languages?.slice(0, 2), ['de', '']);
    buffer.discard(2);
    // The flush parsed it: the next click with the same header (another string, as each
    // request's is) finds its language on the redirect and keeps no raw value.
    const again = ['de-CH', 'de;q=0.9'].join(',');
    assert.equal(dimensions.knownLanguage(again), 'de');
    buffer.push('l', 'c', 0, DESKTOP, undefined, 'de', undefined, again);
    buffer.push('l', 'c', 0, DESKTOP, undefined, 'de', undefined, 'fr-FR');
    assert.deepEqual(buffer.peek(8, 'inst').languages?.slice(0, 2), ['de', 'fr']);
  });
});
