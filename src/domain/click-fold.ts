import {
  BOT_DEVICE,
  NO_CITY,
  NO_REFERRER,
  OTHER_CITY,
  OTHER_REFERRER,
  type BrowserClass,
  type DeviceClass,
  type OsClass,
} from './click-event.js';
import type { ClickTally } from './click-tally.js';
import { insertRange, overlaps, type SeqIntervals } from './seq-intervals.js';

export const HOUR_MS = 3_600_000;

/** Clicks of one link, hour and value of every dimension, as tallies carry them. */
export interface ClickBucket {
  readonly linkId: string;
  /** The epoch millisecond the hour starts. */
  readonly hour: number;
  readonly country: string;
  readonly device: DeviceClass;
  readonly referrer: string;
  readonly browser: BrowserClass;
  readonly os: OsClass;
  /** NO_CITY ('') when not known. */
  readonly city: string;
  /**
   * The epoch millisecond the clicks' second starts (issue 23: visits and click events);
   * absent in tallies written before it, whose clicks are placed at their hour's start.
   */
  readonly second?: number;
  /** Accept-Language's primary subtag; '' or absent when not known (ADR 0125). */
  readonly language?: string;
  readonly clicks: number;
}

/** One row of `click_hourly` (SPEC §4): a bucket without the facets. */
export type HourlyBucket = Omit<ClickBucket, 'browser' | 'os' | 'city' | 'second' | 'language'>;

/**
 * Issue 21's further dimensions, counted in `click_hourly_facets` (ADR 0109), not in
 * `click_hourly`'s key, whose rows would multiply by every combination: `agent`, a
 * browser and an operating system together (`chrome/windows`: one row where the two
 * apart took two, for every link and hour a fold touches), and `city`.
 */
export const CLICK_FACETS = ['agent', 'city'] as const;
export type ClickFacet = (typeof CLICK_FACETS)[number];

/** The dimensions a summary reads out of the facets. */
export const FACET_DIMENSIONS = ['browser', 'os', 'city'] as const;

/** Between an agent facet's browser and os; in neither's names. */
export const AGENT_SEPARATOR = '/';

const AGENT_VALUES = new Map<BrowserClass, Map<OsClass, string>>();

/** `browser/os`, one string per pair for the process: facets are found by identity. */
export function agentFacetValue(browser: BrowserClass, os: OsClass): string {
  let byOs = AGENT_VALUES.get(browser);
  if (byOs === undefined) {
    byOs = new Map();
    AGENT_VALUES.set(browser, byOs);
  }
  let value = byOs.get(os);
  if (value === undefined) {
    value = `${browser}${AGENT_SEPARATOR}${os}`;
    byOs.set(os, value);
  }
  return value;
}

