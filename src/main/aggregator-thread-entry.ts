/**
 * The embedded click aggregator, in a worker thread of `hop serve` (see
 * aggregator-thread.ts): its own SQLite connection folds the queue, so a fold over
 * thousands of links never holds the event loop that answers redirects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteClickDatabase } from '../adapters/sqlite/sqlite-click-database.js';
import { ClickAggregator } from '../clicks/click-aggregator.js';
import { systemClock } from '../ports/clock.js';
import type {
  AggregatorThreadOptions,
  ClickEventsUntil,
  AggregatorThreadReport,
  QueueRequest,
  SpoolWriteAnswer,
  SpoolWriteRequest,
  SpoolWritesPort,
} from './aggregator-thread.js';

const options = workerData as AggregatorThreadOptions;
const port = parentPort;
if (port === null) throw new Error('the aggregator thread runs as a worker');

const store = SqliteClickDatabase.open(options.clicksFile, options.foldBounds);
/** Until when folds write click events (ADR 0131): kept in clicks.db across restarts. */
let clickEventsUntilMs = store.clickEventDemand.untilMs();
const aggregator = new ClickAggregator({
  source: store.clickQueue,
  store: store.clicks,
  clock: systemClock,
  batchSize: options.foldBounds.rows,
  maxReferrers: options.maxReferrers,
  logVisits: options.logVisits,
  clickEventsWanted: (nowMs) => nowMs < clickEventsUntilMs,
  // The integrations thread writes them out, at the lowest priority (ADR 0132).
  spoolLogs: true,
  idleMs: options.foldIntervalMs,
  onFailure: (error) => {
    report({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
  },
});

function report(message: AggregatorThreadReport): void {
  port?.postMessage(message);
}

function reportProgress(): void {
  let spooledFolds = 0;
  try {
    spooledFolds = store.spoolWriter.pending();
  } catch {
    // Unknown this time (clicks.db closing): reported as empty until the next report.
  }
  report({
    kind: 'progress',
    folded: aggregator.folded,
    duplicates: aggregator.duplicates,
    lagSeconds: aggregator.lagSeconds,
    spooledFolds,
  });
}

const progress = setInterval(reportProgress, options.reportIntervalMs);

port.on('message', (message: unknown) => {
  if (isQueueRequest(message)) {
    try {
      // As it came: a fold decodes (and checks) it, and drops what is not a tally.
      store.clickQueue.queueTally(message.tally);
      report({ kind: 'queued', id: message.id });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      report({ kind: 'queue-failed', id: message.id, reason });
    }
    return;
  }
  if (isClickEventsUntil(message)) {
    try {
      store.clickEventDemand.raise(message.untilMs);
    } catch (error) {
      // Kept in memory all the same: only a restart before the next raise forgets it.
      report({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
    clickEventsUntilMs = Math.max(clickEventsUntilMs, message.untilMs);
    return;
  }
  if (isSpoolWritesPort(message)) {
    // The integrations thread planned these at the lowest priority; written here, where
    // clicks.db's write lock is held anyway, so no flush waits on a starved thread.
    message.port.on('message', ({ id, chunk }: SpoolWriteRequest) => {
      let answer: SpoolWriteAnswer;
      try {
        answer = { id, written: store.spoolWriter.write(chunk) };
      } catch (error) {
        answer = { id, error: error instanceof Error ? error.message : String(error) };
      }
      message.port.postMessage(answer);
    });
    return;
  }
  if (message !== 'stop') return;
  clearInterval(progress);
  void aggregator
    .stop()
    .then(() => {
      store.close();
    })
    .then(() => {
      reportProgress();
      // Ends this thread only (not the process), whatever handles a loader left open.
      process.exit(0);
    });
});
aggregator.start();

function isQueueRequest(message: unknown): message is QueueRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as QueueRequest).kind === 'queue' &&
    (message as QueueRequest).tally instanceof ArrayBuffer
  );
}

function isSpoolWritesPort(message: unknown): message is SpoolWritesPort {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as SpoolWritesPort).kind === 'spool-port'
  );
}

function isClickEventsUntil(message: unknown): message is ClickEventsUntil {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as ClickEventsUntil).kind === 'click-events-until' &&
    typeof (message as ClickEventsUntil).untilMs === 'number'
  );
}
