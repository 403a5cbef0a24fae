/** One redirect's raw click, as the buffer holds it until the flusher reads it. */
export interface RawClick {
  readonly seq: number;
  readonly linkId: string;
  readonly code: string;
  readonly at: number;
  readonly userAgent: string | undefined;
  readonly referer: string | undefined;
  readonly country: string | undefined;
}

/**
 * The bounded in-memory click buffer (SPEC §6): a ring of columns, so a redirect's push
 * stores references into preallocated arrays and allocates nothing. A full buffer drops
 * the click and counts it; nothing ever waits. Each accepted click gets the next sequence
 * number of this process: with the instance id, its event id.
 */
export class ClickBuffer {
  readonly capacity: number;
  readonly #linkIds: string[];
  readonly #codes: string[];
  readonly #at: Float64Array;
  readonly #seqs: Float64Array;
  readonly #agents: (string | undefined)[];
  readonly #referers: (string | undefined)[];
  readonly #countries: (string | undefined)[];
  #head = 0;
  #size = 0;
  #nextSeq = 0;
  /** Clicks refused because the buffer was full. */
  dropped = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#linkIds = new Array<string>(capacity).fill('');
    this.#codes = new Array<string>(capacity).fill('');
    this.#agents = new Array<string | undefined>(capacity).fill(undefined);
    this.#referers = new Array<string | undefined>(capacity).fill(undefined);
    this.#countries = new Array<string | undefined>(capacity).fill(undefined);
    this.#at = new Float64Array(capacity);
    this.#seqs = new Float64Array(capacity);
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
    this.#linkIds[slot] = linkId;
    this.#codes[slot] = code;
    this.#at[slot] = at;
    this.#seqs[slot] = this.#nextSeq++;
    this.#agents[slot] = userAgent;
    this.#referers[slot] = referer;
    this.#countries[slot] = country;
    this.#size++;
    return true;
  }

  /** The oldest `count` clicks (or all there are), still held until `discard`. */
  peek(count: number): RawClick[] {
    const taken = Math.min(count, this.#size);
    const clicks: RawClick[] = new Array<RawClick>(taken);
    for (let index = 0; index < taken; index++) {
      let slot = this.#head + index;
      if (slot >= this.capacity) slot -= this.capacity;
      clicks[index] = {
        seq: this.#seqs[slot] ?? 0,
        linkId: this.#linkIds[slot] ?? '',
        code: this.#codes[slot] ?? '',
        at: this.#at[slot] ?? 0,
        userAgent: this.#agents[slot],
        referer: this.#referers[slot],
        country: this.#countries[slot],
      };
    }
    return clicks;
  }

  /** Forgets the oldest `count` clicks (they were sent). */
  discard(count: number): void {
    const removed = Math.min(count, this.#size);
    for (let index = 0; index < removed; index++) {
      let slot = this.#head + index;
      if (slot >= this.capacity) slot -= this.capacity;
      // Let go of the strings, so a quiet buffer holds no request's headers.
      this.#agents[slot] = undefined;
      this.#referers[slot] = undefined;
      this.#countries[slot] = undefined;
    }
    this.#head = (this.#head + removed) % this.capacity;
    this.#size -= removed;
  }
}