/** One row of `click_hourly_facets`: people's clicks of a link, hour and facet value. */
export interface FacetBucket {
  readonly linkId: string;
  readonly hour: number;
  readonly facet: ClickFacet;
  readonly value: string;
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
  /** Per link and hour (`linkHourKey`), the cities that already have a row. */
  readonly cities?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What a fold writes: added to the counts, never replacing them. */
export interface FoldPlan {
  readonly buckets: readonly HourlyBucket[];
  /** People's clicks per browser, os and city (bots are in no dimension: ADR 0094). */
  readonly facets: readonly FacetBucket[];
  /** Clicks added per link, for its all-time totals. */
  readonly totals: ReadonlyMap<string, ClickCounts>;
  /** The new folded set of every instance this fold counted clicks of. */
  readonly seen: ReadonlyMap<string, SeqIntervals>;
  readonly counted: number;
  /** Clicks whose ids were folded before (redelivered, or sent twice): not counted again. */
  readonly duplicates: number;
  /** Time of the newest click counted, or null when none was. */
  readonly newestAt: number | null;
  /**
   * The buckets of the tallies counted, as they came (referrers and cities unbounded):
   * what the visit log and the click event log are written from (issue 23, ADR 0125).
   */
  readonly counts: readonly ClickBucket[];
}

/**
 * People's clicks per hour over all links of a fold's buckets: what `click_hour_totals`
 * adds, the dashboard's totals; bots' are left out (ADR 0094).
 */
export function clicksPerHour(buckets: readonly HourlyBucket[]): Map<number, number> {
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

export function secondOf(atMs: number): number {
  return atMs - (atMs % 1000);
}

/**
 * Folds tallies into hourly buckets (SPEC §6). At-least-once in, exactly once counted: a
 * tally any of whose event ids is already in `state.seen`, or in an earlier tally of this
 * fold, is skipped whole (a tally is one flushed batch or one event, so it is either all
 * new or all seen). Referrer hosts are bounded: a link keeps at most `maxReferrers` hosts
 * an hour; further hosts count as `other`, so no input can create unbounded rows. Cities
 * are bounded alike, by the same number (ADR 0109).
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
  const counts: ClickBucket[] = [];

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
      counts.push(bucket);
      let link = links.get(bucket.linkId);
      if (link === undefined) {
        link = new LinkFold(bucket.linkId);
        links.set(bucket.linkId, link);
      }
      const referrer =
        bucket.referrer === NO_REFERRER || bucket.referrer === OTHER_REFERRER
          ? bucket.referrer
          : link.boundReferrer(bucket.hour, bucket.referrer, state, maxReferrers);
      const city =
        bucket.city === NO_CITY || bucket.city === OTHER_CITY
          ? bucket.city
          : link.boundCity(bucket.hour, bucket.city, state, maxReferrers);
      link.add(bucket, referrer, city);
    }
    counted += size;
    if (newestAt === null || tally.newestAt > newestAt) newestAt = tally.newestAt;
  }

  const buckets: HourlyBucket[] = [];
  const facets: FacetBucket[] = [];
  const totals = new Map<string, ClickCounts>();
  for (const link of links.values()) {
    for (const bucket of link.buckets) buckets.push(bucket);
    for (const facet of link.facets) facets.push(facet);
    totals.set(link.linkId, { clicks: link.total, botClicks: link.botTotal });
  }
  const changed = new Map<string, SeqIntervals>();
  for (const [instance, intervals] of seen) {
    if (intervals.length > 0 && counted > 0) changed.set(instance, intervals);
  }
  return { buckets, facets, totals, seen: changed, counted, duplicates, newestAt, counts };
}

function facetKey(hour: number, facet: ClickFacet, value: string): string {
  return `${hour}\n${facet}\n${value}`;
}

type MutableBucket = { -readonly [K in keyof HourlyBucket]: HourlyBucket[K] };
type MutableFacet = { -readonly [K in keyof FacetBucket]: FacetBucket[K] };

/** Buckets this fold adds to one link, found without building a key per bucket. */
class LinkFold {
  readonly linkId: string;
  readonly buckets: MutableBucket[] = [];
  /**
   * Found by identity, like buckets (facet values are the buffer's canonical strings), and
   * keyed `hour \n facet \n value` only past a handful: a fold adds two or three facets
   * per bucket, and a key string built for each showed in its profile.
   */
  readonly facets: MutableFacet[] = [];
  #facetIndex: Map<string, MutableFacet> | null = null;
  /** People's clicks and bots', apart (ADR 0094). */
  total = 0;
  botTotal = 0;
  /** Past a handful of buckets, a keyed index (a link clicked from many places). */
  #index: Map<string, MutableBucket> | null = null;
  /**
   * Made on a link's first referrer host or city: most clicks name neither, and a fold
   * over many links holds one LinkFold per link until it commits.
   */
  #hosts: ValuesPerHour | null = null;
  #cities: ValuesPerHour | null = null;

  constructor(linkId: string) {
    this.linkId = linkId;
  }

  add(bucket: ClickBucket, referrer: string, city: string): void {
    if (bucket.device === BOT_DEVICE) this.botTotal += bucket.clicks;
    else {
      this.total += bucket.clicks;
      this.#addFacet(
        bucket.hour,
        'agent',
        agentFacetValue(bucket.browser, bucket.os),
        bucket.clicks,
      );
      if (city !== NO_CITY) this.#addFacet(bucket.hour, 'city', city, bucket.clicks);
    }
    const found = this.#find(bucket, referrer);
    if (found !== undefined) {
      found.clicks += bucket.clicks;
      return;
    }
    const fresh: MutableBucket = {
      linkId: bucket.linkId,
      hour: bucket.hour,
      country: bucket.country,
      device: bucket.device,
      referrer,
      clicks: bucket.clicks,
    };
    this.buckets.push(fresh);
    if (this.#index !== null) this.#index.set(keyOf(fresh), fresh);
    else if (this.buckets.length > 8) {
      this.#index = new Map(this.buckets.map((known) => [keyOf(known), known]));
    }
  }

  /** The host, or `other` once this link has `maxReferrers` hosts in that hour. */
  boundReferrer(hour: number, host: string, state: FoldState, maxReferrers: number): string {
    this.#hosts ??= new ValuesPerHour(OTHER_REFERRER);
    return this.#hosts.bound(hour, host, maxReferrers, () =>
      state.referrers.get(linkHourKey(this.linkId, hour)),
    );
  }

  /** The city, or `other` once this link has `maxCities` cities in that hour. */
  boundCity(hour: number, city: string, state: FoldState, maxCities: number): string {
    this.#cities ??= new ValuesPerHour(OTHER_CITY);
    return this.#cities.bound(hour, city, maxCities, () =>
      state.cities?.get(linkHourKey(this.linkId, hour)),
    );
  }

