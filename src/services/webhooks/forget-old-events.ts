import type { Clock } from '../../ports/clock.js';
import type { EventLog } from '../../ports/event-log.js';

/** How long link and click events are kept (issue 23: a day, for webhooks and the event stream). */
export const EVENTS_KEEP_MS = 24 * 60 * 60 * 1000;
/** Events looked at after the fan-out position to find the oldest not fanned out. */
const LOOK_AHEAD = 1000;

export interface ForgetEventsDeps<Event extends { readonly position: string }> {
  readonly log: EventLog<Event>;
  /** The time `forgetBefore` goes by: a link event's occurredAt, a click event's recordedAt. */
  readonly timeOf: (event: Event) => number;
  /** The webhook fan-out's position in the log: what is after it is still to be read. */
  readonly fanOutPosition: () => Promise<string>;
  readonly clock: Clock;
  readonly keepMs: number;
}

/**
 * Forgets events (link or click) older than `keepMs`, in batches of `batch`, never one the fan-out has
 * not read yet (ADR 0128): the cut is moved back to the oldest event after its position.
 * Returns how many it forgot.
 */
export async function forgetOldEvents<Event extends { readonly position: string }>(
  deps: ForgetEventsDeps<Event>,
  batch: number,
  stopping: AbortSignal,
): Promise<number> {
  let cut = deps.clock.now() - deps.keepMs;
  const unread = await deps.log.after(await deps.fanOutPosition(), LOOK_AHEAD);
  for (const event of unread) cut = Math.min(cut, deps.timeOf(event));
  let forgotten = 0;
  while (!stopping.aborted) {
    const deleted = await deps.log.forgetBefore(cut, batch);
    forgotten += deleted;
    if (deleted < batch) break;
  }
  return forgotten;
}
