import type { ClickBatch } from './click-batch.js';
import type { BrowserClass, DeviceClass, OsClass } from './click-event.js';
import { secondOf } from './click-fold.js';

/** Link ids remembered between batches; past this, the dictionary starts afresh. */
const MAX_LINKS = 100_000;
/** Buckets (and links) there is room for from the start: 16,384 take about 400 kB. */
const INITIAL_BUCKETS = 16_384;

/** One bucket's sum, as `ClickSums.forEachBucket` hands it over. */
export type BucketVisitor = (
  linkId: string,
  /** The epoch millisecond the clicks' second starts (its hour follows from it). */
  second: number,
  country: string,
  device: DeviceClass,
  referrer: string,
  browser: BrowserClass,
  os: OsClass,
  city: string,
  language: string,
  clicks: number,
) => void;

/**
 * A batch's clicks summed per bucket (link, second, country, device, referrer, browser, os,
 * city, language), in memory
 * that is kept from one batch to the next: typed arrays and reused columns instead of an
 * object and an array per bucket, and a dictionary of link ids instead of a map made per
 * batch. `hop serve`'s event loop sums a flush every second; what that allocated each time
 * was found to cost redirects (BENCHMARKS.md, 2026-12-03). A link's few dimension
 * combinations are compared by identity first: the buffer hands over canonical strings, so
 * no key is built per click.
 */
export class ClickSums {
  readonly #linkIndex = new Map<string, number>();
  #linkIds: string[] = [];
  /** Per link: its first bucket in this batch, valid when its epoch is this batch's. */
  #linkHead: Int32Array<ArrayBuffer>;
  #linkEpoch: Int32Array<ArrayBuffer>;
  #epoch = 0;
  #buckets = 0;
  #bucketLink: Int32Array<ArrayBuffer>;
  #bucketSecond: Float64Array<ArrayBuffer>;
  #bucketClicks: Int32Array<ArrayBuffer>;
  /** The link's next bucket in this batch, or -1. */
  #bucketNext: Int32Array<ArrayBuffer>;
  readonly #bucketCountry: string[];
  readonly #bucketDevice: DeviceClass[];
  readonly #bucketReferrer: string[];
  readonly #bucketBrowser: BrowserClass[];
  readonly #bucketOs: OsClass[];
  readonly #bucketCity: string[];
  readonly #bucketLanguage: string[];

  /** `initialBuckets`: room made at once, for buckets and for links. */
  constructor(initialBuckets = INITIAL_BUCKETS) {
    this.#linkHead = new Int32Array(initialBuckets);
    this.#linkEpoch = new Int32Array(initialBuckets);
    this.#bucketLink = new Int32Array(initialBuckets);
    this.#bucketSecond = new Float64Array(initialBuckets);
    this.#bucketClicks = new Int32Array(initialBuckets);
    this.#bucketNext = new Int32Array(initialBuckets);
    this.#bucketCountry = new Array<string>(initialBuckets).fill('');
    this.#bucketDevice = new Array<DeviceClass>(initialBuckets).fill('other');
    this.#bucketReferrer = new Array<string>(initialBuckets).fill('');
    this.#bucketBrowser = new Array<BrowserClass>(initialBuckets).fill('other');
    this.#bucketOs = new Array<OsClass>(initialBuckets).fill('other');
    this.#bucketCity = new Array<string>(initialBuckets).fill('');
    this.#bucketLanguage = new Array<string>(initialBuckets).fill('');
  }

  /** Time of the batch's oldest and newest click. */
  oldestAt = Infinity;
  newestAt = -Infinity;

  /** Sums `batch`, forgetting the batch before. */
  sum(batch: ClickBatch): void {
    this.begin();
    this.add(batch);
  }

  /** Forgets the sums before: what `add` sums next is a new batch's. */
  begin(): void {
    this.#epoch++;
    this.#buckets = 0;
    this.oldestAt = Infinity;
    this.newestAt = -Infinity;
    if (this.#linkIndex.size > MAX_LINKS) {
      this.#linkIndex.clear();
      this.#linkIds = [];
    }
  }

  /** Adds `batch`'s clicks to the sums begun last: one batch summed in parts sums alike. */
  add(batch: ClickBatch): void {
    for (let index = 0; index < batch.size; index++) {
      const at = batch.at[index] ?? 0;
      if (at < this.oldestAt) this.oldestAt = at;
      if (at > this.newestAt) this.newestAt = at;
      // Per second, not per hour (issue 23): the fold writes each click's visit and the
      // per-second click events. A flush spans about one second, so this adds few buckets.
      this.#count(batch, index, secondOf(at));
    }
  }

