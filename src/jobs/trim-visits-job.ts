import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { VisitLog } from '../ports/visit-log.js';
import { trimVisits } from '../services/lifecycle/trim-visits.js';
import type { PeriodicJob } from './job-scheduler.js';

/**
 * Visit retention beside the sweeper, at its interval and at start (so the day partitions
 * ahead exist from the first day): HOP_VISIT_RETENTION (ADR 0125).
 */
export function trimVisitsJob(options: {
  readonly visits: VisitLog;
  readonly clock: Clock;
  readonly everyMs: number;
  readonly retentionMs: number;
  readonly logger: Logger;
}): PeriodicJob {
  const { visits, clock, everyMs, retentionMs, logger } = options;
  return {
    name: 'trim-visits',
    everyMs,
    runAtStart: true,
    finishOnStop: true,
    run: async (stopping) => {
      const report = await trimVisits(visits, clock.now(), retentionMs, stopping);
      if (report.removed > 0) logger.info(report, 'old visits removed');
    },
    failing: 'visit retention failed; retrying at the next interval',
  };
}
