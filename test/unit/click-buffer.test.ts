import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';

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
    assert.deepEqual(batch.linkIds, ['link-0', 'link-1', 'link-2']);
    assert.deepEqual(batch.devices, ['desktop', 'desktop', 'desktop']);
    assert.deepEqual(batch.countries, ['DE', 'DE', 'DE']);
    assert.deepEqual(batch.referrers, ['', '', '']);
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
    assert.deepEqual(batch.linkIds, ['a2', 'b0', 'b1', 'b2']);
    assert.deepEqual(batch.referrers, ['a.example', 'a.example', 'a.example', 'a.example']);
    buffer.discard(10);
    assert.equal(buffer.size, 0);
    assert.equal(buffer.peek(4, 'inst').size, 0);
    push('c0');
    assert.equal(buffer.peek(1, 'inst').firstSeq, 6);
  });
});
