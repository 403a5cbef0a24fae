import { OTHER_REFERRER, type ClickEvent, type DeviceClass } from './click-event.js';
import { addSeqs, hasSeq, type SeqIntervals } from './seq-intervals.js';

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
  /** The new folded set of every instance this batch touched. */
  readonly seen: ReadonlyMap<string, SeqIntervals>;
  readonly counted: number;
  /** Events already folded (redelivered, or sent twice): not counted again. */
  readonly duplicates: number;
  /** Time of the newest event counted, or null when none was. */
  readonly newestAt: number | null;
}

export function linkHourKey(linkId: string, hour: number): string {
  return `${linkId}\n${hour}`;
}

export function hourOf(atMs: number): number {
  return atMs - (atMs % HOUR_MS);
}

/**
 * Folds a batch of events into hourly buckets (SPEC §6). At-least-once in, exactly once
 * counted: an event whose id is already in `state.seen`, or earlier in this batch, is
 * skipped. Referrer hosts are bounded: a link keeps at most `maxReferrers` hosts an hour;
 * further hosts are counted as `other`, so no input can create unbounded rows.
 */
export function planFold(
  events: readonly ClickEvent[],
  state: FoldState,
  maxReferrers: number,
): FoldPlan {
  const seqsByInstance = new Map<string, number[]>();
  const batchSeqs = new Map<string, Set<number>>();
  const counts = new Map<string, { bucket: Omit<ClickBucket, 'clicks'>; clicks: number }>();
  const referrers = new Map<string, Set<string>>();
  const totals = new Map<string, number>();
  let counted = 0;
  let duplicates = 0;
  let newestAt: number | null = null;

  for (const event of events) {
    const folded = state.seen.get(event.instance);
    let inBatch = batchSeqs.get(event.instance);
    let newSeqs = seqsByInstance.get(event.instance);
    if (inBatch === undefined || newSeqs === undefined) {
      inBatch = new Set();
      newSeqs = [];
      batchSeqs.set(event.instance, inBatch);
      seqsByInstance.set(event.instance, newSeqs);
    }
    if (inBatch.has(event.seq) || (folded !== undefined && hasSeq(folded, event.seq))) {
      duplicates++;
      continue;
    }
    inBatch.add(event.seq);
    newSeqs.push(event.seq);

    const hour = hourOf(event.at);
    const referrer = boundReferrer(
      event.linkId,
      hour,
      event.referrer,
      state,
      referrers,
      maxReferrers,
    );
    const key = `${event.linkId}\n${hour}\n${event.country}\n${event.device}\n${referrer}`;
    const existing = counts.get(key);
    if (existing === undefined) {
      counts.set(key, {
        bucket: {
          linkId: event.linkId,
          hour,
          country: event.country,
          device: event.device,
          referrer,
        },
        clicks: 1,
      });
    } else {
      existing.clicks++;
    }
    totals.set(event.linkId, (totals.get(event.linkId) ?? 0) + 1);
    counted++;
    if (newestAt === null || event.at > newestAt) newestAt = event.at;
  }

  const seen = new Map<string, SeqIntervals>();
  for (const [instance, seqs] of seqsByInstance) {
    if (seqs.length > 0) seen.set(instance, addSeqs(state.seen.get(instance) ?? [], seqs));
  }
  const buckets = [...counts.values()].map(({ bucket, clicks }) => ({ ...bucket, clicks }));
  return { buckets, totals, seen, counted, duplicates, newestAt };
}

function boundReferrer(
  linkId: string,
  hour: number,
  referrer: string,
  state: FoldState,
  added: Map<string, Set<string>>,
  maxReferrers: number,
): string {
  if (referrer === OTHER_REFERRER) return referrer;
  const key = linkHourKey(linkId, hour);
  const stored = state.referrers.get(key);
  if (stored?.has(referrer) === true) return referrer;
  let mine = added.get(key);
  if (mine === undefined) {
    mine = new Set();
    added.set(key, mine);
  }
  if (mine.has(referrer)) return referrer;
  // `other` may already hold a row; it does not count against the bound.
  const distinct =
    (stored === undefined ? 0 : stored.size - (stored.has(OTHER_REFERRER) ? 1 : 0)) + mine.size;
  if (distinct >= maxReferrers) return OTHER_REFERRER;
  mine.add(referrer);
  return referrer;
}
