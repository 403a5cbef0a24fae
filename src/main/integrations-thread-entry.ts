/**
 * `hop serve`'s integrations thread (ADR 0132): webhook fan-out and delivery, and the
 * event streams' reading and rendering, on connections of its own, at the lowest CPU
 * priority. See integrations-thread.ts for the other side.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { WriteSpooledChunk } from '../adapters/sqlite/sqlite-fold-log-spool.js';
import { JobScheduler } from '../jobs/job-scheduler.js';
import { reloadDomains } from '../jobs/reload-domains.js';
import { writeOutFoldLogs } from '../jobs/write-out-fold-logs.js';
import { createLogger } from '../observability/logger.js';
import { systemClock } from '../ports/clock.js';
import { HopError } from '../domain/errors.js';
import type { EventSubscription, StreamEnd } from '../services/events/event-hub.js';
import { ClickEventDemand } from '../services/events/click-event-demand.js';
import type { StreamFrames } from '../services/events/event-streams.js';
import { LinkPlaces } from '../services/events/link-places.js';
import { DomainRoutes } from '../services/redirect/domain-routes.js';
import { EVENTS_KEEP_MS } from '../services/webhooks/forget-old-events.js';
import { composeEventStreams } from './compose-event-streams.js';
import { composeWebhookJobs } from './compose-webhooks.js';
import type { SpoolWriteAnswer, SpoolWriteRequest } from './aggregator-thread.js';
import type {
  FromIntegrationsThread,
  IntegrationsThreadData,
  ToIntegrationsThread,
} from './integrations-thread.js';
import { openStore } from './open-store.js';

/** The lowest priority (nice 19): CFS gives it ~1.5% of a core its busy neighbours want. */
const LOWEST_PRIORITY = 19;
/**
 * Frame characters sent to a stream's response and not yet taken past which the hub holds
 * that stream back: the response's own bound (STREAM_UNSENT_BYTES) is as large.
 */
const MAX_UNTAKEN = 1024 * 1024;
/** How long a spool write may wait for the aggregator thread's answer. */
const WRITE_TIMEOUT_MS = 60_000;

const port = parentPort;
if (port === null) throw new Error('the integrations thread runs as a worker');
const { config, spoolWrites } = workerData as IntegrationsThreadData;
const logger = createLogger(config.logLevel).child({ thread: 'integrations' });

function post(message: FromIntegrationsThread): void {
  port?.postMessage(message);
}

// Linux keeps a nice value per thread, and setpriority(2) on "this process" sets the
// calling thread's: this one only. Elsewhere it would lower the whole server's.
if (process.platform === 'linux') {
  try {
    setPriority(LOWEST_PRIORITY);
  } catch (error) {
    logger.warn({ err: error }, 'the integrations thread could not lower its priority');
  }
} else {
  logger.info('the integrations thread runs at the server priority on this platform');
}

const opened = await openStore(config, logger, false);
const store = opened.store;
const domainRoutes = new DomainRoutes(store.domains, config.publicUrl);
await domainRoutes.reload();
const places = { domainRoutes, linkPlaces: new LinkPlaces(store.links) };
// Touched here at each poll and fan-out step; `hop serve` hears of it once a minute.
const demand = new ClickEventDemand({
  clock: systemClock,
  keepMs: EVENTS_KEEP_MS,
  onRaise: () => {
    post({ kind: 'click-events-wanted' });
  },
});
const clicksWanted = () => {
  demand.touch();
};
// Planned here, written by the aggregator thread (ADR 0132); without it (a thread started
// with no aggregator thread), planned and written here.
const spool =
  opened.kind === 'sqlite' && spoolWrites !== null
    ? opened.store.foldLogSpoolWritingThrough(writeThrough(spoolWrites))
    : store.foldLogSpool;
const jobs = new JobScheduler(logger);
jobs.start(reloadDomains(domainRoutes));
const webhooks = composeWebhookJobs(config, store, systemClock, logger, places, clicksWanted);
const streams = composeEventStreams(config, store, logger, places, clicksWanted);
let jobsStarted = false;

