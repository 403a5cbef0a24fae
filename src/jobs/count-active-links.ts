import type { Logger } from '../observability/logger.js';
import type { CodeGenerator } from '../ports/code-generator.js';
import type { GuessBound } from '../services/codes/guess-bound.js';
import type { PeriodicJob } from './job-scheduler.js';

/** The census runs this often when the sweeper is off (HOP_SWEEP_INTERVAL=0). */
export const CENSUS_INTERVAL_MS = 10 * 60_000;

export interface CountActiveLinksOptions {
  readonly guessBound: GuessBound;
  readonly generator: CodeGenerator;
  /** Counts through the guess bound and saves the counts for every instance (ADR 0100). */
  readonly recount: () => Promise<unknown>;
  /** Null: only at start and after each sweep (the sweep job asks for it). */
  readonly everyMs: number | null;
  readonly logger: Logger;
}

/**
 * The census of active links, which keeps the guess probability and the code length
 * current (SPEC §2) and the link counts people see (ADR 0100): warns when codes grew, or when they are over the bound and cannot grow.
 */
export function countActiveLinks(options: CountActiveLinksOptions): PeriodicJob {
  const { guessBound, generator, recount, everyMs, logger } = options;
  return {
    name: 'count-active-links',
    everyMs,
    runAtStart: true,
    run: async () => {
      const lengthBefore = generator.length;
      await recount();
      const { activeLinks, probability } = guessBound;
      if (generator.length !== lengthBefore) {
        logger.warn(
          { activeLinks, probability, length: generator.length },
          'guess probability passed HOP_GUESS_BOUND: generated codes are one character longer',
        );
      } else if (guessBound.overBound) {
        logger.warn(
          { activeLinks, probability, bound: guessBound.bound },
          'guess probability is over HOP_GUESS_BOUND and this strategy cannot lengthen codes',
        );
      }
    },
    failing: 'active links could not be counted',
  };
}
