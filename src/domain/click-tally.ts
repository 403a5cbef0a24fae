import type { ClickEvent } from './click-event.js';
import { hourOf, secondOf, type ClickBucket } from './click-fold.js';

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
        browser: event.browser,
        os: event.os,
        city: event.city,
        second: secondOf(event.at),
        language: event.language ?? '',
        clicks: 1,
      },
    ],
  };
}