/**
 * A stream's frames on their way to its response: gathered over a turn of this thread's
 * loop and posted together; held back once `MAX_UNTAKEN` are untaken.
 */
class FramesToResponse implements StreamFrames {
  readonly #id: number;
  #gathered = '';
  #untaken = 0;
  #waiters: (() => void)[] = [];
  #ended = false;

  constructor(id: number) {
    this.#id = id;
  }

  send(frames: string): boolean {
    if (this.#ended) return true;
    if (this.#gathered === '')
      setImmediate(() => {
        this.#flush();
      });
    this.#gathered += frames;
    this.#untaken += frames.length;
    return this.#untaken <= MAX_UNTAKEN;
  }

  ready(): Promise<void> {
    if (this.#ended || this.#untaken <= MAX_UNTAKEN) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  end(reason: StreamEnd): void {
    if (this.#ended) return;
    this.#flush();
    this.#ended = true;
    outgoing.delete(this.#id);
    subscriptions.delete(this.#id);
    post({ kind: 'end', id: this.#id, reason });
    this.#wake();
  }

  /** The response took `size` more characters. */
  taken(size: number): void {
    this.#untaken -= size;
    if (this.#untaken <= MAX_UNTAKEN) this.#wake();
  }

  /** The client went away: nothing more is posted. */
  drop(): void {
    this.#ended = true;
    this.#gathered = '';
    this.#wake();
  }

  #flush(): void {
    if (this.#ended || this.#gathered === '') return;
    post({ kind: 'frames', id: this.#id, text: this.#gathered });
    this.#gathered = '';
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

const outgoing = new Map<number, FramesToResponse>();
const subscriptions = new Map<number, EventSubscription>();

async function open(id: number, message: Extract<ToIntegrationsThread, { kind: 'open' }>) {
  const frames = new FramesToResponse(id);
  outgoing.set(id, frames);
  try {
    subscriptions.set(id, await streams.open(message.principal, message.from, frames));
    post({ kind: 'opened', id });
  } catch (error) {
    outgoing.delete(id);
    const refused =
      error instanceof HopError
        ? { kind: error.kind, detail: error.detail, retryable: error.retryable }
        : {
            kind: 'store-unavailable' as const,
            detail: 'The event logs cannot be read just now.',
            retryable: true,
          };
    if (!(error instanceof HopError)) logger.warn({ err: error }, 'a stream could not open');
    post({ kind: 'refused', id, error: refused });
  }
}

async function stop(): Promise<void> {
  await streams.close();
  await jobs.stop();
  // Attempts in flight finish, each within HOP_WEBHOOK_TIMEOUT, and are recorded.
  await webhooks.stop();
  await store.close();
  // Ends this thread only (not the process), whatever handles a loader left open.
  process.exit(0);
}

port.on('message', (message: ToIntegrationsThread) => {
  switch (message.kind) {
    case 'open':
      void open(message.id, message);
      return;
    case 'start':
      subscriptions.get(message.id)?.start();
      return;
    case 'close':
      outgoing.get(message.id)?.drop();
      outgoing.delete(message.id);
      subscriptions.get(message.id)?.close();
      subscriptions.delete(message.id);
      return;
    case 'taken':
      outgoing.get(message.id)?.taken(message.size);
      return;
    case 'start-jobs':
      if (jobsStarted) return;
      jobsStarted = true;
      webhooks.start(jobs);
      if (spool !== null) jobs.start(writeOutFoldLogs(spool));
      return;
    case 'close-streams':
      void streams.close().then(() => {
        post({ kind: 'streams-closed' });
      });
      return;
    case 'stop':
      stop().catch((error: unknown) => {
        logger.error({ err: error }, 'the integrations thread could not stop cleanly');
        process.exit(1);
      });
      return;
  }
});

/**
 * Sends each chunk to the aggregator thread on `port` and resolves with its answer. An
 * answer that does not come (that thread gone) fails the write after WRITE_TIMEOUT_MS: the
 * job retries, and the chunk, planned again, is written once.
 */
function writeThrough(port: MessagePort): WriteSpooledChunk {
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
