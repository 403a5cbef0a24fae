import type { MessagePort, Worker } from 'node:worker_threads';
import { startEntryWorker } from '../adapters/threads/entry-worker.js';
import type { Config } from '../config/config.js';
import { HopError, type ErrorKind } from '../domain/errors.js';
import type { Principal } from '../domain/principal.js';
import type { Logger } from '../observability/logger.js';
import type { EventSubscription, StreamEnd } from '../services/events/event-hub.js';
import type { StreamFrames } from '../services/events/event-streams.js';
import type { StreamPosition } from '../services/events/stream-position.js';
import type { Integrations } from './compose-integration-work.js';

/** From `hop serve` to the integrations thread. */
export type ToIntegrationsThread =
  | { readonly kind: 'start-jobs' }
  | {
      readonly kind: 'open';
      readonly id: number;
      readonly principal: Principal;
      readonly from: StreamPosition | null;
    }
  /** The stream's headers are out: its replay may begin. */
  | { readonly kind: 'start'; readonly id: number }
  /** The client went away. */
  | { readonly kind: 'close'; readonly id: number }
  /** The stream's response took these frames and has room for more. */
  | { readonly kind: 'taken'; readonly id: number; readonly size: number }
  | { readonly kind: 'close-streams' }
  | { readonly kind: 'stop' };

/** From the integrations thread to `hop serve`. */
export type FromIntegrationsThread =
  | { readonly kind: 'opened'; readonly id: number }
  | {
      readonly kind: 'refused';
      readonly id: number;
      readonly error: {
        readonly kind: ErrorKind;
        readonly detail: string;
        readonly retryable: boolean;
      };
    }
  | { readonly kind: 'frames'; readonly id: number; readonly text: string }
  | { readonly kind: 'end'; readonly id: number; readonly reason: StreamEnd }
  /** A stream is open or a webhook takes `link.clicked` (ADR 0131). */
  | { readonly kind: 'click-events-wanted' }
  | { readonly kind: 'streams-closed' };

export interface IntegrationsThreadData {
  readonly config: Config;
  /** Where the spool's planned rows go to be written: the aggregator thread (ADR 0132). */
  readonly spoolWrites: MessagePort | null;
}

/** A thread that ended on its own is started again after this long. */
const RESTART_AFTER_MS = 1_000;

interface OpenStream {
  readonly frames: StreamFrames;
  opening: { resolve(subscription: EventSubscription): void; reject(error: unknown): void } | null;
}

/**
 * The integrations thread as `hop serve` sees it (ADR 0132): the event streams, whose
 * frames it writes to their responses as they come, telling the thread when a response
 * has taken them (so a slow client holds the thread's reads back, not memory here); and
 * the webhook jobs, which run there entirely. A thread that ends unasked is logged and
 * started again: its work waits in the logs and the outbox meanwhile.
 */
export function startIntegrationsThread(
  config: Config,
  logger: Logger,
  clicksWanted: () => void,
  spoolWrites: () => MessagePort | null,
): Integrations {
  const streams = new Map<number, OpenStream>();
  let nextId = 0;
  let jobsStarted = false;
  let stopping = false;
  let streamsClosed: (() => void) | null = null;
  let alive = false;
  let worker = spawn();

  function spawn(): Worker {
    const port = spoolWrites();
    const workerData: IntegrationsThreadData = { config, spoolWrites: port };
    const started = startEntryWorker(import.meta.url, 'integrations-thread-entry', {
      workerData,
      transferList: port === null ? [] : [port],
    });
    started.on('message', (message: FromIntegrationsThread) => {
      onMessage(message);
    });
    started.on('error', (error: unknown) => {
      logger.error({ err: error }, 'the integrations thread failed');
    });
    alive = true;
    started.once('exit', (code) => {
      alive = false;
      const closing = new HopError('store-unavailable', 'The event stream is restarting.', {
        retryable: true,
      });
      for (const stream of streams.values()) {
        stream.opening?.reject(closing);
        stream.frames.end('failed');
      }
      streams.clear();
      streamsClosed?.();
      if (stopping) return;
      logger.error({ code }, 'the integrations thread ended; starting it again');
      setTimeout(() => {
        if (stopping) return;
        worker = spawn();
        if (jobsStarted) post({ kind: 'start-jobs' });
      }, RESTART_AFTER_MS).unref();
    });
    // The server keeps the process alive; at shutdown `stop` waits for the thread.
    started.unref();
    return started;
  }

  function post(message: ToIntegrationsThread): void {
    worker.postMessage(message);
  }

  function onMessage(message: FromIntegrationsThread): void {
    switch (message.kind) {
      case 'frames': {
        const stream = streams.get(message.id);
        if (stream === undefined) return;
        const size = message.text.length;
        if (stream.frames.send(message.text)) post({ kind: 'taken', id: message.id, size });
        else
          void stream.frames.ready().then(() => {
            post({ kind: 'taken', id: message.id, size });
          });
        return;
      }
      case 'end': {
        const stream = streams.get(message.id);
        streams.delete(message.id);
        stream?.frames.end(message.reason);
        return;
      }
      case 'opened': {
        const stream = streams.get(message.id);
        const opening = stream?.opening;
        if (stream === undefined || opening === null || opening === undefined) return;
        stream.opening = null;
        const id = message.id;
        opening.resolve({
          start: () => {
            post({ kind: 'start', id });
          },
          close: () => {
            if (streams.delete(id)) post({ kind: 'close', id });
          },
        });
        return;
      }
      case 'refused': {
        const stream = streams.get(message.id);
        streams.delete(message.id);
        const { kind, detail, retryable } = message.error;
        stream?.opening?.reject(new HopError(kind, detail, { retryable }));
        return;
      }
      case 'click-events-wanted':
        clicksWanted();
        return;
      case 'streams-closed':
        streamsClosed?.();
        return;
    }
  }

  return {
    streams: {
      open: (principal, from, frames) =>
        new Promise<EventSubscription>((resolve, reject) => {
          if (stopping) {
            reject(
              new HopError('store-unavailable', 'This instance is shutting down.', {
                retryable: true,
              }),
            );
            return;
          }
          const id = nextId++;
          streams.set(id, { frames, opening: { resolve, reject } });
          post({ kind: 'open', id, principal, from });
        }),
      close: () =>
        new Promise<void>((resolve) => {
          if (!alive) {
            resolve();
            return;
          }
          streamsClosed = resolve;
          post({ kind: 'close-streams' });
        }),
    },
    start: () => {
      jobsStarted = true;
      post({ kind: 'start-jobs' });
    },
    stop: () => {
      stopping = true;
      if (!alive) return Promise.resolve();
      const current = worker;
      current.ref();
      const exited = new Promise<void>((resolve) =>
        current.once('exit', () => {
          resolve();
        }),
      );
      post({ kind: 'stop' });
      return exited;
    },
  };
}
