import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ClickBatch } from '../domain/click-batch.js';
import { ClickTallyBuilder, type ClickTally } from '../domain/click-tally.js';

/**
 * Clicks summed per turn of the event loop: about a millisecond's work at most, when every
 * click of a flush is on a different link.
 */
const CLICKS_PER_SLICE = 5_000;

/**
 * A batch summed per bucket, a slice per turn of the event loop: an embedded flush is sent
 * as one batch (one queue row of sums per flush), and summing 100,000 clicks at once
 * would hold up the redirects behind it.
 */
export async function tallyInSlices(batch: ClickBatch): Promise<ClickTally> {
  const builder = new ClickTallyBuilder(batch);
  for (let from = 0; from < batch.size; from += CLICKS_PER_SLICE) {
    if (from > 0) await nextTurn();
    builder.add(from, from + CLICKS_PER_SLICE);
  }
  return builder.build();
}
