import assert from 'node:assert/strict';
import type { TestServer } from './test-server.js';

/** Sends what the buffer holds to the queue and folds the queue: what `hop serve` does each second. */
export async function settleClicks(server: TestServer): Promise<void> {
  const clicks = server.runtime.clicks;
  assert.ok(clicks !== null);
  assert.equal(await clicks.flusher.flush(), true);
  // On PostgreSQL without NATS the flush itself folds into the store: nothing to drain.
  if (clicks.aggregator !== null) await clicks.aggregator.drain();
}
