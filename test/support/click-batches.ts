import type { ClickBatch } from '../../src/domain/click-batch.js';
import type { ClickEvent } from '../../src/domain/click-event.js';

/** Events of one instance with consecutive sequence numbers, as the flusher would batch them. */
export function batchOf(events: readonly ClickEvent[]): ClickBatch {
  const first = events[0];
  if (first === undefined) throw new Error('an empty batch');
  events.forEach((event, index) => {
    if (event.instance !== first.instance || event.seq !== first.seq + index) {
      throw new Error('a batch is one instance and consecutive sequence numbers');
    }
  });
  return {
    instance: first.instance,
    firstSeq: first.seq,
    size: events.length,
    linkIds: events.map((event) => event.linkId),
    codes: events.map((event) => event.code),
    at: Float64Array.from(events.map((event) => event.at)),
    countries: events.map((event) => event.country),
    devices: events.map((event) => event.device),
    referrers: events.map((event) => event.referrer),
    browsers: events.map((event) => event.browser),
    oses: events.map((event) => event.os),
    cities: events.map((event) => event.city),
    languages: events.map((event) => event.language ?? ''),
  };
}
