import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BoundedMemo } from '../../src/clicks/bounded-memo.js';

describe('bounded memo', () => {
  /** A copy that is equal but not the same string object (as a header parsed anew). */
  const fresh = (text: string) => Buffer.from(text, 'latin1').toString('latin1');

  test('known answers come back for equal keys that are new strings', () => {
    let computed = 0;
    const memo = new BoundedMemo((key: string) => {
      computed++;
      return key.toUpperCase();
    }, 100);
    assert.equal(memo.known(fresh('mozilla/5.0 a')), undefined);
    assert.equal(memo.resolve(fresh('mozilla/5.0 a')), 'MOZILLA/5.0 A');
    for (let round = 0; round < 3; round++) {
      assert.equal(memo.known(fresh('mozilla/5.0 a')), 'MOZILLA/5.0 A');
    }
    assert.equal(computed, 1);
  });

  test('keys alike in length and in the characters the recent table looks at stay apart', () => {
    const memo = new BoundedMemo((key: string) => `answer for ${key}`, 100);
    // Same length, same middle and last character: the same slot of the recent table.
    const keys = ['aXcdeZ', 'bXcdeZ', 'cXcdeZ', 'zzzdeZ'];
    for (const key of keys) memo.resolve(key);
    for (let round = 0; round < 3; round++) {
      for (const key of keys) assert.equal(memo.known(fresh(key)), `answer for ${key}`);
    }
    assert.equal(memo.known(fresh('qXcdeZ')), undefined);
    assert.equal(memo.known(''), undefined);
    assert.equal(memo.resolve(''), 'answer for ');
    assert.equal(memo.known(fresh('')), 'answer for ');
  });

  test('when full it starts afresh, and forgets what its recent table held too', () => {
    let computed = 0;
    const memo = new BoundedMemo((key: string) => {
      computed++;
      return key.length;
    }, 2);
    memo.resolve('one');
    memo.resolve('three');
    assert.equal(memo.known('one'), 3);
    memo.resolve('fourth'); // full: cleared, then remembered alone
    assert.equal(memo.known('one'), undefined);
    assert.equal(memo.known('three'), undefined);
    assert.equal(memo.known('fourth'), 6);
    assert.equal(computed, 3);
  });
});
