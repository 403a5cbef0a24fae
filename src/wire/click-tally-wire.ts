import {
  BROWSER_CLASSES,
  DEVICE_CLASSES,
  isInstanceId,
  isSeq,
  NO_CITY,
  OS_CLASSES,
} from '../domain/click-event.js';
import type { BucketVisitor } from '../domain/click-sums.js';
import { hourOf, type ClickBucket } from '../domain/click-fold.js';
import type { ClickTally } from '../domain/click-tally.js';

/**
 * A tally as bytes, for handing one from `hop serve`'s event loop to its aggregator thread.
 * Written into one reused buffer, bucket by bucket, so that summing and sending a flush
 * makes almost nothing on the JavaScript heap (a JSON text of a tally is a string as large
 * as the flush, and the arrays it is made from more). Layout, little-endian: version
 * (u8); instance; fromSeq, toSeq, oldestAt, newestAt (f64 each); bucket count (u32); per
 * bucket: link id, second (f64, its first epoch millisecond), country (a word), device (u8, its index in DEVICE_CLASSES),
 * referrer (a word), browser and os (u8 each, their index in BROWSER_CLASSES and
 * OS_CLASSES), city (a word), language (a word), clicks (u32). A string is its length in bytes (u16), then its UTF-8. A
 * word is a string said once per tally: where it first comes, NEW_WORD (u32) and the
 * string; after that, its number (u32), counting from 0 in the order they came. Countries
 * and referrers repeat across a tally's buckets: each is written and decoded once, and the
 * decoded buckets share one string for it. Version 2 (before issue 21) had no browser, os
 * or city: it still decodes, as `other`, `other` and no city, so a queue written by an
 * earlier hop folds after an upgrade. Version 3 (issue 21) had each bucket's hour where 4
 * (issue 23, ADR 0125) has its second, and no language: it decodes with its clicks at
 * the hour's start and no language.
 */
const VERSION = 4;
const VERSION_WITH_HOURS = 3;
const VERSION_WITHOUT_FACETS = 2;
const NEW_WORD = 0xffffffff;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit: 21,845 units fit a u16 length. */
const MAX_STRING_LENGTH = Math.floor(0xffff / 3);
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });
const INITIAL_BYTES = 64 * 1024;

const indexOf = (names: readonly string[]): ReadonlyMap<string, number> =>
  new Map(names.map((name, index) => [name, index]));
const DEVICE_INDEX = indexOf(DEVICE_CLASSES);
const BROWSER_INDEX = indexOf(BROWSER_CLASSES);
const OS_INDEX = indexOf(OS_CLASSES);

export class TallyWireWriter {
  readonly #words = new Map<string, number>();
  #bytes = new Uint8Array(INITIAL_BYTES);
  #view = new DataView(this.#bytes.buffer);
  #at = 0;
  #bucketsAt = 0;
  #buckets = 0;

  /** Starts a tally, forgetting the one before. */
  begin(instance: string, fromSeq: number, toSeq: number, oldestAt: number, newestAt: number) {
    this.#at = 0;
    this.#buckets = 0;
    this.#words.clear();
    this.#reserve(1);
    this.#bytes[this.#at++] = VERSION;
    this.#string(instance);
    this.#float(fromSeq);
    this.#float(toSeq);
    this.#float(oldestAt);
    this.#float(newestAt);
    this.#bucketsAt = this.#at;
    this.#uint32(0);
  }

  /** Writes one bucket (a function of its own, to hand to `ClickSums.forEachBucket`). */
  readonly bucket: BucketVisitor = (
    linkId,
    second,
    country,
    device,
    referrer,
    browser,
    os,
    city,
    language,
    clicks,
  ) => {
    this.#string(linkId);
    this.#float(second);
    this.#word(country);
    this.#reserve(1);
    this.#bytes[this.#at++] = DEVICE_INDEX.get(device) ?? DEVICE_CLASSES.indexOf('other');
    this.#word(referrer);
    this.#reserve(2);
    this.#bytes[this.#at++] = BROWSER_INDEX.get(browser) ?? BROWSER_CLASSES.indexOf('other');
    this.#bytes[this.#at++] = OS_INDEX.get(os) ?? OS_CLASSES.indexOf('other');
    this.#word(city);
    this.#word(language);
    this.#uint32(clicks);
    this.#buckets++;
  };

  /** The tally's bytes, in a buffer of their own (to transfer). */
  finish(): ArrayBuffer {
    this.#view.setUint32(this.#bucketsAt, this.#buckets, true);
    return this.#bytes.buffer.slice(0, this.#at);
  }

