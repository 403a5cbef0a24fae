import type { Clock } from '../../ports/clock.js';

/** A touch is passed on once it has moved the horizon by this much: a message a minute. */
const ANNOUNCE_STEP_MS = 60_000;

export interface ClickEventDemandOptions {
  readonly clock: Clock;
  /** How long click events stay readable after a touch: the logs' keep (EVENTS_KEEP_MS). */
  readonly keepMs: number;
  /** The horizon moved later by at least a minute (the aggregator thread keeps it). */
  readonly onRaise?: (untilMs: number) => void;
}

/**
 * Whether the embedded fold writes the per-second click events (ADR 0131). They cost the
 * fold a row per link and second, in the thread that shares the redirects' core, and only
 * an event stream or a webhook taking `link.clicked` reads them. Each of those touches the demand while it exists; the events
 * are written until `keepMs` after the last touch, the window in which a closed stream
 * may still resume from its Last-Event-ID.
 */
export class ClickEventDemand {
  readonly #options: ClickEventDemandOptions;
  #untilMs = 0;
  #announcedUntilMs = 0;

  constructor(options: ClickEventDemandOptions) {
    this.#options = options;
  }

  /** A stream is open, or an unpaused webhook takes `link.clicked`, now. */
  touch(): void {
    const untilMs = this.#options.clock.now() + this.#options.keepMs;
    if (untilMs <= this.#untilMs) return;
    this.#untilMs = untilMs;
    if (untilMs - this.#announcedUntilMs < ANNOUNCE_STEP_MS) return;
    this.#announcedUntilMs = untilMs;
    this.#options.onRaise?.(untilMs);
  }

  /** Whether a fold at `nowMs` writes click events (the in-process aggregator asks). */
  wanted(nowMs: number): boolean {
    return nowMs < this.#untilMs;
  }
}
