import type { MessagePort } from 'node:worker_threads';
import { startEntryWorker } from '../adapters/threads/entry-worker.js';
import { describeWorkerError } from '../adapters/threads/worker-error.js';
import type { DeliveryBounds } from '../adapters/sqlite/sqlite-click-queue.js';
import type { SpooledChunk } from '../adapters/sqlite/sqlite-fold-log-spool.js';
import { FlushTally } from '../wire/flush-tally.js';
import type { ClickSink } from '../ports/click-sink.js';

export interface AggregatorThreadOptions {
  /** clicks.db */
  readonly clicksFile: string;
  readonly maxReferrers: number;
  /** HOP_VISIT_LOG (ADR 0125). */
  readonly logVisits: boolean;
  /** How much of the queue (flushed batches) one fold takes. */
  readonly foldBounds: DeliveryBounds;
  /** The pause after a fold that emptied the queue: clicks gather, and fold together. */
  readonly foldIntervalMs: number;
  readonly reportIntervalMs: number;
}

/**
 * From `hop serve` to the thread: queue this flushed batch, already summed, in the wire
 * format (`click-tally-wire.ts`): bytes, transferred, not copied; thousands of small
 * objects would be cloned one by one, and made first.
 */
export interface QueueRequest {
  readonly kind: 'queue';
  readonly id: number;
  readonly tally: ArrayBuffer;
}

/** From `hop serve` to the thread: write click events until then (ADR 0131). */
export interface ClickEventsUntil {
  readonly kind: 'click-events-until';
  readonly untilMs: number;
}

/**
 * From `hop serve` to the thread: the port on which the integrations thread sends the
 * spooled folds' log rows it planned, for this thread to write (ADR 0132).
 */
export interface SpoolWritesPort {
  readonly kind: 'spool-port';
  readonly port: MessagePort;
}

/** On the spool port: a chunk to write, and the answer. */
export interface SpoolWriteRequest {
  readonly id: number;
  readonly chunk: SpooledChunk;
}
export type SpoolWriteAnswer =
  | { readonly id: number; readonly written: boolean }
  | { readonly id: number; readonly error: string };

export type AggregatorThreadReport =
  | { readonly kind: 'queued'; readonly id: number }
  | { readonly kind: 'queue-failed'; readonly id: number; readonly reason: string }
  | {
      readonly kind: 'progress';
      readonly folded: number;
      readonly duplicates: number;
      readonly lagSeconds: number;
      /** Rows in the fold log spool (ADR 0132). */
      readonly spooledFolds: number;
    }
  /** A fold failed (once per run of failures: the aggregator says so only then). */
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * The aggregator as `hop serve` sees it: the sink its flusher sends to (the thread writes
 * the queue, so hop serve's own thread never waits on clicks.db's lock), its counters, and
 * a way to stop it.
 */
export interface AggregatorThread {
  readonly sink: ClickSink;
  readonly folded: number;
  readonly duplicates: number;
  readonly lagSeconds: number;
  readonly spooledFolds: number;
  /** Folds write click events until `untilMs` at least (ADR 0131); the thread keeps it. */
  wantClickEventsUntil(untilMs: number): void;
  /** Writes what the integrations thread sends on `port` (ADR 0132). */
  acceptSpoolWrites(port: MessagePort): void;
  /** Finishes the fold in progress, closes its connection, ends the thread. */
  stop(): Promise<void>;
}

/**
 * A fold makes an object per bucket of every tally it reads, all dead once it commits. It
 * was 64 MB, to hold a whole fold; since a fold names at most about 20,000 links (ADR
 * 0145), 16 MB measured no more CPU per request, paired, under `hot` (0.994, 1.004) and
 * `uniform` (0.987, 0.912), with a 30 to 50 MB smaller heap in this thread.
 */
const AGGREGATOR_HEAP = { maxYoungGenerationSizeMb: 16 };

/**
 * Starts the embedded aggregator in a worker thread (its entry: aggregator-thread-entry).
 */
export function startAggregatorThread(
  options: AggregatorThreadOptions,
  onFailure: (reason: string) => void,
): AggregatorThread {
  const worker = startEntryWorker(import.meta.url, 'aggregator-thread-entry', {
    workerData: options,
    resourceLimits: AGGREGATOR_HEAP,
  });
  const state = { folded: 0, duplicates: 0, lagSeconds: 0, spooledFolds: 0 };
  let nextId = 0;
  let stopping = false;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  worker.on('message', (message: AggregatorThreadReport) => {
    if (message.kind === 'queued' || message.kind === 'queue-failed') {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (waiting.size === 0 && !stopping) worker.unref();
      if (message.kind === 'queued') waiter?.resolve();
      else waiter?.reject(new Error(message.reason));
    } else if (message.kind === 'progress') {
      state.folded = message.folded;
      state.duplicates = message.duplicates;
      state.lagSeconds = message.lagSeconds;
      state.spooledFolds = message.spooledFolds;
    } else {
      onFailure(message.reason);
    }
  });
  worker.on('error', (error: unknown) => {
    onFailure(describeWorkerError(error));
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      for (const waiter of waiting.values())
        waiter.reject(new Error('the aggregator thread ended'));
      waiting.clear();
      resolve();
    }),
  );
  worker.unref();
  const post = (tally: ArrayBuffer) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      // A batch on its way keeps the process alive: at shutdown, once the server has
      // closed, nothing else would, and the last flush would be lost.
      worker.ref();
      const request: QueueRequest = { kind: 'queue', id, tally };
      worker.postMessage(request, [tally]);
    });
  const flushTally = new FlushTally();
  const sink: ClickSink = {
    // Summed in memory kept between flushes and sent as bytes: a flush leaves next to
    // nothing on this thread's heap to outlive a young-generation collection (see
    // FlushTally). The thread queues the bytes as they are.
    send: (batch) => (batch.size === 0 ? Promise.resolve() : post(flushTally.encode(batch))),
    close: () => Promise.resolve(),
    summing: flushTally.summingInto(post),
  };
  return {
    sink,
    get folded() {
      return state.folded;
    },
    get duplicates() {
      return state.duplicates;
    },
    get lagSeconds() {
      return state.lagSeconds;
    },
    get spooledFolds() {
      return state.spooledFolds;
    },
    wantClickEventsUntil: (untilMs) => {
      const message: ClickEventsUntil = { kind: 'click-events-until', untilMs };
      worker.postMessage(message);
    },
    acceptSpoolWrites: (port) => {
      const message: SpoolWritesPort = { kind: 'spool-port', port };
      worker.postMessage(message, [port]);
    },
    stop: () => {
      stopping = true;
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
