import type { ClickBatch } from '../../src/domain/click-batch.js';
import { hourOf, secondOf, type ClickBucket } from '../../src/domain/click-fold.js';
import type { ClickTally } from '../../src/domain/click-tally.js';

/**
 * A batch summed per bucket the plain way, one object per bucket: the reference the
 * production summing (`ClickSums`, `FlushTally`) is checked against, and a quick way for a
 * test to make a tally.
 */
export function tallyOfBatch(batch: ClickBatch): ClickTally {
  const byKey = new Map<string, { -readonly [K in keyof ClickBucket]: ClickBucket[K] }>();
  let oldestAt = Infinity;
  let newestAt = -Infinity;
  for (let index = 0; index < batch.size; index++) {
    const at = batch.at[index] ?? 0;
    oldestAt = Math.min(oldestAt, at);
    newestAt = Math.max(newestAt, at);
    const bucket = {
      linkId: batch.linkIds[index] ?? '',
      hour: hourOf(at),
      country: batch.countries[index] ?? '',
      device: batch.devices[index] ?? 'other',
      referrer: batch.referrers[index] ?? '',
      browser: batch.browsers[index] ?? 'other',
      os: batch.oses[index] ?? 'other',
      city: batch.cities[index] ?? '',
      second: secondOf(at),
      language: batch.languages?.[index] ?? '',
    };
    const key = JSON.stringify(bucket);
    const known = byKey.get(key);
    if (known === undefined) byKey.set(key, { ...bucket, clicks: 1 });
    else known.clicks++;
  }
  return {
    instance: batch.instance,
    fromSeq: batch.firstSeq,
    toSeq: batch.firstSeq + batch.size - 1,
    oldestAt,
    newestAt,
    buckets: [...byKey.values()],
  };
}

/** A tally as JSON, as hop queued tallies before the wire format (`decodeTally` reads it). */
export function legacyTallyJson(tally: ClickTally): string {
  return JSON.stringify({
    i: tally.instance,
    f: tally.fromSeq,
    t: tally.toSeq,
    o: tally.oldestAt,
    n: tally.newestAt,
    b: tally.buckets.map((b) => [b.linkId, b.hour, b.country, b.device, b.referrer, b.clicks]),
  });
}
