import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BoundedMemo } from '../../src/clicks/bounded-memo.js';
import { tallyInSlices } from '../../src/clicks/tally-in-slices.js';
import type { ClickEvent, DeviceClass } from '../../src/domain/click-event.js';
import { ClickTallyBuilder, tallyOfBatch } from '../../src/domain/click-tally.js';
import { batchOf } from '../support/click-batches.js';

const HOUR = Date.UTC(2026, 11, 3, 10);
const DEVICES: DeviceClass[] = ['desktop', 'mobile', 'tablet', 'bot', 'other'];

/** `count` clicks over `links` links, three hours, five devices and two referrers. */
function clicks(count: number, links: number): ClickEvent[] {
  return Array.from({ length: count }, (_, seq) => ({
    instance: 'inst-a',
    seq,
    linkId: `link-${seq % links}`,
    code: `code${seq % links}`,
    at: HOUR + (seq % 3) * 3_600_000 + seq,
    country: seq % 2 === 0 ? 'DE' : 'FR',
    device: DEVICES[seq % DEVICES.length] ?? 'other',
    referrer: seq % 7 === 0 ? '' : 'news.example.com',
  }));
}

/** Buckets in a canonical order, for comparing tallies summed in a different order. */
function sorted(buckets: readonly { linkId: string; hour: number; clicks: number }[]) {
  return [...buckets].map((bucket) => JSON.stringify(bucket)).sort();
}

describe('click tally', () => {
  test('a batch summed in slices is the batch summed at once', () => {
    const batch = batchOf(clicks(1_000, 37));
    const builder = new ClickTallyBuilder(batch);
    for (let from = 0; from < batch.size; from += 128) builder.add(from, from + 128);
    const sliced = builder.build();
    const whole = tallyOfBatch(batch);
    assert.equal(sliced.fromSeq, 0);
    assert.equal(sliced.toSeq, 999);
    assert.equal(sliced.oldestAt, whole.oldestAt);
    assert.equal(sliced.newestAt, whole.newestAt);
    assert.deepEqual(sorted(sliced.buckets), sorted(whole.buckets));
    assert.equal(
      sliced.buckets.reduce((sum, bucket) => sum + bucket.clicks, 0),
      1_000,
    );
  });

  test('a tally of part of a batch is refused: it would claim ids it did not count', () => {
    const builder = new ClickTallyBuilder(batchOf(clicks(10, 3)));
    builder.add(0, 9);
    assert.throws(() => builder.build(), /tally of 9 clicks of a batch of 10/);
  });

  test('a whole flush summed a slice per turn: every click once, in far fewer buckets', async () => {
    const batch = batchOf(clicks(23_456, 100));
    const tally = await tallyInSlices(batch);
    assert.equal(tally.toSeq - tally.fromSeq + 1, 23_456);
    assert.equal(
      tally.buckets.reduce((sum, bucket) => sum + bucket.clicks, 0),
      23_456,
    );
    assert.deepEqual(sorted(tally.buckets), sorted(tallyOfBatch(batch).buckets));
    assert.ok(tally.buckets.length < 23_456 / 5, `${tally.buckets.length} buckets`);
  });
});

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
