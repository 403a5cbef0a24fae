import { randomBytes, randomFillSync, randomInt } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ALPHABETS } from '../codes/alphabets.js';
import { BloomFilter } from '../codes/bloom-filter.js';
import { encodePoolHeader, POOL_HEADER_BYTES } from '../adapters/pool-file/pool-file-format.js';
import { generatePoolCodes, loadStoreCodes } from '../codes/pool-generation.js';
import { RandomCodeGenerator } from '../codes/random-code-generator.js';
import { ScalableBloomFilter } from '../codes/scalable-bloom-filter.js';
import type { CodeAlphabet } from '../config/config.js';
import type { LinkCodeScan } from '../ports/link-code-scan.js';

/** Bytes per write: large enough that writing costs nothing next to drawing codes. */
const CHUNK_BYTES = 1 << 20;
/** Codes per `scanCodes` call while loading the store's codes. */
const STORE_SCAN_BATCH = 10_000;
/**
 * False-positive rate of the filters. A false positive costs one extra draw (a code nobody
 * holds is skipped), never a duplicate: 1e-4 wastes 0.01% of draws, and the filter of
 * generated codes takes 2.4 bytes a code (240 MB for 100 million). One filter holds at most
 * 2^32 bits, about 220 million codes at this rate; a bigger pool still gets unique codes,
 * with more skipped draws.
 */
const FALSE_POSITIVE_RATE = 1e-4;
/** The store's codes go into a filter that grows with them: its first layer holds 1M. */
const STORE_FILTER_INITIAL_CAPACITY = 1 << 20;
/**
 * The largest pool one run writes (7 GB at 7 characters): past 2^32 bits the filter cannot
 * grow, and at this size a draw is skipped 13% of the time; far beyond, almost always.
 */
const MAX_POOL_CODES = 1_000_000_000;
/** A pool may fill at most this share of the code space, so that draws rarely collide. */
const MAX_CODE_SPACE_SHARE = 0.5;

export interface GeneratePoolFileOptions {
  readonly file: string;
  readonly count: number;
  readonly length: number;
  readonly alphabet: CodeAlphabet;
  /** Replace an existing pool file (a server reading it starts over on the new pool). */
  readonly force: boolean;
  /** Hears the store's codes read so far, then the pool's codes written so far. */
  readonly onProgress?: (progress: PoolFileProgress) => void;
  /** Aborting stops between chunks and removes the partial file. */
  readonly signal?: AbortSignal;
}

export type PoolFileProgress =
  | { readonly phase: 'store'; readonly read: number }
  | { readonly phase: 'codes'; readonly written: number };

export interface PoolFileSummary {
  readonly file: string;
  readonly id: string;
  readonly width: number;
  readonly written: number;
  readonly bytes: number;
  /** Codes the store held, all excluded from the pool. */
  readonly storeCodes: number;
  readonly skippedTaken: number;
  readonly skippedReserved: number;
}

/** A pool file that cannot be generated as asked; the message is for the operator. */
export class PoolFileRefused extends Error {
  override readonly name = 'PoolFileRefused';
}

/**
 * `hop pool generate` (SPEC §2, `pool` strategy): writes `count` random codes none of which
 * the store holds, none twice and no reserved word, into a new pool file with a fresh pool
 * id. The file is written as `<file>.tmp` and moved into place only when complete and
 * synced, so a server never reads a half-written pool; an existing pool is replaced only
 * with `force`, since running servers keep an offset into it.
 */
export async function generatePoolFile(
  links: LinkCodeScan,
  options: GeneratePoolFileOptions,
): Promise<PoolFileSummary> {
  const { file, count, length } = options;
  const alphabet = ALPHABETS[options.alphabet];
  if (count > MAX_POOL_CODES) {
    throw new PoolFileRefused(
      `--count ${count} is too many: one pool file holds at most ${MAX_POOL_CODES} codes.`,
    );
  }
  if (!options.force && existsSync(file)) {
    throw new PoolFileRefused(
      `${file} exists: servers may be taking codes from it. ` +
        'Pass --force to replace it with a new pool, or choose another --file.',
    );
  }
  const onProgress = options.onProgress ?? (() => {});

  // 1. Every code the store holds, so that the pool never hands out a taken one.
  const storeFilter = new ScalableBloomFilter({
    initialCapacity: STORE_FILTER_INITIAL_CAPACITY,
    falsePositiveRate: FALSE_POSITIVE_RATE,
    seed: randomInt(2 ** 31),
  });
  const storeCodes = await loadStoreCodes(links, storeFilter, STORE_SCAN_BATCH, (read) => {
    onProgress({ phase: 'store', read });
  });
  options.signal?.throwIfAborted();
  const codeSpace = alphabet.length ** length;
  if (count + storeCodes > codeSpace * MAX_CODE_SPACE_SHARE) {
    throw new PoolFileRefused(
      `${count} codes of ${length} characters would fill more than half of the ` +
        `${codeSpace} possible codes (the store holds ${storeCodes}): use a longer --length.`,
    );
  }

  // 2. The codes drawn so far, in a filter sized for exactly the pool.
  const drawnFilter = new BloomFilter(count, FALSE_POSITIVE_RATE, randomInt(2 ** 31));
  const filter =
    storeCodes === 0
      ? drawnFilter
      : { add: (code: string) => !storeFilter.mightContain(code) && drawnFilter.add(code) };
  const source = new RandomCodeGenerator({
    alphabet,
    length,
    randomBytes: (buffer) => {
      randomFillSync(buffer);
    },
  });

  // 3. Header and codes into the temporary file, then synced and moved into place.
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const header = { width: length, id: randomBytes(8).toString('hex') };
  const fd = openSync(temporary, 'w');
  let closed = false;
  try {
    writeSync(fd, encodePoolHeader(header));
    const result = await generatePoolCodes(
      { count, width: length, chunkBytes: CHUNK_BYTES },
      source,
      filter,
      async (chunk) => {
        writeFully(fd, chunk);
        // Lets a signal handler (Ctrl-C) and the progress bar's timer run between chunks.
        await yieldToEventLoop();
        options.signal?.throwIfAborted();
      },
      (written) => {
        onProgress({ phase: 'codes', written });
      },
    );
    fsyncSync(fd);
    closeSync(fd);
    closed = true;
    if (options.force) {
      renameSync(temporary, file);
    } else {
      // A hard link fails if the file appeared meanwhile, where a rename would replace it.
      try {
        linkSync(temporary, file);
      } catch (error) {
        if (isCode(error, 'EEXIST')) throw new PoolFileRefused(`${file} appeared meanwhile.`);
        throw error;
      }
      rmSync(temporary);
    }
    syncDirectory(dirname(file));
    return {
      file,
      id: header.id,
      width: length,
      written: result.written,
      bytes: POOL_HEADER_BYTES + result.written * length,
      storeCodes,
      skippedTaken: result.skippedTaken,
      skippedReserved: result.skippedReserved,
    };
  } finally {
    if (!closed) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}

function writeFully(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/** Makes the rename itself durable: a crash right after cannot bring the old file back. */
function syncDirectory(directory: string): void {
  let fd: number;
  try {
    fd = openSync(directory, 'r');
  } catch {
    return; // not every platform opens directories; the rename is still atomic
  }
  try {
    fsyncSync(fd);
  } catch {
    // likewise: some file systems refuse to sync a directory
  } finally {
    closeSync(fd);
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
