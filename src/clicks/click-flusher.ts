import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ClickSink, SummingSend } from '../ports/click-sink.js';
import type { ClickBuffer } from './click-buffer.js';

/**
 * Clicks a summing sink is handed per event-loop turn: about a millisecond of this
 * thread's time (measured at 1.2 µs a click with peek, sum and the address lookups: ADR
 * 0143), so a redirect waits at most about that for a flush.
 */
const CLICKS_PER_TURN = 1000;

/**
 * The most clicks one flush to `sink` peeks at once, sends of `batchSize`: what a buffer
 * feeding it makes its outgoing columns for (ClickBuffer's `largestPeek`). A summing sink
 * is handed CLICKS_PER_TURN at a time, so columns for a whole send (100,000 clicks, 8 MB
 * embedded) would sit unused: the summing is in slices since ADR 0143.
 */
export function largestPeekFor(sink: ClickSink, batchSize: number): number {
  return sink.summing === undefined ? batchSize : Math.min(batchSize, CLICKS_PER_TURN);
}

export interface ClickFlusherDeps {
  readonly buffer: ClickBuffer;
  readonly sink: ClickSink;
  /** This process's id: with a click's sequence number, the event id. */
  readonly instance: string;
  readonly intervalMs: number;
  /** Clicks per `send`. */
  readonly batchSize: number;
  /** A send failed; the clicks stay buffered and go again on the next tick. */
  readonly onFailure: (error: unknown) => void;
  /** A send succeeded after failures. */
  readonly onRecovery: () => void;
  /** The buffer started dropping clicks (told once per episode, at a tick). */
  readonly onDropping: (droppedSoFar: number) => void;
}

/**
 * Sends what the buffer holds to the sink every interval (SPEC §6). Clicks leave the
 * buffer only once the sink has them, so while the sink is down they wait, up to the
 * buffer's bound, and flushing resumes by itself when it is back.
 */
export class ClickFlusher {
  readonly #deps: ClickFlusherDeps;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<boolean> | null = null;
  #failing = false;
  #droppedAtLastTick = 0;
  #dropping = false;
  /** Clicks the sink accepted. */
  flushed = 0;
  /** Sends that failed. */
  failures = 0;

  constructor(deps: ClickFlusherDeps) {
    this.#deps = deps;
  }

  start(): void {
    this.#timer ??= setInterval(() => {
      this.#noticeDrops();
      void this.flush();
    }, this.#deps.intervalMs);
    this.#timer.unref();
  }

  /**
   * Sends everything buffered now, batch by batch; true when the buffer was emptied,
   * false when the sink failed (the rest waits). Joins a flush already running.
   */
  flush(): Promise<boolean> {
    this.#running ??= this.#flushAll().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** No more ticks; one last flush of what is buffered (SIGTERM). */
  async stop(): Promise<boolean> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
    return this.flush();
  }

  #noticeDrops(): void {
    const dropped = this.#deps.buffer.dropped;
    const wasDropping = this.#dropping;
    this.#dropping = dropped > this.#droppedAtLastTick;
    this.#droppedAtLastTick = dropped;
    if (this.#dropping && !wasDropping) this.#deps.onDropping(dropped);
  }

  async #flushAll(): Promise<boolean> {
    const { buffer, sink, batchSize, instance } = this.#deps;
    // Only what is here now: under steady load a flush must end.
    let remaining = buffer.size;
    while (remaining > 0) {
      // Never more than the buffer holds: only this flush takes clicks out of it.
      const count = Math.min(batchSize, remaining);
      try {
        if (sink.summing === undefined) await sink.send(buffer.peek(count, instance));
        else await this.#sendSummed(sink.summing, count);
      } catch (error) {
        this.failures++;
        if (!this.#failing) this.#deps.onFailure(error);
        this.#failing = true;
        return false;
      }
      if (this.#failing) this.#deps.onRecovery();
      this.#failing = false;
      buffer.discard(count);
      this.flushed += count;
      remaining -= count;
      // A synchronous sink would otherwise hold the event loop for the whole backlog.
      if (remaining > 0) await nextTurn();
    }
    return true;
  }

  /**
   * The oldest `count` clicks as one send of a summing sink, peeked and summed
   * CLICKS_PER_TURN at a time with an event-loop turn between: summed at once, a flush
   * held the redirects for up to 6–9 ms at 5,000 clicks a second on a whole core, and in
   * proportion to the clicks it holds (ADR 0143). Clicks pushed meanwhile go behind them
   * and wait for the next send.
   */
  async #sendSummed(summing: SummingSend, count: number): Promise<void> {
    const { buffer, instance } = this.#deps;
    try {
      for (let from = 0; from < count; from += CLICKS_PER_TURN) {
        if (from > 0) await nextTurn();
        summing.add(buffer.peek(Math.min(CLICKS_PER_TURN, count - from), instance, from));
      }
      await summing.send();
    } catch (error) {
      summing.discard();
      throw error;
    }
  }
}
