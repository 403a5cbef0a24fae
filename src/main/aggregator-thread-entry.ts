/**
 * The embedded click aggregator, in a worker thread of `hop serve` (see
 * aggregator-thread.ts): its own SQLite connection folds the queue, so a fold over
 * thousands of links never holds the event loop that answers redirects.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from '../adapters/sqlite/sqlite-store.js';
import { ClickAggregator } from '../clicks/click-aggregator.js';
import { systemClock } from '../ports/clock.js';
import type { AggregatorThreadOptions, AggregatorThreadReport } from './aggregator-thread.js';

const options = workerData as AggregatorThreadOptions;
const port = parentPort;
if (port === null) throw new Error('the aggregator thread runs as a worker');

const store = SqliteStore.open({
  file: options.databaseFile,
  queueRowsPerDelivery: options.rowsPerFold,
});
const aggregator = new ClickAggregator({
  source: store.clickQueue,
  store: store.clicks,
  clock: systemClock,
  batchSize: options.rowsPerFold,
  maxReferrers: options.maxReferrers,
  idleMs: options.foldIntervalMs,
  onFailure: (error) => {
    report({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
  },
});

function report(message: AggregatorThreadReport): void {
  port?.postMessage(message);
}

const progress = setInterval(() => {
  report({
    kind: 'progress',
    folded: aggregator.folded,
    duplicates: aggregator.duplicates,
    lagSeconds: aggregator.lagSeconds,
  });
}, options.reportIntervalMs);

port.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(progress);
  void aggregator
    .stop()
    .then(() => store.close())
    .then(() => {
      report({
        kind: 'progress',
        folded: aggregator.folded,
        duplicates: aggregator.duplicates,
        lagSeconds: aggregator.lagSeconds,
      });
      port.close();
    });
});
aggregator.start();
