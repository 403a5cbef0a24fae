import type { Logger } from '../observability/logger.js';
import type { Clock } from '../ports/clock.js';
import type { LinkChange, LinkChangeFeed } from '../ports/link-change-feed.js';
import { pollInBackground } from './poll-in-background.js';

/** How often `hop serve` reads the changes other processes made to links. */
export const LINK_CHANGES_POLL_MS = 1000;
/** Changes read at a time: about a millisecond of the event loop, read and dropped (decisions.md). */
const LINK_CHANGES_BATCH = 1000;
/** How often old changes are deleted. */
const FORGET_EVERY_MS = 60_000;

export interface FollowLinkChangesOptions {
  readonly feed: LinkChangeFeed;
  /** Told of each change, oldest first (the resolver drops the code's older L1 entry). */
  readonly changed: (change: LinkChange) => void;
  readonly clock: Clock;
  /**
   * How long a change is kept for readers: longer than an L1 entry can live, so a server
   * that missed a change for any reason holds no entry from before it once it is deleted.
   */
  readonly keepMs: number;
  readonly logger: Logger;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Follows the store's change feed from now on, so links that another process changed (the
 * CLI, `hop sweep`, a second server on the same file) leave L1 within about a second
 * instead of at its TTL. Returns stop.
 */
export function followLinkChanges(options: FollowLinkChangesOptions): () => void {
  const { feed, changed, clock, keepMs, logger } = options;
  let cursor: number | null = null;
  let lastForget = clock.now();
  return pollInBackground({
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
      while ((await feed.forgetBefore(lastForget - keepMs, LINK_CHANGES_BATCH)) > 0) {
        await nextTurn();
      }
    },
    everyMs: LINK_CHANGES_POLL_MS,
    logger,
    failing: 'link changes could not be read; retrying',
    recovered: 'link changes followed again',
  });
}
