import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keepTickObjectShape } from '../../src/main/keep-tick-object-shape.js';

describe('keepTickObjectShape', () => {
  test("holds one of process.nextTick's own objects, the same one every time", () => {
    const kept = keepTickObjectShape();
    assert.ok(kept !== null);
    // A tick object: the callback and its async ids, under Node's own symbols.
    assert.equal(typeof (kept as { callback?: unknown }).callback, 'function');
    const symbols = Object.getOwnPropertySymbols(kept).map((symbol) => symbol.description);
    assert.deepEqual(symbols, ['async_id_symbol', 'trigger_async_id_symbol']);
    assert.equal(keepTickObjectShape(), kept);
  });
});
