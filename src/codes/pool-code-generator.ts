import { HopError } from '../domain/errors.js';
import type { CodeGenerator } from '../ports/code-generator.js';
import type { PoolFile } from '../ports/pool-file.js';
import type { SequenceStore } from '../ports/sequence-store.js';

/**
 * A server takes HOP_POOL_BATCH codes at a time (SPEC §2: 10,000) and refills in the
 * background when fewer than 2,000 (a fifth) remain.
 */
export function poolLowWater(batch: number): number {
  return Math.floor(batch / 5);
}

/** The shared offset of a pool file, one per pool id (a new file starts at its start). */
export function poolSequenceName(pool: { readonly id: string }): string {
  return `pool:${pool.id}`;
}

export interface PoolCodeOptions {
  readonly file: PoolFile;
  readonly sequences: SequenceStore;
  readonly alphabetSize: number;
  /** Codes claimed at a time (HOP_POOL_BATCH). */
  readonly batch: number;
  readonly lowWater?: number;
  /** Told when a create found the pool empty (for the metric and a log line). */
  readonly onExhausted?: () => void;
}

/**
 * The `pool` strategy (SPEC §2, seeds 000/004): codes made in advance by `hop pool
 * generate`, handed out from memory. A batch is claimed by advancing the pool's shared
 * offset in the store (never past the codes the file holds), then read from the file with
 * one positioned read. The next batch is claimed in the background when fewer than
 * `lowWater` codes remain, so a create waits for the file only if the refill is late.
 * Codes left in memory when a process stops are skipped for good: at most one batch.
 */
export class PoolCodeGenerator implements CodeGenerator {
  readonly strategy = 'pool';
  readonly alphabetSize: number;
  readonly length: number;
  readonly #file: PoolFile;
  readonly #sequence: string;
  readonly #sequences: SequenceStore;
  readonly #batch: number;
  readonly #lowWater: number;
  readonly #onExhausted: () => void;
  #codes: string[] = [];
  #next = 0;
  #refilling: Promise<void> | null = null;
  #roundTrips = 0;
  /** Codes claimed from the file since start. */
  #claimed = 0;
  /** Codes in the file past the shared offset, as of the last claim. */
  #unclaimed = 0;

  constructor(options: PoolCodeOptions) {
    this.#file = options.file;
    this.length = options.file.width;
    this.alphabetSize = options.alphabetSize;
    this.#sequence = poolSequenceName(options.file);
    this.#sequences = options.sequences;
    this.#batch = options.batch;
    this.#lowWater = options.lowWater ?? poolLowWater(this.#batch);
    this.#onExhausted = options.onExhausted ?? (() => undefined);
  }

  get storeRoundTrips(): number {
    return this.#roundTrips;
  }

  /** Codes this process holds in memory. */
  get inMemory(): number {
    return this.#codes.length - this.#next;
  }

  /** Codes in memory plus those the file held past the shared offset at the last claim. */
  get remaining(): number {
    return this.inMemory + this.#unclaimed;
  }

  /** A pool's codes are as wide as its file; a longer code needs a new pool. */
  growTo(length: number): boolean {
    return length === this.length;
  }

  async generate(): Promise<string> {
    if (this.inMemory <= this.#lowWater) void this.#refill().catch(() => undefined);
    while (this.inMemory === 0) {
      const claimedBefore = this.#claimed;
      await this.#refill();
      // Nothing claimed: the pool is empty. (Codes claimed and already taken by concurrent
      // creates send this one round again.)
      if (this.inMemory === 0 && this.#claimed === claimedBefore) {
        this.#onExhausted();
        throw new HopError(
          'code-pool-exhausted',
          'The code pool is used up; an operator must run `hop pool generate`.',
          { retryable: true, retryAfterSeconds: 60 },
        );
      }
    }
    return this.#codes[this.#next++] as string;
  }

  /** Claims and reads the next batch, unless a claim is already under way. */
  #refill(): Promise<void> {
    this.#refilling ??= this.#claimBatch().finally(() => {
      this.#refilling = null;
    });
    return this.#refilling;
  }

  async #claimBatch(): Promise<void> {
    // Codes appended by the sweeper since the last claim count too: the cap is read anew.
    const inFile = await this.#file.codeCount();
    const block = await this.#sequences.lease(this.#sequence, this.#batch, inFile);
    this.#roundTrips++;
    this.#unclaimed = inFile - block.end;
    if (block.end === block.first) return;
    const codes = await this.#file.read(block.first, block.end - block.first);
    this.#claimed += codes.length;
    this.#codes = this.#codes.slice(this.#next).concat(codes);
    this.#next = 0;
  }

  async close(): Promise<void> {
    await this.#refilling?.catch(() => undefined);
    await this.#file.close();
  }
}
