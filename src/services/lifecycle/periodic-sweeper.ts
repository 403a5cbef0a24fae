import type { Clock } from '../../ports/clock.js';
import { runSweep, type SweepDeps, type SweepReport } from './sweeper.js';

export interface SweeperOptions {
  readonly deps: SweepDeps;
  readonly clock: Clock;
  /** A sweep that failed; the next interval tries again. Never throws out of the timer. */
  readonly onError: (error: unknown) => void;
  /** A sweep that finished (or was stopped between batches), and how long it took. */
  readonly onReport?: (report: SweepReport, durationMs: number) => void;
}

/**
 * Runs the sweeper every HOP_SWEEP_INTERVAL while `hop serve` runs (SPEC §7). One sweep at
 * a time: a tick that finds one still running skips. The timer never keeps the process
 * alive, and a failing sweep is reported and retried at the next tick, never thrown.
 */
export class Sweeper {
  readonly #options: SweeperOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<SweepReport | null> | null = null;
  #abort = new AbortController();

  constructor(options: SweeperOptions) {
    this.#options = options;
  }

  /** Starts sweeping every `intervalMs` (the first sweep one interval from now). */
  start(intervalMs: number): void {
    if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
      throw new RangeError(`the sweep interval must be positive, not ${intervalMs}`);
    }
    if (this.#timer !== null) throw new Error('the sweeper is already started');
    this.#abort = new AbortController();
    this.#timer = setInterval(() => {
      void this.sweepNow();
    }, intervalMs);
    this.#timer.unref();
  }

  /**
   * Sweeps now, or joins the sweep already running. Resolves with its report, or null if
   * it failed (the error went to `onError`); never rejects. After `stop` (until the next
   * `start`) a sweep stops before its first batch: shutdown starts no new work.
   */
  sweepNow(): Promise<SweepReport | null> {
    this.#running ??= this.#sweep().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Stops the timer and waits for a running sweep, which ends at its next batch boundary
   * (each batch is complete on its own; the rest waits for the next start).
   */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#abort.abort();
    await this.#running;
  }

  async #sweep(): Promise<SweepReport | null> {
    const { deps, clock, onError, onReport } = this.#options;
    const started = performance.now();
    try {
      const report = await runSweep(deps, clock.now(), this.#abort.signal);
      onReport?.(report, performance.now() - started);
      return report;
    } catch (error) {
      try {
        onError(error);
      } catch {
        // A failing error handler must not take the timer down with it.
      }
      return null;
    }
  }
}
