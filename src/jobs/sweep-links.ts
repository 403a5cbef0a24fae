import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import { runSweep, type SweepDeps } from '../services/lifecycle/sweeper.js';
import { addSweepReport, type SweepTotals } from '../services/stats/service-stats.js';
import type { PeriodicJob } from './job-scheduler.js';

export interface SweepLinksOptions {
  readonly deps: SweepDeps;
  readonly clock: Clock;
  /** HOP_SWEEP_INTERVAL. */
  readonly everyMs: number;
  /** Kept here for GET /v1/stats and the metrics. */
  readonly totals: SweepTotals;
  /** After each sweep that finished (the census, since links left the count). */
  readonly afterSweep: () => void;
  readonly logger: Logger;
}

/**
 * The sweeper every HOP_SWEEP_INTERVAL while `hop serve` runs (SPEC §7), the first one
 * interval from start. At shutdown a sweep ends at its next batch boundary (each batch is
 * complete on its own; the rest waits for the next start), and stop waits for it.
 */
export function sweepLinks(options: SweepLinksOptions): PeriodicJob {
  const { deps, clock, everyMs, totals, afterSweep, logger } = options;
  return {
    name: 'sweep-links',
    everyMs,
    runAtStart: false,
    finishOnStop: true,
    run: async (stopping) => {
      const started = performance.now();
      let report;
      try {
        report = await runSweep(deps, clock.now(), stopping);
      } catch (error) {
        totals.failures++;
        throw error;
      }
      addSweepReport(totals, report, clock.now());
      logger.info({ ...report, ms: Math.round(performance.now() - started) }, 'sweep finished');
      afterSweep();
    },
    failing: 'sweep failed; retrying at the next interval',
  };
}
