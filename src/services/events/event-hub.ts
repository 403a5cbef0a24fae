import { HopError } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import {
  comparePositions,
  type ClickEventLog,
  type ClickEventRecord,
  type EventLog,
  type LinkEventLog,
  type LinkEventRecord,
} from '../../ports/event-log.js';
import {
  audienceOf,
  canSeeEventsOf,
  type EventAudience,
  type LinkPlace,
} from './event-visibility.js';
import type { LinkPlaces } from './link-places.js';
import type { StreamPosition } from './stream-position.js';

/** The records a stream renders, as the logs give them (src/http may not import ports). */
export type { ClickEventRecord, DimensionCounts, LinkEventRecord } from '../../ports/event-log.js';

/** One event as the hub hands it to a stream. */
export type HubEvent =
  | { readonly kind: 'link'; readonly record: LinkEventRecord }
  | { readonly kind: 'click'; readonly record: ClickEventRecord };

/** Why the hub ended a stream. */
export type StreamEnd = 'closing' | 'too-slow' | 'failed';

/** What a stream's owner (the route) gives the hub. */
export interface EventSubscriber {
  /**
   * Takes an event the caller may see, with the stream's position after it (what a client
   * resumes from). False: it holds too much unsent already; the hub sends nothing more
   * until `ready` resolves, then reads what it missed from the logs.
   */
  deliver(event: HubEvent, position: StreamPosition): boolean;
  /** Resolves when it has room for more: a replay waits for it between pages. */
  ready(): Promise<void>;
  /** The hub has ended the stream; it will deliver nothing more. */
  end(reason: StreamEnd): void;
}

/** An open stream, as its route holds it. */
export interface EventSubscription {
  /** Replays what the stream resumes from, then goes live: call once its headers are out. */
  start(): void;
  /** The client went away: the hub forgets the stream (idempotent). */
  close(): void;
}

export interface EventHubOptions {
  readonly links: LinkEventLog;
  /** Null until a click log exists (the stream then carries link events only). */
  readonly clicks: ClickEventLog | null;
  readonly places: LinkPlaces;
  /** How long the poller waits between reads of the logs. */
  readonly pollIntervalMs: number;
  /** Streams one key may hold open at once (HOP_EVENT_STREAMS_PER_KEY). */
  readonly streamsPerKey: number;
  /**
   * Live events a stream holds while it replays; past it they are dropped, and read again
   * from the logs once the replay is done.
   */
  readonly maxPendingEvents?: number;
  /** How long a stream may wait for its client to take what it holds before it is ended. */
  readonly maxStallMs?: number;
  /**
   * Called at each poll, that is while a stream is open: click events must be written
   * (ADR 0131).
   */
  readonly whileStreaming?: () => void;
  /** A read of the logs failed: logged and counted by the caller; the poller goes on. */
  readonly onError: (error: unknown) => void;
}

/** Events read from a log at once. */
const PAGE_SIZE = 200;
const DEFAULT_MAX_PENDING_EVENTS = 10_000;
/** Four heartbeats: a client that takes nothing for a minute is gone or stuck. */
const DEFAULT_MAX_STALL_MS = 60_000;

type LogName = 'links' | 'clicks';
const LOG_NAMES: readonly LogName[] = ['links', 'clicks'];

interface PendingEvent {
  readonly log: LogName;
  readonly event: HubEvent;
  readonly position: string;
}

interface Stream {
  state: 'waiting' | 'joining' | 'live' | 'ended';
  readonly keyId: string;
  readonly audience: EventAudience;
  readonly subscriber: EventSubscriber;
  readonly from: StreamPosition | null;
  /**
   * Where the stream is in each log: the last event it passed, shown or not. An event at
   * or before it is one the stream had already (its replay read ahead of the hub).
   */
  position: { links: string; clicks: string };
  /** Live events that came while the stream replayed. */
  pending: PendingEvent[];
  /** Live events were dropped since its replay began: it reads the logs once more. */
  overflowed: boolean;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The event stream's hub (issue 23, ADR 0129): one poller per process reads the link and
 * click event logs after the positions it has reached, and hands each event, in the
 * logs' order, to every open stream whose caller may see it. It polls only while a stream
 * is open. A stream that resumes from a position replays the logs from there and joins the
 * live feed with nothing missed and nothing twice; a stream whose client lets its buffer
 * fill is sent nothing until it has drained, then catches up from the logs the same way.
 * Nothing is buffered without bound, and a client that takes nothing for `maxStallMs` is
 * ended.
 */
export class EventHub {
  readonly #options: EventHubOptions;
  readonly #maxPending: number;
  readonly #maxStallMs: number;
  readonly #streams = new Set<Stream>();
  readonly #openPerKey = new Map<string, number>();
  /** Everything up to here has been handed out; null until the first poll after idling. */
  #head: { links: string; clicks: string } | null = null;
  #waiters: Waiter[] = [];
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #closed = false;
  /** Click events' links' places, looked up once per event before it is handed out. */
  readonly #clickPlaces = new WeakMap<ClickEventRecord, LinkPlace | null>();

