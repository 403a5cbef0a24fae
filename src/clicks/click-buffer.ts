import type { ClickBatch } from '../domain/click-batch.js';
import type { DeviceClass } from '../domain/click-event.js';
import type { ClickDimensions } from './click-dimensions.js';

/**
 * The bounded in-memory click buffer (SPEC §6): a ring of preallocated columns. A push
 * looks its header values up in the dimensions already known and keeps the canonical
 * answers, so it allocates nothing and a buffered click holds on to no string of its
 * request (those would outlive a young-generation collection and burden the old one); a
 * value never seen before is kept raw and parsed by the flusher. A full buffer drops the
 * click and counts it; nothing ever waits. Each accepted click gets this process's next
 * sequence number: with the instance id, its event id.
 */
export class ClickBuffer {
  readonly capacity: number;
  readonly #dimensions: ClickDimensions;
  readonly #linkIds: string[];
  readonly #codes: string[];
  readonly #at: Float64Array;
  readonly #devices: (DeviceClass | undefined)[];
  readonly #referrers: (string | undefined)[];
  readonly #countries: (string | undefined)[];
  /** The raw values, only where the canonical one was not known yet. */
  readonly #rawAgents: (string | undefined)[];
  readonly #rawReferers: (string | undefined)[];
  readonly #rawCountries: (string | undefined)[];
  #head = 0;
  #size = 0;
  /** Sequence number of the click at the head. */
  #headSeq = 0;
  /** Clicks refused because the buffer was full. */
  dropped = 0;

  constructor(capacity: number, dimensions: ClickDimensions) {
    this.capacity = capacity;
    this.#dimensions = dimensions;
    const column = <T>(value: T) => new Array<T>(capacity).fill(value);
    this.#linkIds = column('');
    this.#codes = column('');
    this.#at = new Float64Array(capacity);
    this.#devices = column<DeviceClass | undefined>(undefined);
    this.#referrers = column<string | undefined>(undefined);
    this.#countries = column<string | undefined>(undefined);
    this.#rawAgents = column<string | undefined>(undefined);
    this.#rawReferers = column<string | undefined>(undefined);
    this.#rawCountries = column<string | undefined>(undefined);
  }

  get size(): number {
    return this.#size;
  }

  /** Adds a click; false (and counted) when the buffer is full. */
  push(
    linkId: string,
    code: string,
    at: number,
    userAgent: string | undefined,
    referer: string | undefined,
    country: string | undefined,
  ): boolean {
    if (this.#size === this.capacity) {
      this.dropped++;
      return false;
    }
    let slot = this.#head + this.#size;
    if (slot >= this.capacity) slot -= this.capacity;
    const dimensions = this.#dimensions;
    this.#linkIds[slot] = linkId;
    this.#codes[slot] = code;
    this.#at[slot] = at;
    const device = dimensions.knownDevice(userAgent);
    this.#devices[slot] = device;
    this.#rawAgents[slot] = device === undefined ? userAgent : undefined;
    const referrer = dimensions.knownReferrer(referer);
    this.#referrers[slot] = referrer;
    this.#rawReferers[slot] = referrer === undefined ? referer : undefined;
    const countryCode = dimensions.knownCountry(country);
    this.#countries[slot] = countryCode;
    this.#rawCountries[slot] = countryCode === undefined ? country : undefined;
    this.#size++;
    return true;
  }

  /**
   * The oldest `count` clicks (or all there are) as one batch of `instance`, still held
   * until `discard`; raw values are resolved now.
   */
  peek(count: number, instance: string): ClickBatch {
    const size = Math.min(count, this.#size);
    const dimensions = this.#dimensions;
    const linkIds = new Array<string>(size);
    const codes = new Array<string>(size);
    const at = new Float64Array(size);
    const devices = new Array<DeviceClass>(size);
    const referrers = new Array<string>(size);
    const countries = new Array<string>(size);
    for (let index = 0; index < size; index++) {
      let slot = this.#head + index;
      if (slot >= this.capacity) slot -= this.capacity;
      linkIds[index] = this.#linkIds[slot] ?? '';
      codes[index] = this.#codes[slot] ?? '';
      at[index] = this.#at[slot] ?? 0;
      devices[index] = this.#devices[slot] ?? dimensions.device(this.#rawAgents[slot]);
      referrers[index] = this.#referrers[slot] ?? dimensions.referrer(this.#rawReferers[slot]);
      countries[index] = this.#countries[slot] ?? dimensions.country(this.#rawCountries[slot]);
    }
    return {
      instance,
      firstSeq: this.#headSeq,
      size,
      linkIds,
      codes,
      at,
      devices,
      referrers,
      countries,
    };
  }

  /** Forgets the oldest `count` clicks (they were sent). */
  discard(count: number): void {
    const removed = Math.min(count, this.#size);
    for (let index = 0; index < removed; index++) {
      let slot = this.#head + index;
      if (slot >= this.capacity) slot -= this.capacity;
      // Let go of the raw strings, so a quiet buffer holds nothing of any request.
      this.#rawAgents[slot] = undefined;
      this.#rawReferers[slot] = undefined;
      this.#rawCountries[slot] = undefined;
    }
    this.#head = (this.#head + removed) % this.capacity;
    this.#size -= removed;
    this.#headSeq += removed;
  }
}
