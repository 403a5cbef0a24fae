import type { ClickBatch } from '../domain/click-batch.js';
import {
  NO_CITY,
  UNKNOWN_COUNTRY,
  type AgentClass,
  type BrowserClass,
  type DeviceClass,
  type OsClass,
} from '../domain/click-event.js';
import type { ClickDimensions } from './click-dimensions.js';

/** The columns `peek` fills: a batch's, owned by the buffer. */
interface OutgoingColumns {
  linkIds: string[];
  codes: string[];
  at: Float64Array;
  devices: DeviceClass[];
  referrers: string[];
  countries: string[];
  browsers: BrowserClass[];
  oses: OsClass[];
  cities: string[];
  languages: string[];
}

/**
 * The bounded in-memory click buffer (SPEC §6): a ring of preallocated columns. A push
 * looks its header values up in the dimensions already known and keeps the canonical
 * answers, so it allocates nothing and a buffered click holds on to no string of its
 * request (those would outlive a young-generation collection and burden the old one); a
 * value never seen before is kept raw and parsed by the flusher. A full buffer drops the
 * click and counts it; nothing ever waits. Each accepted click gets this process's next
 * sequence number: with the instance id, its event id.
 *
 * A click pushed with its client's address instead of a country (no HOP_COUNTRY_HEADER)
 * keeps that address in memory until its flush, which looks it up (country, city) and
 * forgets it before anything is summed or sent: no address reaches a queue, JetStream or
 * a database (issue 21, ADR 0109).
 */
export class ClickBuffer {
  readonly capacity: number;
  readonly #dimensions: ClickDimensions;
  readonly #linkIds: string[];
  readonly #codes: string[];
  readonly #at: Float64Array;
  readonly #agents: (AgentClass | undefined)[];
  readonly #referrers: (string | undefined)[];
  readonly #countries: (string | undefined)[];
  /** The raw values, only where the canonical one was not known yet. */
  readonly #rawAgents: (string | undefined)[];
  readonly #rawReferers: (string | undefined)[];
  readonly #rawCountries: (string | undefined)[];
  /** The client's address, to be placed by the flusher; only without a country header. */
  readonly #addresses: (string | undefined)[];
  /** Cities of placed addresses (a failed send peeks them again). */
  readonly #cities: (string | undefined)[];
  /** The primary language, when this Accept-Language was seen before (ADR 0152). */
  readonly #languages: (string | undefined)[];
  /**
   * Accept-Language as sent, only where its language was not known yet: parsed at the flush,
   * never on the redirect (ADR 0125).
   */
  readonly #rawLanguages: (string | undefined)[];
  #out: OutgoingColumns | null = null;
  #head = 0;
  #size = 0;
  /** Sequence number of the click at the head. */
  #headSeq = 0;
  /** Clicks refused because the buffer was full. */
  dropped = 0;

