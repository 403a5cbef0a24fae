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

/** Sums a whole batch per bucket in one pass: `ClickTallyBuilder` over all of it. */
export function tallyOfBatch(batch: ClickBatch): ClickTally {
  const builder = new ClickTallyBuilder(batch);
  builder.add(0, batch.size);
  return builder.build();
}

type Count = { -readonly [K in keyof ClickBucket]: ClickBucket[K] };

/**
 * Sums a batch per bucket, a slice at a time, so that a caller may let other work run
 * between slices of a large batch (a whole flush). Buckets are found per link (one map
 * lookup on a string whose hash the engine keeps) and then among that link's few dimension
 * combinations, compared by identity first: the buffer hands over canonical strings, so no
 * key is built per click.
 */
export class ClickTallyBuilder {
  readonly #batch: ClickBatch;
  readonly #byLink = new Map<string, Count[]>();
  readonly #buckets: Count[] = [];
  #oldestAt = Infinity;
  #newestAt = -Infinity;
  #added = 0;

  constructor(batch: ClickBatch) {
    this.#batch = batch;
  }

  /** Adds clicks `from` (inclusive) to `to` (exclusive) of the batch; slices in order. */
  add(from: number, to: number): void {
    const batch = this.#batch;
    const end = Math.min(to, batch.size);
    for (let index = from; index < end; index++) {
      const at = batch.at[index] ?? 0;
      if (at < this.#oldestAt) this.#oldestAt = at;
      if (at > this.#newestAt) this.#newestAt = at;
      this.#count(
        batch.linkIds[index] ?? '',
        hourOf(at),
        batch.countries[index] ?? '',
        batch.devices[index] ?? 'other',
        batch.referrers[index] ?? '',
      );
    }
    this.#added += Math.max(0, end - from);
  }

  /** The tally of the whole batch; every click must have been added. */
  build(): ClickTally {
    const batch = this.#batch;
    if (this.#added !== batch.size) {
      throw new Error(`tally of ${this.#added} clicks of a batch of ${batch.size}`);
    }
    return {
      instance: batch.instance,
      fromSeq: batch.firstSeq,
      toSeq: batch.firstSeq + batch.size - 1,
      oldestAt: this.#oldestAt,
      newestAt: this.#newestAt,
      buckets: this.#buckets,
    };
  }

  #count(linkId: string, hour: number, country: string, device: Count['device'], referrer: string) {
    let counts = this.#byLink.get(linkId);
    if (counts === undefined) {
      counts = [];
      this.#byLink.set(linkId, counts);
    }
    for (const count of counts) {
      if (
        count.hour === hour &&
        count.country === country &&
        count.device === device &&
        count.referrer === referrer
      ) {
        count.clicks++;
        return;
      }
    }
    const count: Count = { linkId, hour, country, device, referrer, clicks: 1 };
    counts.push(count);
    this.#buckets.push(count);
  }
}
