import type { ClickBatch } from '../domain/click-batch.js';
import { ClickSums } from '../domain/click-sums.js';
import { TallyWireWriter } from './click-tally-wire.js';

/**
 * A flushed batch summed per bucket and written in the wire format, with the memory of
 * both kept from one flush to the next: `hop serve`'s event loop does this every second,
 * and a flush that left its sums and their encoding behind on the heap made every redirect
 * slower (see ClickSums, and ClickBuffer.peek).
 */
export class FlushTally {
  readonly #sums = new ClickSums();
  readonly #writer = new TallyWireWriter();

  #instance = '';
  #firstSeq = 0;
  #lastSeq = -1;

  /** The batch's clicks summed per bucket, as bytes of their own. */
  encode(batch: ClickBatch): ArrayBuffer {
    this.discard();
    this.add(batch);
    return this.finish();
  }

  /**
   * Sums `slice` into the tally being made; the first slice after `finish` begins it. The
   * slices of one tally are consecutive runs of one instance's clicks, oldest first.
   */
  add(slice: ClickBatch): void {
    if (this.#lastSeq < this.#firstSeq) {
      this.#sums.begin();
      this.#instance = slice.instance;
      this.#firstSeq = slice.firstSeq;
    }
    this.#sums.add(slice);
    this.#lastSeq = slice.firstSeq + slice.size - 1;
  }

  /** Clicks summed since the last `finish`. */
  get added(): number {
    return this.#lastSeq - this.#firstSeq + 1;
  }

  /** The clicks added since the last `finish`, summed per bucket, as bytes of their own. */
  finish(): ArrayBuffer {
    const sums = this.#sums;
    this.#writer.begin(this.#instance, this.#firstSeq, this.#lastSeq, sums.oldestAt, sums.newestAt);
    sums.forEachBucket(this.#writer.bucket);
    this.#firstSeq = 0;
    this.#lastSeq = -1;
    return this.#writer.finish();
  }

  /** Forgets what was added (a send that failed is summed again from the buffer). */
  discard(): void {
    this.#firstSeq = 0;
    this.#lastSeq = -1;
  }

  /**
   * This tally as a sink's summing send (`ClickSink.summing`, ADR 0143): slices are added
   * here, and `send` hands the finished bytes to `deliver`, or nothing when none was added.
   */
  summingInto(deliver: (bytes: ArrayBuffer) => Promise<void>): {
    add(slice: ClickBatch): void;
    send(): Promise<void>;
    discard(): void;
  } {
    return {
      add: (slice) => {
        this.add(slice);
      },
      send: () => (this.added === 0 ? Promise.resolve() : deliver(this.finish())),
      discard: () => {
        this.discard();
      },
    };
  }
}
