import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClickBuffer } from '../../src/clicks/click-buffer.js';
import { ClickDimensions } from '../../src/clicks/click-dimensions.js';
import { ClickFlusher, largestPeekFor } from '../../src/clicks/click-flusher.js';
import type { ClickSink } from '../../src/ports/click-sink.js';
import { decodeTallyWire } from '../../src/wire/click-tally-wire.js';
import type { ClickTally } from '../../src/domain/click-tally.js';
import { FlushTally } from '../../src/wire/flush-tally.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { StoreFoldingClickSink } from '../../src/clicks/store-folding-click-sink.js';
import { ManualClock } from '../support/manual-clock.js';

const AT = Date.UTC(2026, 11, 6, 15);

/**
 * A summing sink as the embedded aggregator thread's is (ADR 0143), over the real
 * FlushTally: what it sent, decoded, and the size of every slice it was handed.
 */
function summingSink(failSends = 0) {
  const tally = new FlushTally();
  const sent: ClickTally[] = [];
  const slices: number[] = [];
  let failuresLeft = failSends;
  const sink: ClickSink = {
    send: () => Promise.reject(new Error('a summing sink is sent to in slices')),
    close: () => Promise.resolve(),
    summing: {
      add: (slice) => {
        slices.push(slice.size);
        tally.add(slice);
      },
      send: async () => {
        const bytes = tally.finish();
        if (failuresLeft-- > 0) throw new Error('the thread is gone');
        const decoded = decodeTallyWire(bytes);
        assert.ok(decoded !== null);
        sent.push(decoded);
      },
      discard: () => {
        tally.discard();
      },
    },
  };
  return { sink, sent, slices };
}

function flusherOver(buffer: ClickBuffer, sink: ClickSink) {
  const failures: unknown[] = [];
  const flusher = new ClickFlusher({
    buffer,
    sink,
    instance: 'inst-f',
    intervalMs: 60_000,
    batchSize: buffer.capacity,
    onFailure: (error) => failures.push(error),
    onRecovery: () => undefined,
    onDropping: () => undefined,
  });
  return { flusher, failures };
}

function clicked(buffer: ClickBuffer, count: number, links: number) {
  for (let index = 0; index < count; index++) {
    buffer.push(
      `link-${index % links}`,
      `c${index % links}`,
      AT + index,
      undefined,
      undefined,
      'de',
    );
  }
}

const clicksIn = (tally: ClickTally) =>
  tally.buckets.reduce((sum, bucket) => sum + bucket.clicks, 0);

describe('ClickFlusher over a summing sink', () => {
  test("a buffer's outgoing columns: a send's clicks for a plain sink, a slice's for a summing one", () => {
    const plain: ClickSink = { send: () => Promise.resolve(), close: () => Promise.resolve() };
    assert.equal(largestPeekFor(plain, 5_000), 5_000, 'JetStream: HOP_CLICK_BATCH a send');
    assert.equal(largestPeekFor(summingSink().sink, 100_000), 1_000);
    assert.equal(largestPeekFor(summingSink().sink, 500), 500, 'never more than a send');
  });

  test('one send per flush, summed a thousand clicks a turn with the event loop free between', async () => {
    const { sink, sent, slices } = summingSink();
    // Made as the pipeline makes it: outgoing columns for one slice, not for the whole send.
    assert.equal(largestPeekFor(sink, 20_000), 1_000);
    const buffer = new ClickBuffer(20_000, new ClickDimensions(), largestPeekFor(sink, 20_000));
    clicked(buffer, 4_500, 300);
    const { flusher } = flusherOver(buffer, sink);
    // Turns the event loop takes while the flush runs: a redirect would be answered in each.
    let turns = 0;
    let flushing = true;
    const turn = () => {
      turns++;
      if (flushing) setImmediate(turn);
    };
    setImmediate(turn);
    const flushed = flusher.flush();
    // Clicks of redirects answered during the flush: behind it, for the next one.
    clicked(buffer, 7, 7);
    assert.equal(await flushed, true);
    flushing = false;
    assert.deepEqual(slices, [1_000, 1_000, 1_000, 1_000, 500]);
    assert.ok(turns >= slices.length - 1, `the loop turned ${turns} times between slices`);
    assert.equal(sent.length, 1, 'one send, one tally');
    const [tally] = sent;
    assert.ok(tally !== undefined);
    assert.equal(tally.instance, 'inst-f');
    assert.equal(tally.fromSeq, 0);
    assert.equal(tally.toSeq, 4_499);
    assert.equal(clicksIn(tally), 4_500);
    assert.equal(buffer.size, 7);
    assert.equal(flusher.flushed, 4_500);
    assert.equal(await flusher.flush(), true);
    assert.equal(sent[1]?.fromSeq, 4_500);
    assert.equal(sent[1] === undefined ? 0 : clicksIn(sent[1]), 7);
  });

  test('a failed send keeps every click; the next flush sends them all, summed afresh', async () => {
    const buffer = new ClickBuffer(10_000, new ClickDimensions());
    clicked(buffer, 2_300, 40);
    const { sink, sent } = summingSink(1);
    const { flusher, failures } = flusherOver(buffer, sink);
    assert.equal(await flusher.flush(), false);
    assert.equal(failures.length, 1);
    assert.equal(buffer.size, 2_300, 'nothing discarded');
    assert.equal(sent.length, 0);
    assert.equal(await flusher.flush(), true);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.fromSeq, 0);
    assert.equal(sent[0]?.toSeq, 2_299);
    assert.equal(sent[0] === undefined ? 0 : clicksIn(sent[0]), 2_300, 'each click once');
    assert.equal(buffer.size, 0);
  });

  test('a store-folding sink folds a flush summed in slices once, every click counted', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-flusher-'));
    const store = SqliteStore.open({ file: join(dir, 'hop.db') });
    t.after(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const sink = new StoreFoldingClickSink(store.clicks, 50, new ManualClock(AT));
    const buffer = new ClickBuffer(10_000, new ClickDimensions());
    clicked(buffer, 3_200, 4);
    const { flusher } = flusherOver(buffer, sink);
    assert.equal(await flusher.flush(), true);
    assert.equal(sink.folded, 3_200);
    const totals = await store.clicks.totals(['link-0', 'link-1', 'link-2', 'link-3']);
    assert.deepEqual(
      [...totals.values()].map((counts) => counts.clicks),
      [800, 800, 800, 800],
    );
  });
});
