import { OTHER_REFERRER, type DeviceClass } from './click-event.js';
import type { ClickTally } from './click-tally.js';
import { insertRange, overlaps, type SeqIntervals } from './seq-intervals.js';

export const HOUR_MS = 3_600_000;

/** One row of `click_hourly`: SPEC §4. `hour` is the epoch millisecond the hour starts. */
export interface ClickBucket {
  readonly linkId: string;
  readonly hour: number;
  readonly country: string;
  readonly device: DeviceClass;
  readonly referrer: string;
  readonly clicks: number;
}

/** What a store already holds that a fold must respect, read inside its transaction. */
export interface FoldState {
  /** Per instance, the event sequence numbers already folded. */
  readonly seen: ReadonlyMap<string, SeqIntervals>;
  /** Per link and hour (`linkHourKey`), the referrer hosts that already have a row. */
  readonly referrers: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What a fold writes: added to the counts, never replacing them. */
export interface FoldPlan {
  readonly buckets: readonly ClickBucket[];
  /** Clicks added per link, for its all-time total. */
  readonly totals: ReadonlyMap<string, number>;
  /** The new folded set of every instance this fold counted clicks of. */
  readonly seen: ReadonlyMap<string, SeqIntervals>;
  readonly counted: number;
  /** Clicks whose ids were folded before (redelivered, or sent twice): not counted again. */
  readonly duplicates: number;
  /** Time of the newest click counted, or null when none was. */
  readonly newestAt: number | null;
}

export function linkHourKey(linkId: string, hour: number): string {
  return `${linkId}\n${hour}`;
}

export function hourOf(atMs: number): number {
  return atMs - (atMs % HOUR_MS);
}

/**
 * Folds tallies into hourly buckets (SPEC §6). At-least-once in, exactly once counted: a
 * tally any of whose event ids is already in `state.seen`, or in an earlier tally of this
 * fold, is skipped whole (a tally is one flushed batch or one event, so it is either all
 * new or all seen). Referrer hosts are bounded: a link keeps at most `maxReferrers` hosts
 * an hour; further hosts count as `other`, so no input can create unbounded rows.
 */
export function planFold(
  tallies: readonly ClickTally[],
  state: FoldState,
  maxReferrers: number,
): FoldPlan {
  const seen = new Map<string, [number, number][]>();
  const counts = new Map<string, { bucket: Omit<ClickBucket, 'clicks'>; clicks: number }>();
  const referrers = new Map<string, Set<string>>();
  const totals = new Map<string, number>();
  let counted = 0;
  let duplicates = 0;
  let newestAt: number | null = null;

  for (const tally of tallies) {
    let folded = seen.get(tally.instance);
    if (folded === undefined) {
      folded = (state.seen.get(tally.instance) ?? []).map(([from, to]): [number, number] => [
        from,
        to,
      ]);
      seen.set(tally.instance, folded);
    }
    const size = tally.toSeq - tally.fromSeq + 1;
    if (overlaps(folded, tally.fromSeq, tally.toSeq)) {
      duplicates += size;
      continue;
    }
    insertRange(folded, tally.fromSeq, tally.toSeq);
    for (const bucket of tally.buckets) {
      const referrer = boundReferrer(bucket, state, referrers, maxReferrers);
      const key = `${bucket.linkId}\n${bucket.hour}\n${bucket.country}\n${bucket.device}\n${referrer}`;
      const existing = counts.get(key);
      if (existing === undefined) {
        counts.set(key, { bucket: { ...bucket, referrer }, clicks: bucket.clicks });
      } else {
        existing.clicks += bucket.clicks;
      }
      totals.set(bucket.linkId, (totals.get(bucket.linkId) ?? 0) + bucket.clicks);
    }
    counted += size;
    if (newestAt === null || tally.newestAt > newestAt) newestAt = tally.newestAt;
  }

  const buckets = [...counts.values()].map(({ bucket, clicks }) => ({
    linkId: bucket.linkId,
    hour: bucket.hour,
    country: bucket.country,
    device: bucket.device,
    referrer: bucket.referrer,
    clicks,
  }));
  const changed = new Map<string, SeqIntervals>();
  for (const [instance, intervals] of seen) {
    if (intervals.length > 0 && counted > 0) changed.set(instance, intervals);
  }
  return { buckets, totals, seen: changed, counted, duplicates, newestAt };
}

function boundReferrer(
  bucket: Omit<ClickBucket, 'clicks'>,
  state: FoldState,
  added: Map<string, Set<string>>,
  maxReferrers: number,
): string {
  const referrer = bucket.referrer;
  if (referrer === OTHER_REFERRER) return referrer;
  const key = linkHourKey(bucket.linkId, bucket.hour);
  const stored = state.referrers.get(key);
  if (stored?.has(referrer) === true) return referrer;
  let mine = added.get(key);
  if (mine === undefined) {
    mine = new Set();
    added.set(key, mine);
  }
  if (mine.has(referrer)) return referrer;
  // `other` may already hold a row; it does not count against the bound.
  const storedHosts = stored === undefined ? 0 : stored.size - (stored.has(OTHER_REFERRER) ? 1 : 0);
  if (storedHosts + mine.size >= maxReferrers) return OTHER_REFERRER;
  mine.add(referrer);
  return referrer;
}
