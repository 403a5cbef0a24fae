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

  /** The batch's clicks summed per bucket, as bytes of their own. */
  encode(batch: ClickBatch): ArrayBuffer {
    const sums = this.#sums;
    sums.sum(batch);
    this.#writer.begin(
      batch.instance,
      batch.firstSeq,
      batch.firstSeq + batch.size - 1,
      sums.oldestAt,
      sums.newestAt,
    );
    sums.forEachBucket(this.#writer.bucket);
    return this.#writer.finish();
  }
}