  #string(text: string): void {
    const clipped = text.length > MAX_STRING_LENGTH ? text.slice(0, MAX_STRING_LENGTH) : text;
    this.#reserve(2 + 3 * clipped.length);
    const { written } = utf8.encodeInto(clipped, this.#bytes.subarray(this.#at + 2));
    this.#view.setUint16(this.#at, written, true);
    this.#at += 2 + written;
  }

  #word(text: string): void {
    const known = this.#words.get(text);
    if (known !== undefined) {
      this.#uint32(known);
      return;
    }
    this.#words.set(text, this.#words.size);
    this.#uint32(NEW_WORD);
    this.#string(text);
  }

  #float(value: number): void {
    this.#reserve(8);
    this.#view.setFloat64(this.#at, value, true);
    this.#at += 8;
  }

  #uint32(value: number): void {
    this.#reserve(4);
    this.#view.setUint32(this.#at, value, true);
    this.#at += 4;
  }

  #reserve(bytes: number): void {
    if (this.#at + bytes <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#at + bytes));
    grown.set(this.#bytes.subarray(0, this.#at));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/** The tally the bytes hold, or null when they are not one (never throws). */
export function decodeTallyWire(bytes: ArrayBuffer | Uint8Array): ClickTally | null {
  const view =
    bytes instanceof Uint8Array
      ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : new DataView(bytes);
  let at = 0;
  const need = (bytes: number) => {
    if (at + bytes > view.byteLength) throw new WireError();
  };
  const string = () => {
    need(2);
    const length = view.getUint16(at, true);
    at += 2;
    need(length);
    let text: string;
    try {
      text = fromUtf8.decode(new Uint8Array(view.buffer, view.byteOffset + at, length));
    } catch {
      throw new WireError(); // not UTF-8: the decoder is fatal
    }
    at += length;
    return text;
  };
  const float = () => {
    need(8);
    const value = view.getFloat64(at, true);
    at += 8;
    return value;
  };
  const uint32 = () => {
    need(4);
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const words: string[] = [];
  const word = () => {
    const number = uint32();
    if (number !== NEW_WORD) {
      const known = words[number];
      if (known === undefined) throw new WireError();
      return known;
    }
    const text = string();
    words.push(text);
    return text;
  };
  const uint8 = () => {
    need(1);
    return view.getUint8(at++);
  };
  try {
    const version = uint8();
    if (
      version !== VERSION &&
      version !== VERSION_WITH_HOURS &&
      version !== VERSION_WITHOUT_FACETS
    ) {
      return null;
    }
    const facets = version !== VERSION_WITHOUT_FACETS;
    const seconds = version === VERSION;
    const instance = string();
    const fromSeq = float();
    const toSeq = float();
    const oldestAt = float();
    const newestAt = float();
    const count = uint32();
    if (!isInstanceId(instance) || !isSeq(fromSeq) || !isSeq(toSeq) || toSeq < fromSeq) {
      return null;
    }
    const buckets: ClickBucket[] = [];
    let clicks = 0;
    for (let index = 0; index < count; index++) {
      const linkId = string();
      const time = float();
      const hour = seconds ? hourOf(time) : time;
      const country = word();
      const device = DEVICE_CLASSES[uint8()];
      const referrer = word();
      const browser = facets ? BROWSER_CLASSES[uint8()] : 'other';
      const os = facets ? OS_CLASSES[uint8()] : 'other';
      const city = facets ? word() : NO_CITY;
      const language = seconds ? word() : '';
      const bucketClicks = uint32();
      if (
        device === undefined ||
        browser === undefined ||
        os === undefined ||
        bucketClicks === 0 ||
        !Number.isFinite(time)
      ) {
        return null;
      }
      clicks += bucketClicks;
      buckets.push({
        linkId,
        hour,
        country,
        device,
        referrer,
        browser,
        os,
        city,
        // Before version 4: absent, so the clicks stand at their hour's start.
        ...(seconds ? { second: time, language } : {}),
        clicks: bucketClicks,
      });
    }
    // Every id of the run is one of the clicks counted, and nothing follows.
    if (clicks !== toSeq - fromSeq + 1 || at !== view.byteLength) return null;
    return { instance, fromSeq, toSeq, oldestAt, newestAt, buckets };
  } catch (error) {
    if (error instanceof WireError) return null;
    throw error;
  }
}

/** Bytes cut short, a word never said, or a string that is not UTF-8. */
class WireError extends Error {}