  /** Each bucket of the last batch summed, in the order first clicked. */
  forEachBucket(visit: BucketVisitor): void {
    for (let bucket = 0; bucket < this.#buckets; bucket++) {
      visit(
        this.#linkIds[this.#bucketLink[bucket] ?? 0] ?? '',
        this.#bucketSecond[bucket] ?? 0,
        this.#bucketCountry[bucket] ?? '',
        this.#bucketDevice[bucket] ?? 'other',
        this.#bucketReferrer[bucket] ?? '',
        this.#bucketBrowser[bucket] ?? 'other',
        this.#bucketOs[bucket] ?? 'other',
        this.#bucketCity[bucket] ?? '',
        this.#bucketLanguage[bucket] ?? '',
        this.#bucketClicks[bucket] ?? 0,
      );
    }
  }

  /** Counts the batch's `index`th click in its bucket. */
  #count(batch: ClickBatch, index: number, second: number) {
    const linkId = batch.linkIds[index] ?? '';
    const country = batch.countries[index] ?? '';
    const device = batch.devices[index] ?? 'other';
    const referrer = batch.referrers[index] ?? '';
    const browser = batch.browsers[index] ?? 'other';
    const os = batch.oses[index] ?? 'other';
    const city = batch.cities[index] ?? '';
    const language = batch.languages?.[index] ?? '';
    let link = this.#linkIndex.get(linkId);
    if (link === undefined) {
      link = this.#linkIds.length;
      this.#linkIds.push(linkId);
      this.#linkIndex.set(linkId, link);
      if (link >= this.#linkHead.length) {
        this.#linkHead = grown(this.#linkHead, link);
        this.#linkEpoch = grown(this.#linkEpoch, link);
      }
    }
    let previous = -1;
    if (this.#linkEpoch[link] === this.#epoch) {
      // The link's few dimension combinations, compared by identity first: the buffer
      // hands over canonical strings.
      for (let bucket = this.#linkHead[link] ?? -1; bucket >= 0;) {
        if (
          this.#bucketSecond[bucket] === second &&
          this.#bucketCountry[bucket] === country &&
          this.#bucketDevice[bucket] === device &&
          this.#bucketReferrer[bucket] === referrer &&
          this.#bucketBrowser[bucket] === browser &&
          this.#bucketOs[bucket] === os &&
          this.#bucketCity[bucket] === city &&
          this.#bucketLanguage[bucket] === language
        ) {
          this.#bucketClicks[bucket] = (this.#bucketClicks[bucket] ?? 0) + 1;
          return;
        }
        previous = bucket;
        bucket = this.#bucketNext[bucket] ?? -1;
      }
    }
    const bucket = this.#buckets++;
    if (bucket >= this.#bucketLink.length) this.#growBuckets(bucket);
    this.#bucketLink[bucket] = link;
    this.#bucketSecond[bucket] = second;
    this.#bucketCountry[bucket] = country;
    this.#bucketDevice[bucket] = device;
    this.#bucketReferrer[bucket] = referrer;
    this.#bucketBrowser[bucket] = browser;
    this.#bucketOs[bucket] = os;
    this.#bucketCity[bucket] = city;
    this.#bucketLanguage[bucket] = language;
    this.#bucketClicks[bucket] = 1;
    this.#bucketNext[bucket] = -1;
    if (previous >= 0) {
      this.#bucketNext[previous] = bucket;
    } else {
      this.#linkHead[link] = bucket;
      this.#linkEpoch[link] = this.#epoch;
    }
  }

  #growBuckets(needed: number): void {
    this.#bucketLink = grown(this.#bucketLink, needed);
    this.#bucketClicks = grown(this.#bucketClicks, needed);
    this.#bucketNext = grown(this.#bucketNext, needed);
    const seconds = new Float64Array(Math.max(this.#bucketSecond.length * 2, needed + 1));
    seconds.set(this.#bucketSecond);
    this.#bucketSecond = seconds;
  }
}

function grown(array: Int32Array, needed: number): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(Math.max(array.length * 2, needed + 1));
  larger.set(array);
  return larger;
}
