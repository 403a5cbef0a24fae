import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { JetStreamClicks } from '../../src/adapters/nats/jetstream-clicks.js';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { ClickEvent } from '../../src/domain/click-event.js';
import { batchOf } from '../support/click-batches.js';
import { openTempSqliteStore } from '../support/temp-data.js';
import { NATS_URL, requireNats, uniqueStream } from '../support/require-nats.js';

function openClicks(t: TestContext, stream: string, ackWaitMs = 30_000): JetStreamClicks {
  const clicks = new JetStreamClicks({
    servers: [NATS_URL],
    stream,
    ackWaitMs,
    onStatus: () => undefined,
  });
  t.after(() => clicks.close());
  return clicks;
}

function events(count: number): ClickEvent[] {
  return Array.from({ length: count }, (_, seq) => ({
    instance: 'jsTest',
    seq,
    linkId: 'link-js',
    code: 'abc1234',
    at: Date.UTC(2026, 5, 1, 12) + seq,
    country: 'DE',
    device: 'desktop' as const,
    referrer: '',
    browser: 'chrome' as const,
    os: 'windows' as const,
    city: '',
  }));
}

/** Everything the consumer hands out, folded and acknowledged, until a fetch comes back empty. */
async function foldAll(source: JetStreamClicks, store: SqliteStore): Promise<number> {
  let delivered = 0;
  for (;;) {
    const delivery = await source.next(500);
    if (delivery === null) return delivered;
    delivered += delivery.tallies.length;
    await store.clicks.fold(delivery.tallies, 50);
    await delivery.ack();
  }
}

describe('JetStream click sink and source (shared NATS server)', () => {
  test('a batch published twice (a retry) is stored once; a fold without an ack is redelivered and not counted twice', async (t) => {
    if (!(await requireNats(t))) return;
    const stream = uniqueStream(t);
    const store = openTempSqliteStore(t);
    const publisher = openClicks(t, stream);
    const batch = batchOf(events(1000));
    await publisher.send(batch);
    await publisher.send(batch); // the PubAcks were lost, say: the flusher sends it all again

    // A worker folds the first delivery, then dies before acknowledging it.
    const doomed = openClicks(t, stream, 1000);
    const first = await doomed.next(400);
    assert.ok(first !== null);
    assert.equal(first.tallies.length, 400, 'one event a message');
    assert.deepEqual(await store.clicks.fold(first.tallies, 50), { counted: 400, duplicates: 0 });
    await doomed.close();

    // Another worker gets everything, the 400 again once their ack wait has passed.
    const survivor = openClicks(t, stream, 1000);
    let delivered = 0;
    // Bounded: each empty fetch waits a second; the redelivery comes after one.
    for (let round = 0; round < 10 && delivered < 1000; round++) {
      delivered += await foldAll(survivor, store);
    }
    assert.equal(
      delivered,
      1000,
      'the 600 never delivered and the 400 redelivered; no copy of the retry',
    );
    assert.equal((await store.clicks.totals(['link-js'])).get('link-js')?.clicks, 1000);
  });
});
