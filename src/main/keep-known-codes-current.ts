import type { Logger } from '../observability/logger.js';
import type { KnownCodes } from '../services/redirect/known-codes.js';

/**
 * How often `hop serve` reads codes created by other processes (the CLI on the same file,
 * other instances). Creates through this instance are known at once; this bounds how long
 * a link made elsewhere can be answered 404 here (decisions.md).
 */
export const KNOWN_CODES_CATCH_UP_MS = 1000;

/**
 * Loads every stored code into the filter, then catches up once a second. A failing store
 * is logged when it starts failing and when it recovers, not every second. Returns stop.
 */
export function keepKnownCodesCurrent(known: KnownCodes, logger: Logger): () => void {
  const started = performance.now();
  let failing = false;
  let stopped = false;
  // Calls made while the first load runs join it; it is reported once.
  let loaded = false;
  const catchUp = () => {
    known.catchUp().then(
      () => {
        if (!loaded) {
          loaded = true;
          const ms = Math.round(performance.now() - started);
          logger.info({ codes: known.count, bytes: known.byteLength, ms }, 'known codes loaded');
        } else if (failing) {
          logger.info('known codes catching up again');
        }
        failing = false;
      },
      (error: unknown) => {
        // A catch-up still running while the store closes at shutdown is no news.
        if (!failing && !stopped)
          logger.warn({ err: error }, 'known codes could not catch up; retrying');
        failing = true;
      },
    );
  };
  catchUp();
  const timer = setInterval(catchUp, KNOWN_CODES_CATCH_UP_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
