import type { VisitLog } from '../../ports/visit-log.js';

/** Rows (SQLite) or day partitions (PostgreSQL) removed per call: the write lock held briefly. */
export const VISIT_TRIM_BATCH = 5_000;
/** Calls per round: the rest waits for the next round. */
const MAX_BATCHES_PER_ROUND = 200;

export interface TrimVisitsReport {
  /** Visits (or whole days of them) removed. */
  readonly removed: number;
  /** Whether older visits remain for the next round. */
  readonly more: boolean;
}

/**
 * HOP_VISIT_RETENTION (issue 23, ADR 0125): makes room for the coming days, then removes
 * visits older than `nowMs - retentionMs` in bounded batches, stopping at a batch boundary
 * when told to.
 */
export async function trimVisits(
  visits: VisitLog,
  nowMs: number,
  retentionMs: number,
  stopping?: AbortSignal,
): Promise<TrimVisitsReport> {
  await visits.prepare(nowMs);
  const cutoff = nowMs - retentionMs;
  let removed = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
    if (stopping?.aborted === true) return { removed, more: true };
    const count = await visits.forgetBefore(cutoff, VISIT_TRIM_BATCH);
    removed += count;
    if (count === 0) return { removed, more: false };
  }
  return { removed, more: true };
}
