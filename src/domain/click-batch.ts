import type { BrowserClass, ClickEvent, DeviceClass, OsClass } from './click-event.js';

/**
 * Clicks as the flusher sends them: one instance's run of sequence numbers
 * `firstSeq`…`firstSeq + size - 1`, column by column (no object per click). A column may be
 * longer than `size` (the buffer reuses its columns): read indexes below `size` only, and
 * only until the send it was given to has settled.
 */
export interface ClickBatch {
  readonly instance: string;
  readonly firstSeq: number;
  readonly size: number;
  readonly linkIds: readonly string[];
  readonly codes: readonly string[];
  /** Epoch milliseconds. */
  readonly at: Float64Array;
  readonly countries: readonly string[];
  readonly devices: readonly DeviceClass[];
  readonly referrers: readonly string[];
  readonly browsers: readonly BrowserClass[];
  readonly oses: readonly OsClass[];
  readonly cities: readonly string[];
  /** Primary language subtags, '' when not known (issue 23); absent: none known. */
  readonly languages?: readonly string[];
}

/** The `index`th click of a batch as one event (JetStream carries one per message). */
export function eventOf(batch: ClickBatch, index: number): ClickEvent {
  return {
    instance: batch.instance,
    seq: batch.firstSeq + index,
    linkId: batch.linkIds[index] ?? '',
    code: batch.codes[index] ?? '',
    at: batch.at[index] ?? 0,
    country: batch.countries[index] ?? '',
    device: batch.devices[index] ?? 'other',
    referrer: batch.referrers[index] ?? '',
    browser: batch.browsers[index] ?? 'other',
    os: batch.oses[index] ?? 'other',
    city: batch.cities[index] ?? '',
    language: batch.languages?.[index] ?? '',
  };
}
