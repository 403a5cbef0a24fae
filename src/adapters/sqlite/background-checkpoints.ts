import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { describeWorkerError } from '../threads/worker-error.js';

/** What the worker reports after each checkpoint. */
export type CheckpointResult =
  | { readonly kind: 'checkpointed'; readonly walPages: number; readonly copiedPages: number }
  | { readonly kind: 'failed'; readonly reason: string };

/** A running checkpoint worker; `stop` ends it and closes its connection. */
export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

/**
 * The worker, as plain JavaScript evaluated in the thread: a worker does not inherit the
 * TypeScript loader `npm start` and the tests run under, and this is a dozen lines.
 * PASSIVE never waits for readers or writers; what it cannot copy now it copies next time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ kind: 'checkpointed', walPages: row.log, copiedPages: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', reason: String(error && error.message) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Starts a worker thread that copies the WAL back into the database file (a checkpoint)
 * every `intervalMs` on its own connection, so the fsyncs of a checkpoint never stall the
 * event loop that answers redirects (ADR 0026). The caller turns off SQLite's
 * automatic checkpoints on its own connection, which would run them inside a commit.
 */
export function startBackgroundCheckpoints(
  file: string,
  intervalMs: number,
  onResult: (result: CheckpointResult) => void,
  /** The worker ended without being stopped: someone else must checkpoint now. */
  onLost: () => void,
): BackgroundCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, driver },
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopping) onLost();
      resolve();
    });
  });
  worker.on('message', (result: CheckpointResult) => {
    onResult(result);
  });
  worker.on('error', (error: unknown) => {
    onResult({ kind: 'failed', reason: describeWorkerError(error) });
  });
  // Never keeps the process alive by itself.
  worker.unref();
  return {
    stop: () => {
      // Held again so the process waits for the worker's connection to close. A worker
      // that already ended ignores the message; `exited` is then settled.
      stopping = true;
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