  constructor(options: EventHubOptions) {
    this.#options = options;
    this.#maxPending = options.maxPendingEvents ?? DEFAULT_MAX_PENDING_EVENTS;
    this.#maxStallMs = options.maxStallMs ?? DEFAULT_MAX_STALL_MS;
  }

  /** Streams open now (with those still joining). */
  get openStreams(): number {
    return this.#streams.size;
  }

  /**
   * Opens a stream for `principal` from `from` (null: from now). Resolves once it is
   * registered, after a read of the logs that began after this call: an event committed
   * before the call is either replayed or already behind `from`, one committed after is
   * delivered. Throws `rate-limited` when the key holds its most streams already.
   */
  async open(
    principal: Principal,
    from: StreamPosition | null,
    subscriber: EventSubscriber,
  ): Promise<EventSubscription> {
    if (this.#closed) {
      throw new HopError('store-unavailable', 'This instance is shutting down.', {
        retryable: true,
      });
    }
    const open = this.#openPerKey.get(principal.keyId) ?? 0;
    if (open >= this.#options.streamsPerKey) {
      throw new HopError(
        'rate-limited',
        `This key has ${open} event streams open, the most it may (HOP_EVENT_STREAMS_PER_KEY); close one first.`,
      );
    }
    const stream: Stream = {
      state: 'waiting',
      keyId: principal.keyId,
      audience: audienceOf(principal),
      subscriber,
      from,
      position: { links: '', clicks: '' },
      pending: [],
      overflowed: false,
    };
    this.#streams.add(stream);
    this.#openPerKey.set(principal.keyId, open + 1);
    try {
      await this.#nextPoll();
    } catch (error) {
      this.#forget(stream);
      throw error;
    }
    const head = this.#head;
    if (stream.state === 'ended' || head === null) {
      this.#forget(stream);
      throw new HopError('store-unavailable', 'This instance is shutting down.', {
        retryable: true,
      });
    }
    stream.position = { ...(from ?? head) };
    stream.state = 'joining';
    return {
      start: () => {
        this.#catchUp(stream).catch((error: unknown) => {
          this.#options.onError(error);
          this.#end(stream, 'failed');
        });
      },
      close: () => {
        this.#forget(stream);
      },
    };
  }

  /** Ends every stream and stops the poller once its read in progress is done. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const stream of this.#streams) this.#end(stream, 'closing');
    this.#wake?.();
    await this.#loop;
  }

  /**
   * Replays the logs from the stream's position to their ends (once more if live events
   * were dropped meanwhile), then hands over the live events that came during the replay
   * and goes live. Synchronous from the replay's end to the hand-over: no live event comes
   * in between, and those the replay had sent already are skipped by their position.
   * `replay` false (a stream that fell behind): its pending events are all it missed,
   * unless some were dropped, and only then are the logs read again.
   */
  async #catchUp(stream: Stream, replay = true): Promise<void> {
    for (let readLogs = replay; readLogs || stream.overflowed; readLogs = false) {
      stream.overflowed = false;
      for (const log of LOG_NAMES) {
        const source = this.#logOf(log);
        if (source === null) continue;
        for (;;) {
          const page = await source.after(stream.position[log], PAGE_SIZE);
          for (const record of page) {
            const event = await this.#eventOf(log, record);
            if (stream.state === 'ended') return;
            this.#offer(stream, log, event, record.position);
          }
          if (page.length < PAGE_SIZE) break;
          if (!(await this.#roomIn(stream))) return;
        }
      }
    }
    if (stream.state !== 'joining') return;
    stream.state = 'live';
    const pending = stream.pending;
    stream.pending = [];
    for (const [index, { log, event, position }] of pending.entries()) {
      const state = this.#offer(stream, log, event, position);
      if (state === 'joining') {
        // Behind again: the rest go first in what its next hand-over sends.
        stream.pending = [...pending.slice(index + 1), ...stream.pending];
        return;
      }
      if (state !== 'live') return;
    }
  }

  /**
   * A live stream whose client has a full buffer (a fold's click events come in a burst)
   * is sent nothing more until the buffer has drained; the live feed waits as pending
   * events meanwhile, and it then goes on from them (from the logs, if more came than the
   * pending bound). First built, it always replayed the logs: each burst was read twice.
   */
  #fallBehind(stream: Stream): void {
    if (stream.state !== 'live') return;
    stream.state = 'joining';
    stream.pending = [];
    stream.overflowed = false;
    this.#roomIn(stream)
      .then(async (room) => {
        if (room) await this.#catchUp(stream, false);
      })
      .catch((error: unknown) => {
        this.#options.onError(error);
        this.#end(stream, 'failed');
      });
  }

  /**
   * Waits until the stream's client has room for more; false when the stream ended first,
   * or is ended now because its client took nothing for `maxStallMs`.
   */
  async #roomIn(stream: Stream): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) => {
      timer = setTimeout(() => {
        resolve('stalled');
      }, this.#maxStallMs);
      timer.unref();
    });
    try {
      const ready = stream.subscriber.ready().then(() => 'ready' as const);
      if ((await Promise.race([ready, stalled])) === 'stalled') this.#end(stream, 'too-slow');
    } finally {
      clearTimeout(timer);
    }
    return stream.state !== 'ended';
  }

  /**
   * Hands one event to a stream if its caller may see it, unless the stream has passed it
   * already; the stream's state after it.
   */
  #offer(stream: Stream, log: LogName, event: HubEvent, position: string): Stream['state'] {
    if (comparePositions(position, stream.position[log]) <= 0) return stream.state;
    stream.position[log] = position;
    if (!this.#canSee(stream.audience, event)) return stream.state;
    if (!stream.subscriber.deliver(event, { ...stream.position })) this.#fallBehind(stream);
    return stream.state;
  }

  #canSee(audience: EventAudience, event: HubEvent): boolean {
    if (event.kind === 'link') return canSeeEventsOf(audience, event.record.link);
    if (!audience.seesClicks) return false;
    const place = this.#clickPlaces.get(event.record);
    return place !== undefined && place !== null && canSeeEventsOf(audience, place);
  }

  async #eventOf(log: LogName, record: LinkEventRecord | ClickEventRecord): Promise<HubEvent> {
    if (log === 'links') {
      const link = (record as LinkEventRecord).link;
      this.#options.places.remember(link.id, link);
      return { kind: 'link', record: record as LinkEventRecord };
    }
    const click = record as ClickEventRecord;
    if (!this.#clickPlaces.has(click)) {
      this.#clickPlaces.set(click, await this.#options.places.placeOf(click.linkId));
    }
    return { kind: 'click', record: click };
  }

  #logOf(log: LogName): EventLog<LinkEventRecord | ClickEventRecord> | null {
    return log === 'links' ? this.#options.links : this.#options.clicks;
  }

  /** Resolves after a poll that began after this call; rejects if that poll failed. */
  #nextPoll(): Promise<void> {
    const polled = new Promise<void>((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
    });
    this.#loop ??= this.#run();
    this.#wake?.();
    return polled;
  }

  async #run(): Promise<void> {
    while (!this.#closed && this.#streams.size > 0) {
      const waiters = this.#waiters;
      this.#waiters = [];
      try {
        await this.#poll();
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        this.#options.onError(error);
        for (const waiter of waiters) waiter.reject(error);
      }
      if (this.#waiters.length === 0) await this.#sleep();
    }
    // Idle: the next stream starts from the logs' ends again.
    this.#head = null;
    this.#loop = null;
    const stranded = this.#waiters;
    this.#waiters = [];
    const closing = new HopError('store-unavailable', 'This instance is shutting down.', {
      retryable: true,
    });
    for (const waiter of stranded) waiter.reject(closing);
  }

  async #poll(): Promise<void> {
    this.#options.whileStreaming?.();
    if (this.#head === null) {
      // Following from the logs' ends skips the past: a stream from now wants none of it.
      const links = await this.#options.links.latest();
      const clicks = (await this.#options.clicks?.latest()) ?? '';
      this.#head = { links, clicks };
      return;
    }
    for (const log of LOG_NAMES) {
      const source = this.#logOf(log);
      if (source === null) continue;
      for (;;) {
        const head: { links: string; clicks: string } = this.#head;
        const page = await source.after(head[log], PAGE_SIZE);
        for (const record of page) {
          const event = await this.#eventOf(log, record);
          // The head moves with each event handed out, so that a stream registering
          // between two of them joins exactly after the first.
          head[log] = record.position;
          this.#fanOut(log, event, record.position);
        }
        if (page.length < PAGE_SIZE || this.#closed) break;
      }
    }
  }

  #fanOut(log: LogName, event: HubEvent, position: string): void {
    for (const stream of this.#streams) {
      if (stream.state === 'joining') {
        stream.pending.push({ log, event, position });
        if (stream.pending.length > this.#maxPending) {
          // Bounded: its replay reads these from the logs again.
          stream.pending = [];
          stream.overflowed = true;
        }
      } else if (stream.state === 'live') {
        this.#offer(stream, log, event, position);
      }
      // A waiting stream joins after this event: the head it will take is past it.
    }
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#options.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  #end(stream: Stream, reason: StreamEnd): void {
    if (stream.state === 'ended') return;
    this.#forget(stream);
    stream.subscriber.end(reason);
  }

  #forget(stream: Stream): void {
    if (!this.#streams.delete(stream)) {
      stream.state = 'ended';
      return;
    }
    stream.state = 'ended';
    stream.pending = [];
    const open = (this.#openPerKey.get(stream.keyId) ?? 1) - 1;
    if (open === 0) this.#openPerKey.delete(stream.keyId);
    else this.#openPerKey.set(stream.keyId, open);
  }
}
