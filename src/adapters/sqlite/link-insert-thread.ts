import { Worker } from 'node:worker_threads';
import type { ClaimToWrite, RowInsertResult } from './sqlite-link-inserts.js';
import type { LinkRow } from './sqlite-link-rows.js';
import { storeUnavailable } from './sqlite-errors.js';

export interface LinkInsertThreadData {
  /** hop.db, already migrated. */
  readonly file: string;
}

/** One create to write, or the end. */
export type ToLinkInsertThread =
  | {
      readonly id: number;
      readonly row: LinkRow;
      readonly claim: ClaimToWrite | undefined;
    }
  | 'stop';

export type FromLinkInsertThread =
  | { readonly id: number; readonly result: RowInsertResult }
  /** The driver's message; the link was not stored. */
  | { readonly id: number; readonly failed: string };

/** The creates' writer, off the event loop (ADR 0144). */
export interface LinkInsertThread {
  /** Writes one link's row (and its claim) in one transaction there; never here. */
  insert(row: LinkRow, claim: ClaimToWrite | undefined): Promise<RowInsertResult>;
  /** Lets the inserts already sent finish, then closes the thread's connection. */
  stop(): Promise<void>;
}

interface Waiting {
  readonly resolve: (result: RowInsertResult) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Starts the thread that writes creates to `file` (ADR 0144). A create's commit is SQLite
 * writing a dozen pages to the WAL, two syscalls each, and taking and dropping its locks:
 * about half of what a create costs the event loop, measured, and every redirect behind
 * it on that loop waited for it. A thread that ends unasked fails the creates it held
 * (503, retryable: nothing was answered as stored) and is started again by the next one.
 * Under tsx (tests, `npm start`) the thread loads the TypeScript entry through tsx's API,
 * as the aggregator thread does.
 */
export function startLinkInsertThread(
  file: string,
  onLost: (reason: string) => void,
): LinkInsertThread {
  const waiting = new Map<number, Waiting>();
  let nextId = 0;
  let stopping = false;
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();

  const spawn = (): Worker => {
    const underTsx = import.meta.url.endsWith('.ts');
    const entry = new URL(
      underTsx ? './link-insert-thread-entry.ts' : './link-insert-thread-entry.js',
      import.meta.url,
    );
    const workerData: LinkInsertThreadData = { file };
    const started = underTsx
      ? new Worker(
          `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}));`,
          { eval: true, workerData },
        )
      : new Worker(entry, { workerData });
    started.on('message', (message: FromLinkInsertThread) => {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      // Held only while a create waits on it: an idle thread never keeps the process up.
      if (waiting.size === 0 && !stopping) started.unref();
      if (waiter === undefined) return;
      if ('result' in message) waiter.resolve(message.result);
      else waiter.reject(storeUnavailable('store the link', new Error(message.failed)));
    });
    started.on('error', (error: unknown) => {
      onLost(error instanceof Error ? error.message : String(error));
    });
    exited = new Promise((resolve) => {
      started.once('exit', (code) => {
        if (worker === started) worker = null;
        const lost = storeUnavailable(
          'store the link',
          new Error(`insert thread exited (${code})`),
        );
        for (const waiter of waiting.values()) waiter.reject(lost);
        waiting.clear();
        if (!stopping) onLost(`the link insert thread exited with code ${code}`);
        resolve();
      });
    });
    started.unref();
    return started;
  };

  return {
    insert(row, claim) {
      if (stopping) {
        return Promise.reject(storeUnavailable('store the link', new Error('stopping')));
      }
      worker ??= spawn();
      const thread = worker;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread.ref();
        thread.postMessage({ id, row, claim } satisfies ToLinkInsertThread);
      });
    },
    async stop() {
      stopping = true;
      if (worker === null) return;
      worker.ref();
      worker.postMessage('stop' satisfies ToLinkInsertThread);
      await exited;
    },
  };
}
