import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FoldLogSpool } from '../ports/fold-log-spool.js';
import type { PeriodicJob } from './job-scheduler.js';

/** How often the spool is looked at: folds come every HOP_FOLD_INTERVAL (15 s) at most. */
const WRITE_OUT_EVERY_MS = 1000;

/**
 * Writes the spooled folds' visits and click events out (ADR 0132), a transaction at a
 * time until the spool is empty, turning the event loop between them (streams and
 * deliveries share the thread). At shutdown it ends after a transaction: the rest waits
 * in the spool for the next start.
 */
export function writeOutFoldLogs(spool: FoldLogSpool): PeriodicJob {
  return {
    name: 'write-out-fold-logs',
    everyMs: WRITE_OUT_EVERY_MS,
    runAtStart: true,
    finishOnStop: true,
    failing: 'spooled visits and click events could not be written out; retrying',
    recovered: 'spooled visits and click events are written out again',
    run: async (stopping) => {
      while (!stopping.aborted && (await spool.writeOut())) await nextTurn();
    },
  };
}
