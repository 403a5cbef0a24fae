import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { tempDataDir } from '../support/temp-data.js';
import { makeId } from './store-factories.js';

type ThreadReport =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly granted: readonly boolean[] }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * A thread with a connection of its own, as another process on the file would have: it
 * opens the store, says it is ready, waits at the gate, then takes redirects as fast as
 * it can. A worker does not inherit the TypeScript loader, so it loads the store via tsx.
 */
const TAKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const gate = new Int32Array(workerData.gate);
import('tsx/esm/api')
  .then(({ tsImport }) => tsImport(workerData.storeModule, workerData.parent))
  .then(async ({ SqliteStore }) => {
    const store = SqliteStore.open({ file: workerData.file });
    try {
      parentPort.postMessage({ kind: 'ready' });
      Atomics.wait(gate, 0, 0);
      const granted = [];
      for (let index = 0; index < workerData.takes; index += 1) {
        granted.push(await store.redirectAllowance.take(workerData.linkId, workerData.limit));
      }
      parentPort.postMessage({ kind: 'done', granted });
    } finally {
      await store.close();
    }
  })
  .catch((error) => parentPort.postMessage({ kind: 'failed', reason: String(error && error.stack) }));
`;

interface Taker {
  readonly ready: Promise<void>;
  readonly done: Promise<readonly boolean[]>;
  readonly worker: Worker;
}

function startTaker(workerData: Record<string, unknown>): Taker {
  const worker = new Worker(TAKER_SOURCE, { eval: true, workerData });
  let ready!: () => void;
  const readyPromise = new Promise<void>((resolve) => (ready = resolve));
  const done = new Promise<readonly boolean[]>((resolve, reject) => {
    worker.on('message', (report: ThreadReport) => {
      if (report.kind === 'ready') ready();
      else if (report.kind === 'done') resolve(report.granted);
      else reject(new Error(report.reason));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`taker thread exited with ${code}`)));
  });
  // A thread that fails before it is ready must not leave the test waiting at the gate.
  return { ready: Promise.race([readyPromise, done.then(() => undefined)]), done, worker };
}

test('SQLite: 50 takes from 5 connections in parallel threads, limit 10: exactly 10 granted', async (t) => {
  const file = join(tempDataDir(t, 'hop-allowance-'), 'hop.db');
  // Migrated once here, so the threads race on takes only.
  const store = SqliteStore.open({ file });
  t.after(() => store.close());
  const gate = new SharedArrayBuffer(4);
  const linkId = makeId();
  const takers = Array.from({ length: 5 }, () =>
    startTaker({
      gate,
      file,
      linkId,
      limit: 10,
      takes: 10,
      storeModule: new URL('../../src/adapters/sqlite/sqlite-store.ts', import.meta.url).href,
      parent: import.meta.url,
    }),
  );
  const opened = new Int32Array(gate);
  const openGate = () => {
    Atomics.store(opened, 0, 1);
    Atomics.notify(opened, 0);
  };
  // Should a thread fail, the others must not wait at the gate for ever.
  t.after(async () => {
    openGate();
    await Promise.all(takers.map((taker) => taker.worker.terminate()));
  });
  await Promise.all(takers.map((taker) => taker.ready));
  openGate();

  const granted = (await Promise.all(takers.map((taker) => taker.done))).flat();
  assert.equal(granted.length, 50);
  assert.equal(granted.filter(Boolean).length, 10);
  assert.equal(await store.redirectAllowance.taken(linkId), 10);
});
