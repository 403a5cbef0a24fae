import type { Logger } from '../observability/logger.js';

export interface BackgroundPoll {
  /** One round; the next starts no sooner than this one ends. */
  readonly run: () => Promise<void>;
  readonly everyMs: number;
  readonly logger: Logger;
  /** Logged, with the error, when rounds start failing (not every round). */
  readonly failing: string;
  /** Logged when a round succeeds again after failures. */
  readonly recovered: string;
}

/**
 * Runs `run` now and every `everyMs` (never two at once, never keeping the process alive),
 * and logs when it starts failing and when it recovers, not every round. Returns stop; a
 * round still running when the store closes at shutdown fails without a word.
 */
export function pollInBackground(poll: BackgroundPoll): () => void {
  let running = false;
  let failing = false;
  let stopped = false;
  const round = () => {
    if (running) return;
    running = true;
    poll
      .run()
      .then(
        () => {
          if (failing) poll.logger.info(poll.recovered);
          failing = false;
        },
        (error: unknown) => {
          if (!failing && !stopped) poll.logger.warn({ err: error }, poll.failing);
          failing = true;
        },
      )
      .finally(() => {
        running = false;
      });
  };
  round();
  const timer = setInterval(round, poll.everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
