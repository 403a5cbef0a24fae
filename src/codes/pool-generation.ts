import { isReservedAlias, RESERVED_ALIASES } from '../domain/alias-rules.js';
import type { LinkCodeScan } from '../ports/link-code-scan.js';

/** Where codes come from: `RandomCodeGenerator` (one fixed-length code a call). */
export interface PoolCodeSource {
  generateSync(): string;
}

/**
 * The codes already taken: `add` records a code and returns false when it may have been
 * recorded before. A Bloom filter fits: it never forgets a code (no false negatives), so
 * no code is written twice; a false positive only means a code nobody holds is skipped and
 * another one drawn.
 */
export interface PoolCodeFilter {
  add(code: string): boolean;
}

/**
 * Receives the pool's bytes a chunk at a time, in order. The chunk's memory is reused for
 * the next one, so the sink must be done with it when it returns (or its promise settles).
 */
export type PoolChunkSink = (chunk: Uint8Array) => void | Promise<void>;

export interface PoolGenerationOptions {
  /** Codes to write. */
  readonly count: number;
  /** Characters of every code (the pool's fixed width). */
  readonly width: number;
  /** Bytes handed to the sink at a time (the last chunk may be shorter). */
  readonly chunkBytes: number;
  /**
   * Codes skipped in a row before giving up: only a code space nearly full of taken codes
   * gets there (at a 1e-4 false-positive rate, 100 skips in a row by chance is 1e-400).
   */
  readonly maxSkipsInARow?: number;
}

export interface PoolGenerationResult {
  readonly written: number;
  /** Codes drawn that the filter held already: duplicates, store codes, false positives. */
  readonly skippedTaken: number;
  /** Codes drawn that are reserved words (SPEC §2), such as `metrics` or `healthz`. */
  readonly skippedReserved: number;
}

const DEFAULT_MAX_SKIPS_IN_A_ROW = 100;

/**
 * The body of `hop pool generate` (SPEC §2, `pool` strategy): draws `count` codes from
 * `source`, skips reserved words and every code `filter` already holds (the store's and the
 * ones drawn before), and passes the codes to `sink` back to back, `width` bytes each and no
 * separators, in chunks of about `chunkBytes`. `onProgress` hears the codes written so far
 * after every chunk. The caller writes the header first (pool-file-format.ts).
 *
 * Each code's characters go straight into one reused chunk buffer: 100 million codes make
 * no allocation here beyond the codes' own strings.
 */
export async function generatePoolCodes(
  options: PoolGenerationOptions,
  source: PoolCodeSource,
  filter: PoolCodeFilter,
  sink: PoolChunkSink,
  onProgress: (written: number) => void = () => {},
): Promise<PoolGenerationResult> {
  const { count, width } = options;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError('A pool holds a whole number of codes.');
  }
  if (!Number.isInteger(width) || width < 1) throw new RangeError('A code has a width ≥ 1.');
  const maxSkips = options.maxSkipsInARow ?? DEFAULT_MAX_SKIPS_IN_A_ROW;
  const codesPerChunk = Math.max(1, Math.floor(options.chunkBytes / width));
  const chunk = Buffer.allocUnsafe(Math.min(count, codesPerChunk) * width);
  // isReservedAlias lower-cases its argument (a new string a call, 5-10% of the time per
  // code as measured): only a code whose first character, in lower case, starts a reserved
  // word of this width can be one, so only those are asked.
  const reservedStarts = new Set<number>();
  for (const word of RESERVED_ALIASES) {
    if (word.length === width) reservedStarts.add(word.toLowerCase().charCodeAt(0));
  }

  let written = 0;
  let skippedTaken = 0;
  let skippedReserved = 0;
  let skipsInARow = 0;
  let position = 0;
  while (written < count) {
    const code = source.generateSync();
    if (code.length !== width) {
      throw new RangeError(`The code source gave "${code}", not ${width} characters.`);
    }
    // Reserved words first, so that they never enter the filter.
    const first = code.charCodeAt(0);
    const reserved =
      reservedStarts.has(first >= 65 && first <= 90 ? first + 32 : first) && isReservedAlias(code);
    if (reserved || !filter.add(code)) {
      if (reserved) skippedReserved++;
      else skippedTaken++;
      if (++skipsInARow > maxSkips) {
        throw new Error(
          `${maxSkips} codes in a row were taken: the code space is nearly full ` +
            `(${written} of ${count} written). Use longer codes.`,
        );
      }
      continue;
    }
    skipsInARow = 0;
    // Codes are ASCII (base62 or base64url): one byte a character.
    for (let i = 0; i < width; i++) chunk[position++] = code.charCodeAt(i);
    written++;
    if (position === chunk.length || written === count) {
      await sink(chunk.subarray(0, position));
      position = 0;
      onProgress(written);
    }
  }
  return { written, skippedTaken, skippedReserved };
}

/**
 * Adds every code `links` holds to `filter`, paging with `scanCodes` until a page comes back
 * short, and returns how many codes it read. `onProgress` hears the running total.
 */
export async function loadStoreCodes(
  links: Pick<LinkCodeScan, 'scanCodes'>,
  filter: PoolCodeFilter,
  batchSize: number,
  onProgress: (read: number) => void = () => {},
): Promise<number> {
  let cursor: string | null = null;
  let read = 0;
  for (;;) {
    const scan = await links.scanCodes(cursor, batchSize);
    for (const code of scan.codes) filter.add(code);
    read += scan.codes.length;
    onProgress(read);
    cursor = scan.cursor;
    if (scan.codes.length < batchSize || cursor === null) return read;
  }
}