  /**
   * `largestPeek`: the most clicks one `peek` will be asked for; the columns it fills are
   * made now, at start, and not while serving (growing them later makes garbage for the
   * old generation, see `peek`).
   */
  constructor(capacity: number, dimensions: ClickDimensions, largestPeek = capacity) {
    this.capacity = capacity;
    this.#dimensions = dimensions;
    const column = <T>(value: T) => new Array<T>(capacity).fill(value);
    this.#linkIds = column('');
    this.#codes = column('');
    this.#at = new Float64Array(capacity);
    this.#agents = column<AgentClass | undefined>(undefined);
    this.#referrers = column<string | undefined>(undefined);
    this.#countries = column<string | undefined>(undefined);
    this.#rawAgents = column<string | undefined>(undefined);
    this.#rawReferers = column<string | undefined>(undefined);
    this.#rawCountries = column<string | undefined>(undefined);
    this.#addresses = column<string | undefined>(undefined);
    this.#cities = column<string | undefined>(undefined);
    this.#languages = column<string | undefined>(undefined);
    this.#rawLanguages = column<string | undefined>(undefined);
    this.#outgoing(Math.min(largestPeek, capacity));
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Adds a click; false (and counted) when the buffer is full. `address`: the client's,
   * when its country is to be looked up (then `country` is ignored). `acceptLanguage`:
   * its language when this header value was seen before, else kept as it is and parsed by
   * the flusher.
   */
  push(
    linkId: string,
    code: string,
    at: number,
    userAgent: string | undefined,
    referer: string | undefined,
    country: string | undefined,
    address?: string,
    acceptLanguage?: string,
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
    const agent = dimensions.knownAgent(userAgent);
    this.#agents[slot] = agent;
    this.#rawAgents[slot] = agent === undefined ? userAgent : undefined;
    const referrer = dimensions.knownReferrer(referer);
    this.#referrers[slot] = referrer;
    this.#rawReferers[slot] = referrer === undefined ? referer : undefined;
    if (address === undefined) {
      const countryCode = dimensions.knownCountry(country);
      this.#countries[slot] = countryCode;
      this.#rawCountries[slot] = countryCode === undefined ? country : undefined;
    } else {
      this.#countries[slot] = undefined;
      this.#rawCountries[slot] = undefined;
      this.#addresses[slot] = undefined;
    }
    this.#addresses[slot] = address;
    this.#cities[slot] = undefined;
    // Canonical, like the agent: a request's own string kept until the flush outlived the
    // young generation's collections and was promoted, every click (ADR 0152).
    const language = dimensions.knownLanguage(acceptLanguage);
    this.#languages[slot] = language;
    this.#rawLanguages[slot] = language === undefined ? acceptLanguage : undefined;
    this.#size++;
    return true;
  }

  /**
   * The oldest `count` clicks (or all there are) past the oldest `from` (a slice of a send
   * summed in parts: ClickFlusher) as one batch of `instance`, still held
   * until `discard`; raw values are resolved now. The batch's columns are this buffer's own,
   * reused by the next peek and longer than the batch: read `[0, size)` only, and before
   * peeking again. A flush that allocated its columns anew would have them outlive a
   * young-generation collection while the sink works and be promoted; the old generation's
   * collections that follow were found to make the whole process slower (BENCHMARKS.md,
   * 2026-12-03).
   */
  peek(count: number, instance: string, from = 0): ClickBatch {
    const size = Math.max(0, Math.min(count, this.#size - from));
    const dimensions = this.#dimensions;
    const out = this.#outgoing(size);
    // Clicks of one connection come in runs with one address (the socket's own string):
    // placed once per run. Both are let go of when this peek returns.
    let lastAddress: string | undefined;
    let lastPlace: ReturnType<ClickDimensions['place']> = null;
    const first = this.#head + from;
    for (let index = 0; index < size; index++) {
      let slot = first + index;
      if (slot >= this.capacity) slot -= this.capacity;
      out.linkIds[index] = this.#linkIds[slot] ?? '';
      out.codes[index] = this.#codes[slot] ?? '';
      out.at[index] = this.#at[slot] ?? 0;
      const agent = this.#agents[slot] ?? dimensions.agent(this.#rawAgents[slot]);
      out.devices[index] = agent.device;
      out.browsers[index] = agent.browser;
      out.oses[index] = agent.os;
      out.referrers[index] = this.#referrers[slot] ?? dimensions.referrer(this.#rawReferers[slot]);
      let language = this.#languages[slot];
      if (language === undefined) {
        // Parsed now and kept, the raw header let go of: a failed send peeks the language.
        language = dimensions.language(this.#rawLanguages[slot]);
        this.#languages[slot] = language;
        this.#rawLanguages[slot] = undefined;
      }
      out.languages[index] = language;
      const address = this.#addresses[slot];
      if (address === undefined) {
        out.countries[index] =
          this.#countries[slot] ?? dimensions.country(this.#rawCountries[slot]);
        out.cities[index] = this.#cities[slot] ?? NO_CITY;
      } else {
        // Looked up here, at the flush, not on the redirect, and let go of at once: should
        // the send fail, the next peek finds the place, not the address.
        if (address !== lastAddress) {
          lastAddress = address;
          lastPlace = dimensions.place(address);
        }
        const place = lastPlace;
        const country = place?.country ?? UNKNOWN_COUNTRY;
        const city = place?.city ?? NO_CITY;
        out.countries[index] = country;
        out.cities[index] = city;
        this.#countries[slot] = country;
        this.#cities[slot] = city;
        this.#addresses[slot] = undefined;
      }
    }
    return { instance, firstSeq: this.#headSeq + from, size, ...out };
  }

  /** The outgoing columns, made once at the largest size asked for so far. */
  #outgoing(size: number): OutgoingColumns {
    if (this.#out === null || this.#out.at.length < size) {
      const length = Math.min(this.capacity, Math.max(size, (this.#out?.at.length ?? 0) * 2));
      const column = <T>(value: T) => new Array<T>(length).fill(value);
      this.#out = {
        linkIds: column(''),
        codes: column(''),
        at: new Float64Array(length),
        devices: column<DeviceClass>('other'),
        browsers: column<BrowserClass>('other'),
        oses: column<OsClass>('other'),
        cities: column(''),
        referrers: column(''),
        countries: column(''),
        languages: column(''),
      };
    }
    return this.#out;
  }

  /** Forgets the oldest `count` clicks (they were sent). */
  discard(count: number): void {
    const removed = Math.min(count, this.#size);
    for (let index = 0; index < removed; index++) {
      let slot = this.#head + index;
      if (slot >= this.capacity) slot -= this.capacity;
      // Let go of the raw strings, so a quiet buffer holds nothing of any request; and of
      // the link's, which L1 may not hold (ADR 0150): a slot kept them until it was reused.
      this.#linkIds[slot] = '';
      this.#codes[slot] = '';
      this.#rawAgents[slot] = undefined;
      this.#rawReferers[slot] = undefined;
      this.#rawCountries[slot] = undefined;
      this.#addresses[slot] = undefined;
      this.#rawLanguages[slot] = undefined;
    }
    this.#head = (this.#head + removed) % this.capacity;
    this.#size -= removed;
    this.#headSeq += removed;
  }
}