  #addFacet(hour: number, facet: ClickFacet, value: string, clicks: number): void {
    const known =
      this.#facetIndex === null
        ? this.facets.find((f) => f.hour === hour && f.facet === facet && f.value === value)
        : this.#facetIndex.get(facetKey(hour, facet, value));
    if (known !== undefined) {
      known.clicks += clicks;
      return;
    }
    const fresh: MutableFacet = { linkId: this.linkId, hour, facet, value, clicks };
    this.facets.push(fresh);
    if (this.#facetIndex !== null) this.#facetIndex.set(facetKey(hour, facet, value), fresh);
    else if (this.facets.length > 16) {
      this.#facetIndex = new Map(this.facets.map((f) => [facetKey(f.hour, f.facet, f.value), f]));
    }
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

/**
 * One link's values of a bounded dimension per hour: those stored before this fold, and
 * those it added. Past the bound, a new value is `other` (which does not count against it).
 */
class ValuesPerHour {
  readonly #other: string;
  readonly #hours = new Map<
    number,
    { stored: ReadonlySet<string> | undefined; added: Set<string> }
  >();

  constructor(other: string) {
    this.#other = other;
  }

  bound(
    hour: number,
    value: string,
    max: number,
    storedOf: () => ReadonlySet<string> | undefined,
  ): string {
    let values = this.#hours.get(hour);
    if (values === undefined) {
      values = { stored: storedOf(), added: new Set() };
      this.#hours.set(hour, values);
    }
    if (values.stored?.has(value) === true || values.added.has(value)) return value;
    const stored =
      values.stored === undefined
        ? 0
        : values.stored.size - (values.stored.has(this.#other) ? 1 : 0);
    if (stored + values.added.size >= max) return this.#other;
    values.added.add(value);
    return value;
  }
}

function keyOf(bucket: Pick<ClickBucket, 'hour' | 'country' | 'device' | 'referrer'>): string {
  return `${bucket.hour}\n${bucket.country}\n${bucket.device}\n${bucket.referrer}`;
}
