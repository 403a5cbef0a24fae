import type { Link } from '../domain/link.js';

/**
 * The durable outbox of issue 23 (ADR 0127): what happened to links and their clicks, kept
 * in the same transaction as the change it describes, read in order by the webhook
 * fan-out and the event stream. Two logs, because a link's change and its clicks commit in
 * different transactions (on SQLite, in different files): each has its own sequence.
 */

/** A link event's type, as webhooks and the event stream name it. */
export type LinkEventType = 'link.created' | 'link.updated' | 'link.deleted';

/** One committed change to a link. */
export interface LinkEventRecord {
  /** Its place in the log (see EventLog). */
  readonly position: string;
  readonly type: LinkEventType;
  /** When the change committed (epoch ms, the writer's clock). */
  readonly occurredAt: number;
  /** The link as the change left it (a deleted link: its tombstone). */
  readonly link: Link;
}

/** Clicks per value of one dimension, within one click event. */
export type DimensionCounts = Readonly<Record<string, number>>;

/**
 * The clicks of one link within one second, as one fold counted them (issue 23:
 * `link.clicked` is batched per link and second). A second whose clicks were folded in
 * two folds (two instances, or a fold boundary) is two events.
 */
export interface ClickEventRecord {
  /** Its place in the log (see EventLog). */
  readonly position: string;
  readonly linkId: string;
  /** The first epoch millisecond of the second the clicks happened in. */
  readonly second: number;
  /** People's clicks. */
  readonly clicks: number;
  /** Bots' clicks (ADR 0094): in no dimension. */
  readonly botClicks: number;
  /** People's clicks by dimension value; a click whose value is unknown is in none. */
  readonly countries: DimensionCounts;
  readonly devices: DimensionCounts;
  readonly browsers: DimensionCounts;
  readonly oses: DimensionCounts;
  readonly referrers: DimensionCounts;
  readonly languages: DimensionCounts;
  /** When the fold committed it (epoch ms). */
  readonly recordedAt: number;
}

/**
 * An event log read in order from a position. A position is opaque text made of digits and
 * `:` (so a caller may join two with another character): `''` is before the first event.
 * Events are returned in commit order, so a reader that goes on from the last position it
 * saw never skips one committed later. On SQLite (one writer) a position is the event's
 * sequence number. On PostgreSQL it is the writing transaction's id and the sequence
 * number, read only below the oldest transaction still running (ADR 0127).
 */
export interface EventLog<Event extends { readonly position: string }> {
  /** The newest event's position (`''` when there is none): following from here skips the past. */
  latest(): Promise<string>;
  /** Up to `limit` events after `position`, in commit order. */
  after(position: string, limit: number): Promise<readonly Event[]>;
  /** Deletes up to `limit` events recorded before `olderThanMs`; how many it deleted. */
  forgetBefore(olderThanMs: number, limit: number): Promise<number>;
}

/** True when `position` is one an EventLog could have made (`''` included). */
export function isEventPosition(position: string): boolean {
  return /^(?:\d{1,20}(?::\d{1,20})?)?$/.test(position);
}

/**
 * Orders two positions of one log: negative when `a` comes first. A position is digits
 * (`seq`) or digits:digits (`xid:seq`), each part a whole number without leading zeros,
 * compared part by part; `''` comes before every other.
 */
export function comparePositions(a: string, b: string): number {
  if (a === b) return 0;
  const left = a === '' ? [] : a.split(':');
  const right = b === '' ? [] : b.split(':');
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const x = left[index] ?? '';
    const y = right[index] ?? '';
    if (x.length !== y.length) return x.length - y.length;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export type LinkEventLog = EventLog<LinkEventRecord>;
export type ClickEventLog = EventLog<ClickEventRecord>;
