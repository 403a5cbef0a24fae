import type { Logger } from '../observability/logger.js';
import type { KnownCodes } from '../services/redirect/known-codes.js';
import type { PeriodicJob } from './job-scheduler.js';

/**
 * How often `hop serve` reads codes created by other processes (the CLI on the same file,
 * other instances). Creates through this instance are known at once; this bounds how long
 * a link made elsewhere can be answered 404 here (ADR 0024).
 */
export const KNOWN_CODES_CATCH_UP_MS = 1000;

/**
 * Loads every stored code into the filter, then catches up once a second. A failing store
 * is logged when it starts failing and when it recovers, not every second.
 */
export function keepKnownCodesCurrent(known: KnownCodes, logger: Logger): PeriodicJob {
  const started = performance.now();
  let loaded = false;
  return {
    name: 'keep-known-codes-current',
    everyMs: KNOWN_CODES_CATCH_UP_MS,
    runAtStart: true,
    run: async () => {
      await known.catchUp();
      if (loaded) return;
      loaded = true;
      const ms = Math.round(performance.now() - started);
      logger.info({ codes: known.count, bytes: known.byteLength, ms }, 'known codes loaded');
    },
    failing: 'known codes could not catch up; retrying',
    recovered: 'known codes catching up again',
  };
}
