import { randomFillSync } from 'node:crypto';
import { FsPoolFile } from '../adapters/pool-file/fs-pool-file.js';
import { PoolCodeRecycler } from '../adapters/pool-file/pool-code-recycler.js';
import { ALPHABETS } from '../codes/alphabets.js';
import { HashCodeGenerator } from '../codes/hash-code-generator.js';
import { PermutationCodeGenerator } from '../codes/permutation-code-generator.js';
import { PoolCodeGenerator } from '../codes/pool-code-generator.js';
import { RandomCodeGenerator } from '../codes/random-code-generator.js';
import { SnowflakeCodeGenerator } from '../codes/snowflake-code-generator.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/load-config.js';
import type { Clock } from '../ports/clock.js';
import type { CodeGenerator } from '../ports/code-generator.js';
import { NO_CODE_RECYCLING, type CodeRecycler } from '../ports/code-recycler.js';
import type { Store } from '../ports/store.js';
import { GuessBound } from '../services/codes/guess-bound.js';
import { LinkCounts } from '../services/stats/link-counts.js';

/** Permutation counters leased at once: one store round trip per thousand creates. */
const PERMUTATION_BLOCK = 1000;
/** Links per census read while counting active links (a few ms of SQLite each). */
const CENSUS_SLICE = 10_000;

export interface CodeParts {
  readonly generator: CodeGenerator;
  /** Where the sweeper returns reclaimed codes. */
  readonly recycler: CodeRecycler;
  readonly guessBound: GuessBound;
  /** Links by state from the guess bound's census, kept in the store (ADR 0100). */
  readonly linkCounts: LinkCounts;
  /** The pool, when HOP_CODE_STRATEGY=pool (its metrics). */
  readonly pool: PoolCodeGenerator | null;
  /** Times a create found the pool empty. */
  readonly poolExhaustions: () => number;
  close(): Promise<void>;
}

/** Builds the generator HOP_CODE_STRATEGY names, and what goes with it. */
export function composeCodes(config: Config, store: Store, clock: Clock): CodeParts {
  const alphabet = ALPHABETS[config.codeAlphabet];
  let pool: PoolCodeGenerator | null = null;
  let recycler: CodeRecycler = NO_CODE_RECYCLING;
  let exhaustions = 0;
  let generator: CodeGenerator;
  switch (config.codeStrategy) {
    case 'random':
      generator = new RandomCodeGenerator({
        alphabet,
        length: config.codeLength,
        randomBytes: (buffer) => {
          randomFillSync(buffer);
        },
      });
      break;
    case 'pool': {
      const file = openPoolFileOrThrow(config.poolFile);
      pool = new PoolCodeGenerator({
        file,
        sequences: store.sequences,
        alphabetSize: alphabet.length,
        batch: config.poolBatch,
        onExhausted: () => {
          exhaustions++;
        },
      });
      generator = pool;
      recycler = new PoolCodeRecycler(config.poolFile, file.width);
      break;
    }
    case 'snowflake':
      generator = new SnowflakeCodeGenerator({ workerId: config.workerId, now: () => clock.now() });
      break;
    case 'permutation':
      generator = new PermutationCodeGenerator({
        // loadConfig refuses the permutation strategy without a key.
        key: Buffer.from(config.permutationKey ?? '', 'utf8'),
        alphabet,
        length: config.codeLength,
        sequences: store.sequences,
        blockSize: PERMUTATION_BLOCK,
      });
      break;
    case 'hash':
      generator = new HashCodeGenerator({ length: config.codeLength });
      break;
  }
  const guessBound = new GuessBound({
    generator,
    census: store.census,
    clock,
    bound: config.guessBound,
    sliceSize: CENSUS_SLICE,
    yieldBetweenSlices: () => new Promise((resolve) => setImmediate(resolve)),
  });
  const linkCounts = new LinkCounts({
    census: store.census,
    count: () => guessBound.refresh(),
    clock,
    elapsedMs: () => performance.now(),
  });
  return {
    generator,
    recycler,
    guessBound,
    linkCounts,
    pool,
    poolExhaustions: () => exhaustions,
    close: async () => {
      await pool?.close();
    },
  };
}

function openPoolFileOrThrow(file: string): FsPoolFile {
  try {
    return FsPoolFile.open(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([
      `HOP_POOL_FILE=${JSON.stringify(file)} cannot be used for HOP_CODE_STRATEGY=pool: ${reason}`,
    ]);
  }
}
