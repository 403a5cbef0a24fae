import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';

describe('ClickBuffer', () => {
  test('holds up to its bound, then drops and counts; sequence numbers go to accepted clicks', () => {
    const buffer = new ClickBuffer(3);
    for (let index = 0; index < 5; index++) {
      buffer.push(`link-${index}`, 'code', 1000 + index, 'ua', undefined, 'DE');
    }
    assert.equal(buffer.size, 3);
    assert.equal(buffer.dropped, 2);
    assert.deepEqual(
      buffer.peek(10).map((click) => [click.seq, click.linkId]),
      [
        [0, 'link-0'],
        [1, 'link-1'],
        [2, 'link-2'],
      ],
    );
  });

  test('peek keeps clicks until discard; the ring wraps around', () => {
    const buffer = new ClickBuffer(4);
    for (let index = 0; index < 3; index++)
      buffer.push(`a${index}`, 'c', index, undefined, undefined, undefined);
    assert.equal(buffer.peek(2).length, 2);
    assert.equal(buffer.size, 3, 'peek takes nothing away');
    buffer.discard(2);
    for (let index = 0; index < 3; index++)
      buffer.push(`b${index}`, 'c', index, undefined, undefined, undefined);
    assert.equal(buffer.size, 4);
    assert.deepEqual(
      buffer.peek(4).map((click) => [click.seq, click.linkId]),
      [
        [2, 'a2'],
        [3, 'b0'],
        [4, 'b1'],
        [5, 'b2'],
      ],
    );
    buffer.discard(10);
    assert.equal(buffer.size, 0);
    assert.deepEqual(buffer.peek(4), []);
  });
});
