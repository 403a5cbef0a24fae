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

/**
 * Sums a batch per bucket in one pass: a second of clicks on a few links is a few rows.
 * Buckets are found per link (one map lookup on a string whose hash the engine keeps) and
 * then among that link's few dimension combinations, compared by identity first: the
 * buffer hands over canonical strings, so no key is built per click.
 */
export function tallyOfBatch(batch: ClickBatch): ClickTally {
  type Count = { -readonly [K in keyof ClickBucket]: ClickBucket[K] };
  const byLink = new Map<string, Count[]>();
  const buckets: Count[] = [];
  let oldestAt = Infinity;
  let newestAt = -Infinity;
  for (let index = 0; index < batch.size; index++) {
    const at = batch.at[index] ?? 0;
    if (at < oldestAt) oldestAt = at;
    if (at > newestAt) newestAt = at;
    const linkId = batch.linkIds[index] ?? '';
    const hour = hourOf(at);
    const country = batch.countries[index] ?? '';
    const device = batch.devices[index] ?? 'other';
    const referrer = batch.referrers[index] ?? '';
    let counts = byLink.get(linkId);
    if (counts === undefined) {
      counts = [];
      byLink.set(linkId, counts);
    }
    let found = false;
    for (const count of counts) {
      if (
        count.hour === hour &&
        count.country === country &&
        count.device === device &&
        count.referrer === referrer
      ) {
        count.clicks++;
        found = true;
        break;
      }
    }
    if (!found) {
      const count: Count = { linkId, hour, country, device, referrer, clicks: 1 };
      counts.push(count);
      buckets.push(count);
    }
  }
  return {
    instance: batch.instance,
    fromSeq: batch.firstSeq,
    toSeq: batch.firstSeq + batch.size - 1,
    oldestAt,
    newestAt,
    buckets,
  };
}
