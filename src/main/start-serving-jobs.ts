import { CENSUS_INTERVAL_MS, countActiveLinks } from '../jobs/count-active-links.js';
import { followLinkChanges, linkChangesKeepMs } from '../jobs/follow-link-changes.js';
import { keepKnownCodesCurrent } from '../jobs/keep-known-codes-current.js';
import { reloadDomains } from '../jobs/reload-domains.js';
import { sweepLinks } from '../jobs/sweep-links.js';
import { trimVisitsJob } from '../jobs/trim-visits-job.js';
import type { Logger } from '../observability/logger.js';
import type { Runtime } from './compose.js';

/**
 * `hop serve`'s background jobs, on the runtime's scheduler (closing the runtime stops
 * them): the known codes, the change feed, the census and the sweeper.
 */
export function startServingJobs(runtime: Runtime, logger: Logger): void {
  const { config, jobs, codes } = runtime;
  const clock = runtime.linkService.clock;
  // Until it is loaded, every miss reads the store, as without it.
  // Off, the filter is never loaded and says "maybe" for every code: misses read L2 or the
  // store, as they would before it loads.
  if (config.knownCodes) jobs.start(keepKnownCodesCurrent(runtime.knownCodes, logger));
  jobs.start(reloadDomains(runtime.domainRoutes));
  const feed = runtime.store.linkChanges;
  if (feed !== null) {
    jobs.start(
      followLinkChanges({
        feed,
        changed: (change) => {
          runtime.appDeps.redirect.changedElsewhere(change.code, change.version);
        },
        clock,
        keepMs: linkChangesKeepMs(config.l1TtlMs),
      }),
    );
  }
  // The code space (SPEC §2, §7): a census at start and after each sweep, or every ten
  // minutes when the sweeper is off (HOP_SWEEP_INTERVAL=0).
  const census = countActiveLinks({
    guessBound: codes.guessBound,
    generator: codes.generator,
    recount: () => codes.linkCounts.recount(),
    everyMs: config.sweepIntervalMs === null ? CENSUS_INTERVAL_MS : null,
    logger,
  });
  jobs.start(census);
  if (config.sweepIntervalMs !== null) {
    jobs.start(
      sweepLinks({
        deps: runtime.sweepDeps,
        clock,
        everyMs: config.sweepIntervalMs,
        totals: runtime.sweeps,
        afterSweep: () => {
          void jobs.runNow(census.name);
        },
        logger,
      }),
    );
    // Visits are trimmed even with the visit log off: it may have been on before.
    jobs.start(
      trimVisitsJob({
        visits: runtime.store.visits,
        clock,
        everyMs: config.sweepIntervalMs,
        retentionMs: config.visitRetentionMs,
        logger,
      }),
    );
  }
  // Webhooks (issue 23): fan-out, deliveries, and the event logs' retention (ADR 0132).
  runtime.integrations.start(jobs);
}
