import { BOT_DEVICE, NO_REFERRER, OTHER_REFERRER, type DeviceClass } from './click-event.js';
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

/** A link's clicks: people's, and bots' counted apart (ADR 0094). */
export interface ClickCounts {
  readonly clicks: number;
  readonly botClicks: number;
}

export const NO_CLICKS: ClickCounts = Object.freeze({ clicks: 0, botClicks: 0 });

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
  /** Clicks added per link, for its all-time totals. */
  readonly totals: ReadonlyMap<string, ClickCounts>;
  /** The new folded set of every instance this fold counted clicks of. */
  readonly seen: ReadonlyMap<string, SeqIntervals>;
  readonly counted: number;
  /** Clicks whose ids were folded before (redelivered, or sent twice): not counted again. */
  readonly duplicates: number;
  /** Time of the newest click counted, or null when none was. */
  readonly newestAt: number | null;
}

/**
 * People's clicks per hour over all links of a fold's buckets: what `click_hour_totals`
 * adds, the dashboard's totals; bots' are left out (ADR 0094).
 */
export function clicksPerHour(buckets: readonly ClickBucket[]): Map<number, number> {
  const perHour = new Map<number, number>();
  for (const { hour, device, clicks } of buckets) {
    if (device !== BOT_DEVICE) perHour.set(hour, (perHour.get(hour) ?? 0) + clicks);
  }
  return perHour;
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
  const links = new Map<string, LinkFold>();
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
      let link = links.get(bucket.linkId);
      if (link === undefined) {
        link = new LinkFold(bucket.linkId);
        links.set(bucket.linkId, link);
      }
      const referrer =
        bucket.referrer === NO_REFERRER || bucket.referrer === OTHER_REFERRER
          ? bucket.referrer
          : link.boundReferrer(bucket.hour, bucket.referrer, state, maxReferrers);
      link.add(bucket, referrer);
    }
    counted += size;
    if (newestAt === null || tally.newestAt > newestAt) newestAt = tally.newestAt;
  }

  const buckets: ClickBucket[] = [];
  const totals = new Map<string, ClickCounts>();
  for (const link of links.values()) {
    for (const bucket of link.buckets) buckets.push(bucket);
    totals.set(link.linkId, { clicks: link.total, botClicks: link.botTotal });
  }
  const changed = new Map<string, SeqIntervals>();
  for (const [instance, intervals] of seen) {
    if (intervals.length > 0 && counted > 0) changed.set(instance, intervals);
  }
  return { buckets, totals, seen: changed, counted, duplicates, newestAt };
}

type MutableBucket = { -readonly [K in keyof ClickBucket]: ClickBucket[K] };

/** Buckets this fold adds to one link, found without building a key per bucket. */
class LinkFold {
  readonly linkId: string;
  readonly buckets: MutableBucket[] = [];
  /** People's clicks and bots', apart (ADR 0094). */
  total = 0;
  botTotal = 0;
  /** Past a handful of buckets, a keyed index (a link clicked from many places). */
  #index: Map<string, MutableBucket> | null = null;
  /** Per hour: referrer hosts stored before this fold, and those it added. */
  readonly #hosts = new Map<
    number,
    { stored: ReadonlySet<string> | undefined; added: Set<string> }
  >();

  constructor(linkId: string) {
    this.linkId = linkId;
  }

  add(bucket: ClickBucket, referrer: string): void {
    if (bucket.device === BOT_DEVICE) this.botTotal += bucket.clicks;
    else this.total += bucket.clicks;
    const found = this.#find(bucket, referrer);
    if (found !== undefined) {
      found.clicks += bucket.clicks;
      return;
    }
    const fresh: MutableBucket = { ...bucket, referrer };
    this.buckets.push(fresh);
    if (this.#index !== null) this.#index.set(keyOf(fresh), fresh);
    else if (this.buckets.length > 8) {
      this.#index = new Map(this.buckets.map((known) => [keyOf(known), known]));
    }
  }

  /** The host, or `other` once this link has `maxReferrers` hosts in that hour. */
  boundReferrer(hour: number, host: string, state: FoldState, maxReferrers: number): string {
    let hosts = this.#hosts.get(hour);
    if (hosts === undefined) {
      hosts = { stored: state.referrers.get(linkHourKey(this.linkId, hour)), added: new Set() };
      this.#hosts.set(hour, hosts);
    }
    if (hosts.stored?.has(host) === true || hosts.added.has(host)) return host;
    // `other` may already hold a row; it does not count against the bound.
    const stored =
      hosts.stored === undefined
        ? 0
        : hosts.stored.size - (hosts.stored.has(OTHER_REFERRER) ? 1 : 0);
    if (stored + hosts.added.size >= maxReferrers) return OTHER_REFERRER;
    hosts.added.add(host);
    return host;
  }

  #find(bucket: ClickBucket, referrer: string): MutableBucket | undefined {
    if (this.#index !== null) return this.#index.get(keyOf({ ...bucket, referrer }));
    for (const known of this.buckets) {
      if (
        known.hour === bucket.hour &&
        known.country === bucket.country &&
        known.device === bucket.device &&
        known.referrer === referrer
      ) {
        return known;
      }
    }
    return undefined;
  }
}

function keyOf(bucket: Omit<ClickBucket, 'clicks' | 'linkId'>): string {
  return `${bucket.hour}\n${bucket.country}\n${bucket.device}\n${bucket.referrer}`;
}
