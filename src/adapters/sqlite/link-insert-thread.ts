import type { Worker } from 'node:worker_threads';
import { startEntryWorker } from '../threads/entry-worker.js';
import type { ClaimToWrite, RowInsertResult } from './sqlite-link-inserts.js';
import type { LinkRow } from './sqlite-link-rows.js';
import { storeUnavailable } from './sqlite-errors.js';
import { describeWorkerError } from '../threads/worker-error.js';

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
  /** The driver's message and code (`SQLITE_BUSY` …); the link was not stored. */
  | { readonly id: number; readonly failed: string; readonly code: string | undefined };

/** The creates' writer, off the event loop (ADR 0144). */
export interface LinkInsertThread {
  /**
   * Writes one link's row (and its claim) in one transaction there. Null, having sent
   * nothing, while a thread that ended unasked waits to be started again: the caller
   * writes it on its own connection meanwhile.
   */
  insert(row: LinkRow, claim: ClaimToWrite | undefined): Promise<RowInsertResult> | null;
  /** Lets the inserts already sent finish, then closes the thread's connection. */
  stop(): Promise<void>;
}

interface Waiting {
  readonly resolve: (result: RowInsertResult) => void;
  readonly reject: (error: Error) => void;
}

/** A thread that ended unasked is started again by the first create after this long. */
const RESTART_AFTER_MS = 1_000;

/**
 * Starts the thread that writes creates to `file` (ADR 0144). A create's commit is SQLite
 * writing a dozen pages to the WAL, two syscalls each, and taking and dropping its locks:
 * about half of what a create cost the event loop, measured, and every redirect behind
 * it on that loop waited for it. A thread that ends unasked fails the creates it held
 * (503, retryable: nothing was answered as stored) and says why; for RESTART_AFTER_MS the
 * creates are the caller's to write, then the next one starts a new thread.
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
  let downUntil = 0;

  const spawn = (): Worker => {
    const workerData: LinkInsertThreadData = { file };
    const started = startEntryWorker(import.meta.url, 'link-insert-thread-entry', { workerData });
    let failure: string | null = null;
    started.on('message', (message: FromLinkInsertThread) => {
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      // Held only while a create waits on it: an idle thread never keeps the process up.
      if (waiting.size === 0 && !stopping) started.unref();
      if (waiter === undefined) return;
      if ('result' in message) {
        waiter.resolve(message.result);
      } else {
        const cause = Object.assign(new Error(message.failed), { code: message.code });
        waiter.reject(storeUnavailable('store the link', cause));
      }
    });
    started.on('error', (error: unknown) => {
      failure = describeWorkerError(error);
    });
    exited = new Promise((resolve) => {
      started.once('exit', (code) => {
        if (worker === started) worker = null;
        const reason = `the link insert thread exited with code ${code}${failure === null ? '' : `: ${failure}`}`;
        const lost = storeUnavailable('store the link', new Error(reason));
        for (const waiter of waiting.values()) waiter.reject(lost);
        waiting.clear();
        if (!stopping) {
          downUntil = performance.now() + RESTART_AFTER_MS;
          onLost(reason);
        }
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
      if (worker === null && performance.now() < downUntil) return null;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        try {
          worker ??= spawn();
          waiting.set(id, { resolve, reject });
          worker.ref();
          worker.postMessage({ id, row, claim } satisfies ToLinkInsertThread);
        } catch (error) {
          // A value that cannot be cloned, or a thread that cannot be made: a 503 all the same.
          waiting.delete(id);
          if (waiting.size === 0) worker?.unref();
          reject(storeUnavailable('store the link', error));
        }
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
