import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ScalableBloomFilter } from '../../codes/scalable-bloom-filter.js';
import type { LinkCodeScan } from '../../ports/link-code-scan.js';

/** Codes the first load sizes the filter for, as a multiple of the store's estimate. */
const RESERVE_HEADROOM = 1.25;

export interface KnownCodesDeps {
  readonly codeScan: LinkCodeScan;
  readonly filter: ScalableBloomFilter;
  /** Codes read per store call while catching up; the event loop runs between calls. */
  readonly batchSize: number;
}

/**
 * Every code the store holds, as a Bloom filter, so that a request for a code that does
 * not exist (a typo, a scanner walking the code space) is answered without a store read.
 * It never says "absent" for a code created here: until the first full load, and after a
 * failed catch-up, it says "maybe" for everything; links created here are added at once;
 * links other processes create (the CLI on the same file, other instances) are found by
 * `catchUp`, which reads only the codes inserted since the last call, so until then (about
 * a second in `hop serve`) they can be answered 404 here.
 */
export class KnownCodes {
  readonly #codeScan: LinkCodeScan;
  readonly #filter: ScalableBloomFilter;
  readonly #batchSize: number;
  #cursor: string | null = null;
  #ready = false;
  #running: Promise<number> | null = null;

  constructor(deps: KnownCodesDeps) {
    this.#codeScan = deps.codeScan;
    this.#filter = deps.filter;
    this.#batchSize = deps.batchSize;
  }

  /** True once every code that existed at the first load is in the filter. */
  get ready(): boolean {
    return this.#ready;
  }

  get count(): number {
    return this.#filter.count;
  }

  get byteLength(): number {
    return this.#filter.byteLength;
  }

  /** False only when the code certainly has no link; synchronous, no I/O. */
  mightExist(code: string): boolean {
    return !this.#ready || this.#filter.mightContain(code);
  }

  /** A link with this code exists now (created here, or announced by another instance). */
  add(code: string): void {
    this.#filter.add(code);
  }

  /**
   * Reads the codes inserted since the last call (all of them the first time), in batches
   * with the event loop free between them, and returns how many it read. Calls made while
   * one runs join it. A store failure rejects, leaves the cursor where it was, and stops
   * trusting the filter until a catch-up succeeds: while codes made elsewhere cannot be
   * read, every miss reads the store, as without the filter.
   */
  catchUp(): Promise<number> {
    this.#running ??= this.#readNewCodes()
      .catch((error: unknown) => {
        this.#ready = false;
        throw error;
      })
      .finally(() => {
        this.#running = null;
      });
    return this.#running;
  }

  async #readNewCodes(): Promise<number> {
    if (this.#cursor === null) {
      // Sized once for what the store holds, with room for the links made after: the
      // layers a filter grows by take about twice the memory (ADR 0148). `reserve` leaves
      // a filter that already holds codes (links made here before the first load began)
      // as it is: it never drops a code.
      this.#filter.reserve((await this.#codeScan.estimateCodeCount()) * RESERVE_HEADROOM);
    }
    let read = 0;
    for (;;) {
      const scan = await this.#codeScan.scanCodes(this.#cursor, this.#batchSize);
      for (const code of scan.codes) this.#filter.add(code);
      this.#cursor = scan.cursor;
      read += scan.codes.length;
      if (scan.codes.length < this.#batchSize) break;
      // The first load of millions of codes must not stall redirects meanwhile.
      await yieldToEventLoop();
    }
    this.#ready = true;
    return read;
  }
}
