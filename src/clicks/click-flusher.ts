import { boundCountry, referrerHostOf, type ClickEvent } from '../domain/click-event.js';
import type { ClickSink } from '../ports/click-sink.js';
import type { ClickBuffer, RawClick } from './click-buffer.js';
import type { DeviceClassifier } from './classify-device.js';

/** Distinct referrers remembered with their host (parsing a URL costs microseconds). */
const MAX_REMEMBERED_REFERRERS = 10_000;

export interface ClickFlusherDeps {
  readonly buffer: ClickBuffer;
  readonly sink: ClickSink;
  /** This process's id: with a click's sequence number, the event id. */
  readonly instance: string;
  readonly devices: DeviceClassifier;
  readonly intervalMs: number;
  /** Events per `send`. */
  readonly batchSize: number;
  /** A send failed; the events stay buffered and go again on the next tick. */
  readonly onFailure: (error: unknown) => void;
  /** A send succeeded after failures. */
  readonly onRecovery: () => void;
  /** The buffer started dropping clicks (told once per episode, at a tick). */
  readonly onDropping: (droppedSoFar: number) => void;
}

/**
 * Sends what the buffer holds to the sink every interval (SPEC §6). Events leave the
 * buffer only once the sink has them, so while the sink is down they wait, up to the
 * buffer's bound, and flushing resumes by itself when it is back. Dimensions are derived
 * here, off the redirect path: device class from the user agent, the referrer's host.
 */
export class ClickFlusher {
  readonly #deps: ClickFlusherDeps;
  readonly #referrerHosts = new Map<string, string>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<boolean> | null = null;
  #failing = false;
  #droppedAtLastTick = 0;
  #dropping = false;
  /** Events the sink accepted. */
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
    const { buffer, sink, batchSize } = this.#deps;
    // Only what is here now: under steady load a flush must end.
    let remaining = buffer.size;
    while (remaining > 0) {
      const raw = buffer.peek(Math.min(batchSize, remaining));
      const events = raw.map((click) => this.#eventOf(click));
      try {
        await sink.send(events);
      } catch (error) {
        this.failures++;
        if (!this.#failing) this.#deps.onFailure(error);
        this.#failing = true;
        return false;
      }
      if (this.#failing) this.#deps.onRecovery();
      this.#failing = false;
      buffer.discard(raw.length);
      this.flushed += raw.length;
      remaining -= raw.length;
    }
    return true;
  }

  #eventOf(click: RawClick): ClickEvent {
    return {
      instance: this.#deps.instance,
      seq: click.seq,
      linkId: click.linkId,
      code: click.code,
      at: click.at,
      country: boundCountry(click.country),
      device: this.#deps.devices.classify(click.userAgent),
      referrer: this.#hostOf(click.referer),
    };
  }

  #hostOf(referer: string | undefined): string {
    if (referer === undefined) return referrerHostOf(undefined);
    const known = this.#referrerHosts.get(referer);
    if (known !== undefined) return known;
    const host = referrerHostOf(referer);
    if (this.#referrerHosts.size >= MAX_REMEMBERED_REFERRERS) this.#referrerHosts.clear();
    this.#referrerHosts.set(referer, host);
    return host;
  }
}
