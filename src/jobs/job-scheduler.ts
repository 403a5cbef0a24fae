import type { Logger } from '../observability/logger.js';

/** A background job: a plain, idempotent round of work that the scheduler repeats. */
export interface PeriodicJob {
  /** Unique within a scheduler; names the job to `runNow` and `failures`. */
  readonly name: string;
  /** A round every this many ms; null: only at start (`runAtStart`) and when asked (`runNow`). */
  readonly everyMs: number | null;
  /** A round at once (polls, the census), or first one interval from now (the sweeper). */
  readonly runAtStart: boolean;
  /** One round. `stopping` aborts at shutdown: a round that heeds it ends at a batch boundary. */
  readonly run: (stopping: AbortSignal) => Promise<void>;
  /** Logged, with the error, when a round fails; with `recovered`, only when rounds start failing. */
  readonly failing: string;
  /** For frequent polls: logged when a round succeeds again after failures. */
  readonly recovered?: string;
  /**
   * Whether stop waits for a round in progress (one that heeds `stopping`); otherwise it is
   * left to fail, without a word, when the store closes under it.
   */
  readonly finishOnStop?: boolean;
}

interface Scheduled {
  readonly job: PeriodicJob;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  failing: boolean;
  failures: number;
}

/**
 * Runs a runtime's background jobs: each on its own timer that never keeps the process
 * alive, one round of a job at a time (a tick during a round joins it), failures logged
 * and counted, never thrown; `stop` ends them all.
 */
export class JobScheduler {
  readonly #logger: Logger;
  readonly #jobs = new Map<string, Scheduled>();
  readonly #stopping = new AbortController();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Starts `job`: a round now or one interval from now, then one every `everyMs`. */
  start(job: PeriodicJob): void {
    if (this.#jobs.has(job.name)) throw new Error(`the job ${job.name} is already started`);
    if (job.everyMs !== null && !(Number.isFinite(job.everyMs) && job.everyMs > 0)) {
      throw new RangeError(
        `the job ${job.name} must run at a positive interval, not ${job.everyMs}`,
      );
    }
    const scheduled: Scheduled = { job, timer: null, running: null, failing: false, failures: 0 };
    this.#jobs.set(job.name, scheduled);
    if (this.#stopping.signal.aborted) return;
    if (job.runAtStart) void this.#round(scheduled);
    if (job.everyMs !== null) {
      scheduled.timer = setInterval(() => {
        void this.#round(scheduled);
      }, job.everyMs);
      scheduled.timer.unref();
    }
  }

  /**
   * A round of a started job now, or the one already running. Never rejects (a failure is
   * logged and counted); after `stop`, starts and waits for nothing.
   */
  runNow(name: string): Promise<void> {
    const scheduled = this.#jobs.get(name);
    if (scheduled === undefined) throw new Error(`no job named ${name} is started`);
    return this.#round(scheduled);
  }

  /** Rounds of the job that failed since it started. */
  failures(name: string): number {
    return this.#jobs.get(name)?.failures ?? 0;
  }

  /**
   * Stops every timer, tells running rounds to stop, and waits for those of jobs that
   * finish on stop. Safe to call more than once.
   */
  async stop(): Promise<void> {
    this.#stopping.abort();
    const waits: Promise<void>[] = [];
    for (const scheduled of this.#jobs.values()) {
      if (scheduled.timer !== null) clearInterval(scheduled.timer);
      scheduled.timer = null;
      if (scheduled.job.finishOnStop === true && scheduled.running !== null) {
        waits.push(scheduled.running);
      }
    }
    await Promise.all(waits);
  }

  #round(scheduled: Scheduled): Promise<void> {
    if (this.#stopping.signal.aborted) return Promise.resolve();
    if (scheduled.running !== null) return scheduled.running;
    const { job } = scheduled;
    // Called at once (the executor runs synchronously); a throw becomes a failed round.
    const round = new Promise<void>((resolve) => {
      resolve(job.run(this.#stopping.signal));
    });
    const running = round
      .then(
        () => {
          if (scheduled.failing && job.recovered !== undefined) this.#logger.info(job.recovered);
          scheduled.failing = false;
        },
        (error: unknown) => {
          scheduled.failures++;
          // At shutdown the store closes under rounds that do not wait: no news.
          const quiet =
            this.#stopping.signal.aborted || (scheduled.failing && job.recovered !== undefined);
          if (!quiet) this.#logger.warn({ err: error }, job.failing);
          scheduled.failing = true;
        },
      )
      .finally(() => {
        scheduled.running = null;
      });
    scheduled.running = running;
    return running;
  }
}
