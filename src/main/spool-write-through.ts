import type { MessagePort } from 'node:worker_threads';
import type { WriteSpooledChunk } from '../adapters/sqlite/sqlite-fold-log-spool.js';
import type { SpoolWriteAnswer, SpoolWriteRequest } from './aggregator-thread.js';

/** How long a spool write may wait for the aggregator thread's answer. */
const WRITE_TIMEOUT_MS = 60_000;

/**
 * Sends each chunk to the aggregator thread on `port` and resolves with its answer. An
 * answer that does not come (that thread gone) fails the write after WRITE_TIMEOUT_MS: the
 * job retries, and the chunk, planned again, is written once.
 */
export function writeThrough(port: MessagePort): WriteSpooledChunk {
  let nextId = 0;
  const waiting = new Map<number, (answer: SpoolWriteAnswer | null) => void>();
  port.on('message', (answer: SpoolWriteAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  port.on('close', () => {
    for (const settle of waiting.values()) settle(null);
    waiting.clear();
  });
  port.unref();
  return (chunk) =>
    new Promise<boolean>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the aggregator thread did not answer a spool write'));
      }, WRITE_TIMEOUT_MS);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer === null) reject(new Error('the aggregator thread is gone'));
        else if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer.written);
      });
      const request: SpoolWriteRequest = { id, chunk };
      port.postMessage(request);
    });
}
