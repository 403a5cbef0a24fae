import type { Logger } from '../observability/logger.js';
import { Sweeper } from '../services/lifecycle/periodic-sweeper.js';
import { addSweepReport } from '../services/stats/service-stats.js';
import type { Runtime } from './compose.js';

/** The census runs this often when the sweeper is off (HOP_SWEEP_INTERVAL=0). */
const CENSUS_INTERVAL_MS = 10 * 60_000;

/**
 * `hop serve`'s background care of the code space: the sweeper every HOP_SWEEP_INTERVAL
 * (SPEC §7), and a census of active links at start and after each sweep, which keeps the
 * guess probability and the code length current (SPEC §2). Returns stop, which waits for
 * a sweep in progress to reach the end of its batch.
 */
export function tendCodes(runtime: Runtime, logger: Logger): () => Promise<void> {
  const { config, codes, sweeps } = runtime;
  const count = () => {
    const lengthBefore = codes.generator.length;
    codes.guessBound.refresh().then(
      () => {
        const { activeLinks, probability } = codes.guessBound;
        if (codes.generator.length !== lengthBefore) {
          logger.warn(
            { activeLinks, probability, length: codes.generator.length },
            'guess probability passed HOP_GUESS_BOUND: generated codes are one character longer',
          );
        } else if (codes.guessBound.overBound) {
          logger.warn(
            { activeLinks, probability, bound: config.guessBound },
            'guess probability is over HOP_GUESS_BOUND and this strategy cannot lengthen codes',
          );
        }
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'active links could not be counted');
      },
    );
  };
  count();

  const sweeper = new Sweeper({
    deps: runtime.sweepDeps,
    clock: runtime.linkService.clock,
    onError: (error) => {
      sweeps.failures++;
      logger.warn({ err: error }, 'sweep failed; retrying at the next interval');
    },
    onReport: (report, durationMs) => {
      addSweepReport(sweeps, report, runtime.linkService.clock.now());
      logger.info({ ...report, ms: Math.round(durationMs) }, 'sweep finished');
      count();
    },
  });
  let censusTimer: NodeJS.Timeout | null = null;
  if (config.sweepIntervalMs !== null) {
    sweeper.start(config.sweepIntervalMs);
  } else {
    censusTimer = setInterval(count, CENSUS_INTERVAL_MS);
    censusTimer.unref();
  }
  return async () => {
    if (censusTimer !== null) clearInterval(censusTimer);
    await sweeper.stop();
  };
}
