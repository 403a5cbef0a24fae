import type { ClickBatch } from './click-batch.js';
import type { ClickEvent } from './click-event.js';
import { hourOf, type ClickBucket } from './click-fold.js';

/**
 * Clicks of one run of event ids (`instance`, `fromSeq`…`toSeq`), summed per hourly
 * bucket: what the aggregator folds, all of it or (when its ids were folded before) none.
 * A flushed batch is one tally; a JetStream message, one event, is a tally of one.
 */
export interface ClickTally {
  readonly instance: string;
  readonly fromSeq: number;
  /** Inclusive. */
  readonly toSeq: number;
  readonly oldestAt: number;
  readonly newestAt: number;
  readonly buckets: readonly ClickBucket[];
}

export function tallyOfEvent(event: ClickEvent): ClickTally {
  return {
    instance: event.instance,
    fromSeq: event.seq,
    toSeq: event.seq,
    oldestAt: event.at,
    newestAt: event.at,
    buckets: [
      {
        linkId: event.linkId,
        hour: hourOf(event.at),
        country: event.country,
        device: event.device,
        referrer: event.referrer,
        clicks: 1,
      },
    ],
  };
}

/** Sums a batch per bucket in one pass: a second of clicks on a few links is a few rows. */
export function tallyOfBatch(batch: ClickBatch): ClickTally {
  type Count = { bucket: Omit<ClickBucket, 'clicks'>; clicks: number };
  const counts = new Map<string, Count>();
  let oldestAt = Infinity;
  let newestAt = -Infinity;
  // Clicks come in runs (a popular link, one browser): a click like the one before it is
  // counted without building its key.
  let previous: Count | null = null;
  for (let index = 0; index < batch.size; index++) {
    const at = batch.at[index] ?? 0;
    if (at < oldestAt) oldestAt = at;
    if (at > newestAt) newestAt = at;
    const linkId = batch.linkIds[index] ?? '';
    const hour = hourOf(at);
    const country = batch.countries[index] ?? '';
    const device = batch.devices[index] ?? 'other';
    const referrer = batch.referrers[index] ?? '';
    if (
      previous !== null &&
      previous.bucket.linkId === linkId &&
      previous.bucket.hour === hour &&
      previous.bucket.country === country &&
      previous.bucket.device === device &&
      previous.bucket.referrer === referrer
    ) {
      previous.clicks++;
      continue;
    }
    const key = `${linkId}\n${hour}\n${country}\n${device}\n${referrer}`;
    let count = counts.get(key);
    if (count === undefined) {
      count = { bucket: { linkId, hour, country, device, referrer }, clicks: 0 };
      counts.set(key, count);
    }
    count.clicks++;
    previous = count;
  }
  return {
    instance: batch.instance,
    fromSeq: batch.firstSeq,
    toSeq: batch.firstSeq + batch.size - 1,
    oldestAt,
    newestAt,
    buckets: [...counts.values()].map(({ bucket, clicks }) => ({ ...bucket, clicks })),
  };
}
