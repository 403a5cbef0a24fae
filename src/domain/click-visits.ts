import { NO_LANGUAGE } from './accept-language.js';
import {
  BOT_DEVICE,
  NO_CITY,
  NO_REFERRER,
  UNKNOWN_COUNTRY,
  type BrowserClass,
  type DeviceClass,
  type OsClass,
} from './click-event.js';
import type { ClickBucket } from './click-fold.js';

/**
 * One counted click as the visit log keeps it (issue 23, ADR 0125): never an address,
 * never a user agent, only the dimensions. Unknown values are null.
 */
export interface Visit {
  readonly linkId: string;
  /** Epoch ms: the start of the click's second (of its hour, for clicks queued before). */
  readonly at: number;
  readonly country: string | null;
  readonly city: string | null;
  readonly device: DeviceClass;
  readonly os: OsClass;
  readonly browser: BrowserClass;
  readonly language: string | null;
  readonly referrerHost: string | null;
  readonly bot: boolean;
}

/** A bucket's visits: one per click, `clicks` alike (the log keeps them as one row: ADR 0130). */
export interface VisitsOfBucket {
  readonly visit: Visit;
  readonly clicks: number;
}

/** The start of a bucket's second; its hour's for tallies from before seconds were kept. */
export const bucketSecond = (bucket: ClickBucket): number => bucket.second ?? bucket.hour;

/**
 * A bucket's values as the visit log keeps them, unknown ones null: one definition for
 * `visitsOf` and the embedded store's visit blocks, which build rows without a Visit each.
 */
export const visitCountry = (bucket: ClickBucket): string | null =>
  bucket.country === UNKNOWN_COUNTRY ? null : bucket.country;
export const visitCity = (bucket: ClickBucket): string | null =>
  bucket.city === NO_CITY ? null : bucket.city;
export const visitLanguage = (bucket: ClickBucket): string | null =>
  (bucket.language ?? NO_LANGUAGE) === NO_LANGUAGE ? null : (bucket.language ?? null);
export const visitReferrerHost = (bucket: ClickBucket): string | null =>
  bucket.referrer === NO_REFERRER ? null : bucket.referrer;
export const isBotVisit = (bucket: ClickBucket): boolean => bucket.device === BOT_DEVICE;

/** The visits of a fold's counted buckets, one entry per bucket with its click count. */
export function visitsOf(buckets: readonly ClickBucket[]): VisitsOfBucket[] {
  return buckets.map((bucket) => ({
    visit: {
      linkId: bucket.linkId,
      at: bucketSecond(bucket),
      country: visitCountry(bucket),
      city: visitCity(bucket),
      device: bucket.device,
      os: bucket.os,
      browser: bucket.browser,
      language: visitLanguage(bucket),
      referrerHost: visitReferrerHost(bucket),
      bot: isBotVisit(bucket),
    },
    clicks: bucket.clicks,
  }));
}

type Counts = Record<string, number>;

/** The clicks of one link and second, as one fold counted them (ClickEventRecord's body). */
export interface ClickSecond {
  readonly linkId: string;
  readonly second: number;
  clicks: number;
  botClicks: number;
  readonly countries: Counts;
  readonly devices: Counts;
  readonly browsers: Counts;
  readonly oses: Counts;
  readonly referrers: Counts;
  readonly languages: Counts;
}

/**
 * A fold's counted buckets summed per link and second: the `link.clicked` events of issue
 * 23, written by the same fold. Bots are counted apart and are in no dimension (ADR 0094);
 * a click whose country (`ZZ`), referrer or language is unknown is in none of those.
 */
export function clickSecondsOf(buckets: readonly ClickBucket[]): ClickSecond[] {
  const seconds = new Map<string, ClickSecond>();
  for (const bucket of buckets) {
    const second = bucketSecond(bucket);
    const key = `${bucket.linkId}\n${second}`;
    let sum = seconds.get(key);
    if (sum === undefined) {
      sum = {
        linkId: bucket.linkId,
        second,
        clicks: 0,
        botClicks: 0,
        countries: {},
        devices: {},
        browsers: {},
        oses: {},
        referrers: {},
        languages: {},
      };
      seconds.set(key, sum);
    }
    const n = bucket.clicks;
    if (bucket.device === BOT_DEVICE) {
      sum.botClicks += n;
      continue;
    }
    sum.clicks += n;
    add(sum.devices, bucket.device, n);
    add(sum.browsers, bucket.browser, n);
    add(sum.oses, bucket.os, n);
    if (bucket.country !== UNKNOWN_COUNTRY) add(sum.countries, bucket.country, n);
    if (bucket.referrer !== NO_REFERRER) add(sum.referrers, bucket.referrer, n);
    const language = bucket.language ?? NO_LANGUAGE;
    if (language !== NO_LANGUAGE) add(sum.languages, language, n);
  }
  return [...seconds.values()];
}

function add(counts: Counts, value: string, clicks: number): void {
  counts[value] = (counts[value] ?? 0) + clicks;
}

/** A click second's dimensions, as the click event log keeps them (one JSON value). */
export function dimensionsOf(second: ClickSecond): Record<string, Counts> {
  const { countries, devices, browsers, oses, referrers, languages } = second;
  return { countries, devices, browsers, oses, referrers, languages };
}
