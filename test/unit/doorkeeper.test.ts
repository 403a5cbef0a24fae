import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Doorkeeper } from '../../src/codes/doorkeeper.js';

test('a key is admitted the second time it is asked for, not the first', () => {
  const doorkeeper = new Doorkeeper(100, 1);
  assert.equal(doorkeeper.admits('abc1234'), false);
  assert.equal(doorkeeper.admits('abc1234'), true);
  assert.equal(doorkeeper.admits('abc1234'), true);
  assert.equal(doorkeeper.admits('xyz9876'), false);
});

test('a remembered key is admitted at once', () => {
  const doorkeeper = new Doorkeeper(100, 1);
  doorkeeper.remember('abc1234');
  assert.equal(doorkeeper.admits('abc1234'), true);
});

test('a key is remembered through one more window of first sightings, not two', () => {
  const doorkeeper = new Doorkeeper(1_000, 2);
  doorkeeper.admits('abc1234');
  for (let i = 0; i < 1_000; i++) doorkeeper.admits(`one-${i}`);
  assert.equal(doorkeeper.admits('abc1234'), true, 'in the older generation');
  const forgetful = new Doorkeeper(1_000, 2);
  forgetful.admits('abc1234');
  // 2,000 and a margin: a key that passes for seen (about 1%) is not counted as recorded.
  for (let i = 0; i < 2_100; i++) forgetful.admits(`two-${i}`);
  assert.equal(forgetful.admits('abc1234'), false, 'both generations since dropped it');
});

test("of 10,000 keys never asked for, about 1% pass for seen (the Bloom filters' rate)", () => {
  const doorkeeper = new Doorkeeper(10_000, 3);
  for (let i = 0; i < 10_000; i++) doorkeeper.remember(`seen-${i}`);
  let passed = 0;
  for (let i = 0; i < 10_000; i++) if (doorkeeper.admits(`never-${i}`)) passed++;
  // Each probe that fails also records its key: the newer filter fills as the loop goes.
  assert.ok(passed < 400, `${passed} of 10,000`);
});
