import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../ports/clock.js';
import type { LinkChange, LinkChangeFeed } from '../ports/link-change-feed.js';
import type { PeriodicJob } from './job-scheduler.js';

/** How often `hop serve` reads the changes other processes made to links. */
export const LINK_CHANGES_POLL_MS = 1000;
/** Changes read at a time: about a millisecond of the event loop, read and dropped (ADR 0073). */
const LINK_CHANGES_BATCH = 1000;
/** How often old changes are deleted. */
const FORGET_EVERY_MS = 60_000;
/** The least time changes are kept, whatever the TTLs: servers sharing a file may differ. */
const KEEP_AT_LEAST_MS = 60 * 60_000;

export interface FollowLinkChangesOptions {
  readonly feed: LinkChangeFeed;
  /** Told of each change, oldest first (the resolver drops the code's older L1 entry). */
  readonly changed: (change: LinkChange) => void;
  readonly clock: Clock;
  /** How long a change is kept for readers (`linkChangesKeepMs`). */
  readonly keepMs: number;
}

/**
 * How long changes are kept for readers: longer than an L1 entry can live (twice the TTL
 * covers its jitter), so a server that missed a change holds no entry from before it once
 * it is deleted; an hour at least, for servers whose TTL is longer than this one's.
 */
export function linkChangesKeepMs(l1TtlMs: number): number {
  return Math.max(KEEP_AT_LEAST_MS, 2 * l1TtlMs);
}

/** Deletes the changes made before `olderThanMs`, a batch per turn of the event loop. */
export async function forgetOldLinkChanges(
  feed: LinkChangeFeed,
  olderThanMs: number,
): Promise<number> {
  let forgotten = 0;
  for (;;) {
    const deleted = await feed.forgetBefore(olderThanMs, LINK_CHANGES_BATCH);
    forgotten += deleted;
    if (deleted < LINK_CHANGES_BATCH) return forgotten;
    await nextTurn();
  }
}

/**
 * Follows the store's change feed from its first round on, so links that another process
 * changed (the CLI, `hop sweep`, a second server on the same file) leave L1 within about a
 * second instead of at its TTL.
 */
export function followLinkChanges(options: FollowLinkChangesOptions): PeriodicJob {
  const { feed, changed, clock, keepMs } = options;
  let cursor: number | null = null;
  let lastForget = clock.now();
  return {
    name: 'follow-link-changes',
    everyMs: LINK_CHANGES_POLL_MS,
    runAtStart: true,
    run: async () => {
      cursor ??= await feed.latest();
      // A backlog (a sweep that expired a million links) is read, and later deleted, a
      // batch per turn of the event loop: SQLite calls are synchronous, and redirects
      // wait for none but one batch.
      for (;;) {
        const read = await feed.changesAfter(cursor, LINK_CHANGES_BATCH);
        for (const change of read.changes) changed(change);
        cursor = read.cursor;
        if (read.changes.length < LINK_CHANGES_BATCH) break;
        await nextTurn();
      }
      if (clock.now() - lastForget < FORGET_EVERY_MS) return;
      lastForget = clock.now();
      await forgetOldLinkChanges(feed, lastForget - keepMs);
    },
    failing: 'link changes could not be read; retrying',
    recovered: 'link changes followed again',
  };
}
