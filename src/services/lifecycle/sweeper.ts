import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Link } from '../../domain/link.js';
import type { CodeRecycler } from '../../ports/code-recycler.js';
import type { LinkEvents } from '../../ports/link-events.js';
import type { SweepQueries } from '../../ports/sweep-queries.js';
import { IDEMPOTENCY_WINDOW_MS } from '../links/create-link.js';

/**
 * Rows per store call: one short write transaction each. At 1,000 a transaction held
 * SQLite's write lock for 75 ms (p99 117 ms) on this machine's VM, and creates, which wait
 * for it synchronously, felt it (`npm run bench -- sweep`); 250 keeps a hold near 20 ms.
 */
export const DEFAULT_SWEEP_BATCH_SIZE = 250;

export interface SweepDeps {
  readonly sweep: SweepQueries;
  /** Told of every link the sweep marks expired or reclaims, so caches drop it. */
  readonly events: LinkEvents;
  /** Where reclaimed generated codes go back into circulation. */
  readonly recycler: CodeRecycler;
  /** How long after expiry or deletion a generated code is reclaimed (HOP_RECLAIM_GRACE). */
  readonly reclaimGraceMs: number;
  /** Rows per store call; default DEFAULT_SWEEP_BATCH_SIZE. */
  readonly batchSize?: number;
  /** Awaited between store calls, so requests run meanwhile; default setImmediate. */
  readonly yieldBetweenBatches?: () => Promise<void>;
}

/** Store calls made by each step of a sweep (each one transaction of at most a batch). */
export interface SweepBatches {
  readonly expire: number;
  readonly reclaim: number;
  readonly purge: number;
}

export interface SweepReport {
  /** Links marked expired. */
  readonly expired: number;
  /** Rows of generated links deleted, their codes back in circulation. */
  readonly reclaimed: number;
  /** Idempotency records deleted (older than the 24 h they are answered for). */
  readonly idempotencyPurged: number;
  readonly batches: SweepBatches;
  /** True when `signal` stopped the sweep between two batches. */
  readonly stopped: boolean;
}

/**
 * One sweep (SPEC §7), at `nowMs`, in batches with the event loop free between them:
 *
 * 1. Marks active links whose expiry has passed as `expired` and announces each
 *    (version + 1), so L1 and L2 drop them. Reads never depend on this (expiry is checked
 *    on every read); it makes the state visible to listings and reclaiming.
 * 2. Reclaims generated codes of links expired or deleted at least `reclaimGraceMs` ago:
 *    hands the codes to the recycler, then deletes the rows. Custom aliases never.
 * 3. Purges idempotency records older than 24 h.
 *
 * An active link due long ago is marked in step 1 before step 2 looks, so every link is
 * announced as expired before its code can go (the store returns marked links only).
 * `signal` ends the sweep between batches (shutdown); the rest waits for the next one.
 */
export async function runSweep(
  deps: SweepDeps,
  nowMs: number,
  signal?: AbortSignal,
): Promise<SweepReport> {
  const batchSize = deps.batchSize ?? DEFAULT_SWEEP_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, not ${batchSize}`);
  }
  const pause = deps.yieldBetweenBatches ?? (() => yieldToEventLoop());
  const batches = { expire: 0, reclaim: 0, purge: 0 };
  let expired = 0;
  let reclaimed = 0;
  let idempotencyPurged = 0;
  let calls = 0;
  /** Yields before every store call but the first; false once the sweep is to stop. */
  const next = async (): Promise<boolean> => {
    if (calls++ > 0) await pause();
    return signal?.aborted !== true;
  };
  const report = (stopped: boolean): SweepReport => ({
    expired,
    reclaimed,
    idempotencyPurged,
    batches: { ...batches },
    stopped,
  });

  for (;;) {
    if (!(await next())) return report(true);
    const marked = await deps.sweep.markExpired(nowMs, batchSize);
    batches.expire++;
    expired += marked.length;
    for (const link of marked) deps.events.linkChanged(link);
    if (marked.length < batchSize) break;
  }

  const reclaimBefore = nowMs - deps.reclaimGraceMs;
  for (;;) {
    if (!(await next())) return report(true);
    const candidates = await deps.sweep.reclaimableLinks(reclaimBefore, batchSize);
    batches.reclaim++;
    if (candidates.length === 0) break;
    // Recycle first, delete second. A crash (or a failed delete) in between leaves codes
    // in circulation whose rows still hold them: the conditional insert refuses such a
    // code and the create tries another, and the next sweep reclaims the row again (a
    // code may then sit in a pool file twice; the second use is refused the same way).
    // The other order would lose codes for good: a row deleted whose code never reached
    // the pool file is free, but nothing would ever hand it out again. And a recycler
    // that fails here leaves every row in place, for the next sweep.
    await deps.recycler.recycle(candidates.map((link) => link.code));
    const deleted = await deps.sweep.deleteReclaimed(candidates);
    reclaimed += deleted;
    // A deleted row needs no announcement to stop redirecting: it was expired or deleted
    // and the caches hold it so. But its code may now go to a new link whose versions
    // start again at 1, below the old link's, and a cache never lets an older version
    // overwrite a newer one: an entry of the old link, still held (read just before the
    // reclaim; L2 keeps entries 24 h), would hide the new link. Announcing the old link one
    // version on drops such entries everywhere (the floor it leaves only makes reads of the
    // code go to the store until it lapses; the new link is answered right meanwhile).
    // A row kept back (changed since it was read) is announced too: harmless, its current
    // version is at least this one.
    for (const link of candidates) deps.events.linkChanged(gone(link));
    if (candidates.length < batchSize || deleted === 0) break;
  }

  const purgeBefore = nowMs - IDEMPOTENCY_WINDOW_MS;
  for (;;) {
    if (!(await next())) return report(true);
    const purged = await deps.sweep.purgeIdempotencyRecords(purgeBefore, batchSize);
    batches.purge++;
    idempotencyPurged += purged;
    if (purged < batchSize) break;
  }
  return report(false);
}

/** The link as the caches should see it once its row is gone: deleted, one version on. */
function gone(link: Link): Link {
  return { ...link, state: 'deleted', version: link.version + 1 };
}
