import type { Command } from 'commander';
import { forgetOldLinkChanges, linkChangesKeepMs } from '../../jobs/follow-link-changes.js';
import { describeStore } from '../../main/open-store.js';
import { runSweep } from '../../services/lifecycle/sweeper.js';
import { trimVisits } from '../../services/lifecycle/trim-visits.js';
import { withRuntime } from '../with-runtime.js';

export function addSweepCommand(program: Command): void {
  program
    .command('sweep')
    .description('run the sweeper once: mark expired links, reclaim codes, purge old records')
    .addHelpText(
      'after',
      `
Marks active links whose expiry has passed as expired, returns the generated codes of
links expired or deleted more than HOP_RECLAIM_GRACE ago to circulation (custom aliases
never), and deletes idempotency records older than 24 hours (and, on the embedded store,
changes to links older than the change feed keeps), and drops visits older than
HOP_VISIT_RETENTION (ADR 0125). \`hop serve\` does the same
every HOP_SWEEP_INTERVAL; this runs it now, next to a running server or without one.`,
    )
    .action(async () => {
      await withRuntime(async (runtime) => {
        const started = performance.now();
        const nowMs = runtime.linkService.clock.now();
        const report = await runSweep(runtime.sweepDeps, nowMs);
        // Where no server runs (the CLI and a cron'd sweep alone), the change feed shrinks here.
        const feed = runtime.store.linkChanges;
        if (feed !== null) {
          await forgetOldLinkChanges(feed, nowMs - linkChangesKeepMs(runtime.config.l1TtlMs));
        }
        // Visits as the serving job trims them; said only when some went.
        const visits = await trimVisits(
          runtime.store.visits,
          nowMs,
          runtime.config.visitRetentionMs,
        );
        const { expire, reclaim, purge } = report.batches;
        const ms = Math.round(performance.now() - started);
        process.stdout.write(
          `hop: swept ${describeStore(runtime.config)}: ${report.expired} expired, ` +
            `${report.reclaimed} reclaimed, ${report.idempotencyPurged} idempotency records purged ` +
            `(${expire + reclaim + purge} batches, ${ms} ms)\n`,
        );
        if (visits.removed > 0) {
          process.stdout.write(
            `hop: ${visits.removed} rows of old visits (or days of them) removed\n`,
          );
        }
      });
    });
}
